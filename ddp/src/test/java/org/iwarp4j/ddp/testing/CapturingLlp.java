package org.iwarp4j.ddp.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iwarp4j.ddp.send.LlpSegmentWriter;

/**
 * A lower layer for tests, the one every module's tests share (the {@code iwarp4j-ddp} test-jar): it reports a
 * settable MULPDU and keeps the octets of every segment written (header followed by payload, one ULPDU each),
 * releasing the buffers it was given. A test reads them all ({@link #segments}), or takes them oldest first to
 * feed a receiver ({@link #poll()} as a new buffer from the allocator, which the receiver releases, or
 * {@link #takeBytes()}).
 */
public final class CapturingLlp implements LlpSegmentWriter {

    /** What {@link #mulpdu()} reports; a test may change it between operations. */
    public int mulpdu;
    /** Every segment written since the last {@link #discard()}, oldest first. */
    public final List<byte[]> segments = new ArrayList<>();
    /** The readable length of the header buffer of each segment (how the sender split it); -1: taken in place. */
    public final List<Integer> headerBufferLengths = new ArrayList<>();
    /** The readable length of the payload buffer of each segment; -1: taken in place. */
    public final List<Integer> payloadBufferLengths = new ArrayList<>();

    private final ByteBufAllocator allocator;
    private long written;
    private int taken;

    public CapturingLlp(int mulpdu) {
        this(mulpdu, ByteBufAllocator.DEFAULT);
    }

    /** {@code allocator}: where {@link #poll()} and {@link #segmentBuffer(int)} take their buffers. */
    public CapturingLlp(int mulpdu, ByteBufAllocator allocator) {
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
            byte[] bytes = new byte[header.readableBytes() + payload.readableBytes()];
            header.getBytes(header.readerIndex(), bytes, 0, header.readableBytes());
            payload.getBytes(payload.readerIndex(), bytes, header.readableBytes(), payload.readableBytes());
            segments.add(bytes);
            headerBufferLengths.add(header.readableBytes());
            payloadBufferLengths.add(payload.readableBytes());
            written++;
        } finally {
            header.release();
            payload.release();
        }
    }

    /**
     * Whether segments offered in place ({@link #writeSegmentInPlace}) are taken: written into a buffer of this
     * layer's (at an offset, between octets that must stay) and kept as the others. Off by default: every segment
     * comes as buffers.
     */
    public boolean takesInPlace;
    /** Called by each in-place write before the content is (a test's reentrant write); null: none. */
    public Runnable beforeInPlace;
    private boolean inBefore;
    /** Segments taken in place since the last {@link #discard()}. */
    public int inPlaceTaken;

    @Override
    public boolean writeSegmentInPlace(int length, SegmentContent content) {
        if (!takesInPlace) {
            return false;
        }
        if (length > mulpdu) {
            throw new IllegalStateException("segment of " + length + " octets exceeds MULPDU " + mulpdu);
        }
        Runnable before = beforeInPlace;
        if (before != null && !inBefore) {
            inBefore = true; // not again for what it writes itself
            try {
                before.run();
            } finally {
                inBefore = false;
            }
        }
        byte[] room = new byte[length + 10];
        Arrays.fill(room, (byte) 0x5a);
        ByteBuf buffer = Unpooled.wrappedBuffer(room).setIndex(3, 3);
        content.writeSegment(buffer, 7);
        if (buffer.readerIndex() != 3 || buffer.writerIndex() != 3 || room[6] != 0x5a || room[7 + length] != 0x5a) {
            throw new IllegalStateException("the content wrote outside its segment or moved the indexes");
        }
        segments.add(Arrays.copyOfRange(room, 7, 7 + length));
        headerBufferLengths.add(-1);
        payloadBufferLengths.add(-1);
        inPlaceTaken++;
        written++;
        return true;
    }

    /** Segments written in all, {@link #discard()} or not. */
    public long written() {
        return written;
    }

    /** Segments not yet taken by {@link #poll()} or {@link #takeBytes()}. */
    public int pending() {
        return segments.size() - taken;
    }

    /** The oldest segment not yet taken, as a new buffer from the allocator (the caller releases it); or null. */
    public ByteBuf poll() {
        byte[] bytes = takeBytes();
        return bytes == null ? null : allocator.buffer(bytes.length).writeBytes(bytes);
    }

    /** The octets of the oldest segment not yet taken, or null. */
    public byte[] takeBytes() {
        return taken < segments.size() ? segments.get(taken++) : null;
    }

    /** Segment {@code i} as a new buffer from the allocator (the caller releases it). */
    public ByteBuf segmentBuffer(int i) {
        byte[] bytes = segments.get(i);
        return allocator.buffer(bytes.length).writeBytes(bytes);
    }

    /** Forgets every segment kept so far (a long-running test drops what it has checked). */
    public void discard() {
        segments.clear();
        headerBufferLengths.clear();
        payloadBufferLengths.clear();
        taken = 0;
        inPlaceTaken = 0;
    }
}
