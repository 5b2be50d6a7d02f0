package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.send.LlpSegmentWriter;

import java.util.ArrayDeque;

/** A lower layer that joins each segment's header and payload into one ULPDU and queues it. */
final class CapturingLlp implements LlpSegmentWriter, AutoCloseable {

    int mulpdu;
    final ArrayDeque<ByteBuf> ulpdus = new ArrayDeque<>();
    long written;
    private final ByteBufAllocator allocator;

    CapturingLlp(int mulpdu) {
        this(mulpdu, ByteBufAllocator.DEFAULT);
    }

    CapturingLlp(int mulpdu, ByteBufAllocator allocator) {
        this.mulpdu = mulpdu;
        this.allocator = allocator;
    }

    @Override
    public int mulpdu() {
        return mulpdu;
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        try {
            ByteBuf ulpdu = allocator.buffer(header.readableBytes() + payload.readableBytes());
            ulpdu.writeBytes(header, header.readerIndex(), header.readableBytes());
            ulpdu.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
            ulpdus.add(ulpdu);
            written++;
        } finally {
            header.release();
            payload.release();
        }
    }

    /** Removes and returns the octets of the oldest captured ULPDU. */
    byte[] takeBytes() {
        ByteBuf b = ulpdus.poll();
        if (b == null) {
            return null;
        }
        try {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            return bytes;
        } finally {
            b.release();
        }
    }

    @Override
    public void close() {
        ByteBuf b;
        while ((b = ulpdus.poll()) != null) {
            b.release();
        }
    }
}
