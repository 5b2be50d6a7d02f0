package org.iwarp4j.testkit.fuzz;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import io.netty.util.IllegalReferenceCountException;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An allocator for fuzz targets that finds a leak at the end of the very input that caused it, for
 * the price of a list append per buffer.
 *
 * <p>Why not Netty's detector: at PARANOID it records a stack trace on every access of every buffer
 * (a {@code setByte} loop over a region costs a {@code Throwable} per octet) and it reports a leak
 * only after a garbage collection, long after the input that caused it, so a fuzzer cannot pin it.
 * This allocator hands out plain buffers that Netty does not track (heap, direct and composite),
 * remembers each one, and {@link #assertNoLeaks()} checks that every buffer issued since the last
 * check has been released: exact (a leak is a buffer whose reference count is not 0, whatever the
 * collector thinks), and a failure names the input, which Jazzer then saves as a finding.
 *
 * <p>Direct memory is reused: a new direct buffer of up to 64 KiB gets a block that an earlier, released
 * one gave back (of the power of two that fits it), zeroed as new memory is; only the block is reused,
 * the buffer is a new object, so a buffer used after its release still fails as it would unpooled. A new
 * direct buffer of its own costs a {@code Cleaner} and zeroed native memory each, which the encoders' small
 * buffers paid per FPDU.
 *
 * <p>Buffers the target keeps across inputs (an arena, a stream that lives on) must come from
 * elsewhere, or be issued before a {@link #forget()}. Code that allocates from
 * {@code ByteBufAllocator.DEFAULT} itself is still caught by the PARANOID detector, by the testkit's
 * leak extension after the fuzz test. Not thread-safe: one fuzzing thread.
 */
public final class LeakCheckingAllocator extends AbstractByteBufAllocator {

    /** Blocks of direct memory kept for reuse: 64 octets to 64 KiB, powers of two. */
    private static final int MIN_BLOCK_SHIFT = 6;
    private static final int MAX_BLOCK_SHIFT = 16;
    /** Free blocks kept per size; more are left to the collector. */
    private static final int MAX_FREE_BLOCKS = 64;

    private final List<ByteBuf> issued = new ArrayList<>();
    private final List<ArrayDeque<ByteBuffer>> freeBlocks = new ArrayList<>();

    /** Heap buffers by default, as {@code ByteBufAllocator.buffer()} on a JVM without a direct preference. */
    public LeakCheckingAllocator() {
        super(false);
        for (int shift = 0; shift <= MAX_BLOCK_SHIFT; shift++) {
            freeBlocks.add(new ArrayDeque<>());
        }
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return track(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        int shift = Math.max(MIN_BLOCK_SHIFT, 32 - Integer.numberOfLeadingZeros(Math.max(0, initialCapacity - 1)));
        if (shift > MAX_BLOCK_SHIFT) {
            return track(new UnpooledUnsafeDirectByteBuf(this, initialCapacity, maxCapacity));
        }
        ByteBuffer block = freeBlocks.get(shift).poll();
        boolean used = block != null;
        if (!used) {
            block = ByteBuffer.allocateDirect(1 << shift); // zeroed
        }
        block.clear().limit(initialCapacity);
        ReusedDirectByteBuf buffer = new ReusedDirectByteBuf(this, block, shift, maxCapacity);
        if (used) {
            buffer.setZero(0, initialCapacity);
        }
        return track(buffer);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return track(new CompositeByteBuf(this, false, maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return track(new CompositeByteBuf(this, true, maxNumComponents));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    private <T extends ByteBuf> T track(T buffer) {
        issued.add(buffer);
        return buffer;
    }

    private void giveBack(ByteBuffer block, int shift) {
        ArrayDeque<ByteBuffer> free = freeBlocks.get(shift);
        if (free.size() < MAX_FREE_BLOCKS) {
            free.push(block);
        }
    }

    /** Buffers issued since the last check that are not yet released. */
    public int live() {
        int live = 0;
        for (ByteBuf b : issued) {
            if (b.refCnt() != 0) {
                live++;
            }
        }
        return live;
    }

    /** Stops watching every buffer issued so far (for buffers meant to outlive the input). */
    public void forget() {
        issued.clear();
    }

    /**
     * Fails if a buffer issued since the last check (or {@link #forget()}) is still unreleased. The
     * leaked buffers are released first, so one leak is reported once and does not pile up.
     *
     * @throws AssertionError naming how many buffers leaked and what they were
     */
    public void assertNoLeaks() {
        List<String> leaked = null;
        for (ByteBuf b : issued) {
            int refCnt = b.refCnt();
            if (refCnt != 0) {
                if (leaked == null) {
                    leaked = new ArrayList<>();
                }
                leaked.add(b + " refCnt " + refCnt);
            }
        }
        if (leaked != null) {
            // Composites first, the last issued first: each releases what it holds, which then is not released
            // twice; then whatever still holds a reference of its own.
            for (int i = issued.size() - 1; i >= 0; i--) {
                if (issued.get(i) instanceof CompositeByteBuf) {
                    releaseLeaked(issued.get(i));
                }
            }
            for (ByteBuf b : issued) {
                releaseLeaked(b);
            }
        }
        issued.clear();
        if (leaked != null) {
            throw new AssertionError(leaked.size() + " ByteBuf(s) not released after the input: " + leaked);
        }
    }

    private static void releaseLeaked(ByteBuf b) {
        int refCnt = b.refCnt();
        if (refCnt == 0) {
            return;
        }
        try {
            b.release(refCnt);
        } catch (IllegalReferenceCountException heldElsewhere) {
            // a composite held by another composite, released first: what is left goes to the collector
        }
    }

    /**
     * A direct buffer over a block of the allocator's (a view of its first {@code initialCapacity} octets), which
     * gives the block back once released. Grown past the block, it moves to memory of its own, as any unpooled
     * buffer does, and the block waits unused until the release.
     */
    private static final class ReusedDirectByteBuf extends UnpooledUnsafeDirectByteBuf {

        private final LeakCheckingAllocator owner;
        private final ByteBuffer block;
        private final int shift;

        ReusedDirectByteBuf(LeakCheckingAllocator owner, ByteBuffer block, int shift, int maxCapacity) {
            super(owner, block, maxCapacity); // a view of the block, not freed by the buffer
            this.owner = owner;
            this.block = block;
            this.shift = shift;
            setIndex(0, 0); // that constructor treats the octets as written
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            owner.giveBack(block, shift);
        }
    }
}
