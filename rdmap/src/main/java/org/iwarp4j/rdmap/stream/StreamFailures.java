package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.rdmap.terminate.TerminateCause;

/**
 * How a part of the stream fails it. The first failure wins (RFC 5040 §7.1): the stream stops placing, flushes
 * what is outstanding and sends one Terminate carrying the cause and, where the error lies in an incoming
 * message, the headers RFC 5040 Fig 10 asks to copy. Later failures are only logged.
 */
interface StreamFailures {

    /** An error in an incoming segment that is still at hand: its DDP header is copied. */
    void failIncoming(TerminateCause cause, ByteBuf segment, String detail);

    /** An error in a delivered message whose DDP header was captured when its first segment was admitted. */
    void failCaptured(TerminateCause cause, PostedSlot slot, byte[] readRequestHeader, String detail);

    /** An error with the segment's length and the headers to copy given ({@code null}: none). */
    void failWithHeader(TerminateCause cause, int segmentLength, byte[] ddpHeader, byte[] readRequestHeader,
                        String detail);

    /** A local error: no header is copied (Fig 10 case 1). */
    void failLocal(TerminateCause cause, String detail);

    /** DDP refused a segment (RFC 5041 §7.1): the Terminate carries DDP's layer, type, code and header. */
    void failFromDdp(DdpException e);

    /**
     * The cause of a local failure now: MPA's Local catastrophic error while an RFC 6581 Initiator's RTR has not
     * gone out (RFC 6581 §9.3 [MPA-76]), RDMAP's Local Catastrophic Error after it (RFC 5040 §4.8).
     */
    TerminateCause localCatastrophicCause();
}
