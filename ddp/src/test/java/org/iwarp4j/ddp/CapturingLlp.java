package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.send.LlpSegmentWriter;

import java.util.ArrayList;
import java.util.List;

/**
 * A lower layer for tests: reports a settable MULPDU and keeps every segment written as bytes (header
 * followed by payload), releasing the buffers it was given — or, with {@link #keepBuffers}, a pooled copy
 * that a test can feed to a receiver.
 */
public final class CapturingLlp implements LlpSegmentWriter {

    public int mulpdu;
    public final List<byte[]> segments = new ArrayList<>();
    public final List<Integer> headerBufferLengths = new ArrayList<>();
    public final List<Integer> payloadBufferLengths = new ArrayList<>();

    public CapturingLlp(int mulpdu) {
        this.mulpdu = mulpdu;
    }

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        try {
            byte[] bytes = new byte[header.readableBytes() + payload.readableBytes()];
            header.getBytes(header.readerIndex(), bytes, 0, header.readableBytes());
            payload.getBytes(payload.readerIndex(), bytes, header.readableBytes(), payload.readableBytes());
            segments.add(bytes);
            headerBufferLengths.add(header.readableBytes());
            payloadBufferLengths.add(payload.readableBytes());
        } finally {
            header.release();
            payload.release();
        }
    }

    /** Segment {@code i} as a new pooled buffer (the receiver releases it). */
    public ByteBuf segmentBuffer(int i) {
        byte[] bytes = segments.get(i);
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }
}
