package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.LlpSegmentWriter;

/**
 * A lower layer that hands every segment straight to a receiver (as MPA would after a TCP round trip),
 * checking on the way the segmentation rules every segment must obey: header + payload ≤ MULPDU, DV = 1,
 * Rsvd = 0.
 */
public final class LoopbackLlp implements LlpSegmentWriter {

    public int mulpdu;
    private final ByteBufAllocator allocator;
    public DdpReceiver receiver;
    public int segments;
    public int lastFlags;

    public LoopbackLlp(int mulpdu) {
        this(mulpdu, ByteBufAllocator.DEFAULT);
    }

    /** With {@code allocator} for the received segments (an unpooled heap allocator is not leak-tracked: fast). */
    public LoopbackLlp(int mulpdu, ByteBufAllocator allocator) {
        this.mulpdu = mulpdu;
        this.allocator = allocator;
    }

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        ByteBuf segment;
        try {
            int length = header.readableBytes() + payload.readableBytes();
            if (length > mulpdu) {
                throw new AssertionError("segment of " + length + " octets exceeds MULPDU " + mulpdu);
            }
            int control = header.getUnsignedByte(header.readerIndex());
            if (DdpControl.version(control) != 1 || DdpControl.reserved(control) != 0) {
                throw new AssertionError("bad control octet " + Integer.toHexString(control));
            }
            if (DdpControl.isLast(control)) {
                lastFlags++;
            }
            segment = allocator.heapBuffer(length).writeBytes(header, header.readerIndex(),
                    header.readableBytes()).writeBytes(payload, payload.readerIndex(), payload.readableBytes());
        } finally {
            header.release();
            payload.release();
        }
        segments++;
        receiver.receive(segment);
    }
}
