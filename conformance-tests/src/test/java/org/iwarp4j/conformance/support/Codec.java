package org.iwarp4j.conformance.support;

import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.netty.FpduDecoder;

/** The stack's FPDU codec, used directly (below the startup handler). */
public final class Codec {

    private Codec() {}

    /** The stack's wire octets for one ULPDU framed at {@code streamOffset}. */
    public static byte[] frame(boolean crc, boolean markers, int streamOffset, byte[] ulpdu) {
        return Bytes.drain(new FpduWriter(crc, markers, 0xFFFF, streamOffset).encode(Bytes.direct(ulpdu), Bytes.ALLOC));
    }

    /** An EmbeddedChannel whose pipeline is the stack's FPDU decoder for one half connection + the probe. */
    public static EmbeddedChannel decoder(boolean crc, boolean markers, int streamOffset, StackProbe probe) {
        return new EmbeddedChannel(new FpduDecoder(new FpduReader(crc, markers, Mulpdu.MAX, streamOffset)), probe);
    }
}
