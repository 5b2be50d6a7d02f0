package org.iwarp4j.oracle;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Incremental use of {@link FpduFraming}: feed the octets of one half connection in any pieces, get every
 * FPDU as soon as it is complete (RFC 5044 §6: an FPDU is located by ULPDU_Length only).
 */
public final class FpduStreamDecoder {

    private final FpduFraming framing;
    private byte[] pending = new byte[0];

    public FpduStreamDecoder(FpduFraming framing) {
        this.framing = framing;
    }

    /** Adds octets and returns the FPDUs they completed, in order. */
    public List<DecodedFpdu> feed(byte[] octets) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.writeBytes(pending);
        joined.writeBytes(octets);
        byte[] buf = joined.toByteArray();
        List<DecodedFpdu> out = new ArrayList<>();
        int at = 0;
        while (true) {
            int hdr = framing.headerPosition();
            if (buf.length - at < hdr + 2) {
                break;
            }
            int ulpduLength = ((buf[at + hdr] & 0xFF) << 8) | (buf[at + hdr + 1] & 0xFF);
            int wire = framing.wireLength(ulpduLength);
            if (buf.length - at < wire) {
                break;
            }
            out.add(framing.decode(Arrays.copyOfRange(buf, at, at + wire)));
            at += wire;
        }
        pending = Arrays.copyOfRange(buf, at, buf.length);
        return out;
    }

    /** Octets of an incomplete FPDU still waiting for the rest. */
    public int pendingOctets() {
        return pending.length;
    }
}
