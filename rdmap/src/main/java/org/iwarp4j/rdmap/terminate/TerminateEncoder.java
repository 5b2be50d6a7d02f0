package org.iwarp4j.rdmap.terminate;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.wire.TerminateHeader;

/**
 * Writes the Terminate header (RFC 5040 §4.8) of a {@link Terminate} in the RFC layout: the Terminate
 * Control word, then — iff D=1 — the 16-bit DDP Segment Length and the copied DDP header, then — iff
 * R=1 — the copied Read Request header. Reserved bits are zero [RDMAP-08]. The untagged DDP header in
 * front (QN 2, MSN 1, MO 0 [RDMAP-19]) is DDP's job.
 */
public final class TerminateEncoder {

    private TerminateEncoder() {
    }

    /**
     * Appends the Terminate header to {@code out} at its writer index.
     *
     * @return the number of octets written ({@link Terminate#encodedLength()})
     */
    public static int encode(Terminate terminate, ByteBuf out) {
        int start = out.writerIndex();
        out.ensureWritable(terminate.encodedLength());
        TerminateHeader header = new TerminateHeader().wrap(out, start);
        header.control(terminate.layer(), terminate.errorType(), terminate.errorCode(), terminate.m(),
                terminate.d(), terminate.r());
        out.writerIndex(start + TerminateHeader.CONTROL_LENGTH);
        if (terminate.d()) {
            // RFC 5040 §4.8: the DDP Segment Length MUST be present when D is set.
            out.writeShort(Math.max(terminate.ddpSegmentLength(), 0));
            if (terminate.terminatedDdpHeader() != null) {
                out.writeBytes(terminate.terminatedDdpHeader());
            }
        }
        if (terminate.r() && terminate.terminatedRdmaHeader() != null) {
            out.writeBytes(terminate.terminatedRdmaHeader());
        }
        return out.writerIndex() - start;
    }
}
