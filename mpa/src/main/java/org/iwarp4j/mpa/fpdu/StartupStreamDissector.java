package org.iwarp4j.mpa.fpdu;

import org.iwarp4j.mpa.FramingNegotiation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;

/**
 * Dissects whole half connections as captured from the first MPA octet: the MPA Request or Reply,
 * then the FPDUs with the negotiated settings, SeqStart being the first octet after the frame
 * (RFC 5044 §4.3, §7.1.2 rule 7). For {@code iwarp explain} and tests; never throws for bad input.
 */
public final class StartupStreamDissector {

    /**
     * One direction: its startup frame (or the error that made it invalid) and its FPDUs.
     *
     * @param frame      the Request/Reply, or {@code null} if it is incomplete or invalid
     * @param frameError why the frame is invalid (0x04), or {@code null}
     * @param fpdus      the FPDUs after the frame, or {@code null} when none were dissected (no valid frame, or a reject)
     */
    public record HalfConnection(MpaFrame frame, DissectionError frameError, FpduDissection fpdus) {}

    /** Both directions of one connection. */
    public record Conversation(HalfConnection initiatorToResponder, HalfConnection responderToInitiator,
                               boolean crc, boolean markersInitiatorToResponder, boolean markersResponderToInitiator) {}

    private StartupStreamDissector() {}

    /** One direction with explicitly given settings (when the other direction is not available). */
    public static HalfConnection dissect(byte[] bytes, boolean crc, boolean markers, int ulpduLimit) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        MpaFrame frame;
        try {
            frame = MpaFrameCodec.parse(in);
        } catch (MpaException e) {
            return new HalfConnection(null, new DissectionError(e.error(), (int) Math.max(0, e.streamOffset()),
                    MpaException.NO_OFFSET, e.getMessage()), null);
        }
        if (frame == null) {
            return new HalfConnection(null, null, null);
        }
        in.skipBytes(frame.length());
        return new HalfConnection(frame, null, new FpduDissector(crc, markers, 0, ulpduLimit).dissect(in));
    }

    /**
     * Both directions, with the settings negotiated by their frames: CRC if either frame has C=1
     * (RFC 5044 §4.4); markers Initiator→Responder if the Reply has M=1, Responder→Initiator if the
     * Request has M=1 (§7.1.1). After a reject (R=1) no FPDUs are dissected.
     */
    public static Conversation dissectConversation(byte[] initiatorToResponder, byte[] responderToInitiator, int ulpduLimit) {
        HalfConnection i = dissect(initiatorToResponder, false, false, ulpduLimit);
        HalfConnection r = dissect(responderToInitiator, false, false, ulpduLimit);
        if (i.frame() == null || r.frame() == null) {
            return new Conversation(i, r, false, false, false);
        }
        boolean crc = FramingNegotiation.crc(i.frame(), r.frame());
        boolean mI2R = FramingNegotiation.senderInsertsMarkers(r.frame());
        boolean mR2I = FramingNegotiation.senderInsertsMarkers(i.frame());
        if (r.frame().rejected()) {
            return new Conversation(new HalfConnection(i.frame(), null, null), new HalfConnection(r.frame(), null, null),
                    crc, mI2R, mR2I);
        }
        return new Conversation(dissect(initiatorToResponder, crc, mI2R, ulpduLimit),
                dissect(responderToInitiator, crc, mR2I, ulpduLimit), crc, mI2R, mR2I);
    }
}
