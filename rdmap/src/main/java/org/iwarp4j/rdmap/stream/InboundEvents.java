package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.common.RtrType;

/**
 * What the inbound side tells the stream beyond placement and delivery: that a segment or message arrived (the
 * first one decides RFC 6581's RTR handling), that an RTR or a Terminate came.
 */
interface InboundEvents {

    /** Whether the stream still admits segments (not after a failure, a Terminate or a close). */
    boolean operational();

    /** Before any check of each admitted segment (the first one tells whether held receives follow a Send RTR). */
    void segmentArriving(boolean tagged, int rdmapControl, int qn, int msn, int mo, int payloadLength,
                         boolean last);

    /** A message was delivered or placed whole: the stream is past its first message. */
    void messageReceived();

    /** The peer's RFC 6581 RTR of {@code type} arrived. */
    void rtrReceived(RtrType type);

    /** A Terminate arrived on QN 2, the whole segment at hand (RFC 5040 §5.4). */
    void terminateReceived(ByteBuf segment, int msn, int payloadLength);
}
