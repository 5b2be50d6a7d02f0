package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;

/**
 * RDMAP's wrapper around a receive the verbs layer posted on QN 0 (RFC 5040 §5.3). It remembers the
 * work request id, and diverts an Immediate Data message (RFC 7306 §6): those 8 octets consume the
 * receive but belong in the completion, not in the receive buffer — which may even be zero-length, as
 * for "RDMA Write with Immediate". The admission hook switches the slot to immediate mode before DDP
 * checks the capacity and places.
 */
final class ReceiveSlot extends PostedSlot {

    long workRequestId;
    /** The verbs layer's buffer; {@code null} for the internal slot that absorbs a zero-length Send RTR. */
    UntaggedBuffer target;
    boolean rtr;
    boolean immediate;
    long immediateData;

    void reset(long id, UntaggedBuffer buffer, boolean isRtr) {
        this.workRequestId = id;
        this.target = buffer;
        this.rtr = isRtr;
        this.immediate = false;
        this.immediateData = 0;
        clearCapture();
    }

    @Override
    public int capacity() {
        if (immediate) {
            return ImmediateDataHeader.LENGTH;
        }
        return target == null ? 0 : target.capacity();
    }

    @Override
    public void place(int messageOffset, ByteBuf source, int sourceIndex, int length) {
        if (immediate) {
            // DDP checked messageOffset + length <= 8; the admission hook requires exactly MO 0, 8 octets.
            for (int i = 0; i < length; i++) {
                int shift = 8 * (7 - (messageOffset + i));
                immediateData = (immediateData & ~(0xFFL << shift))
                        | ((source.getByte(sourceIndex + i) & 0xFFL) << shift);
            }
        } else {
            target.place(messageOffset, source, sourceIndex, length);
        }
    }
}
