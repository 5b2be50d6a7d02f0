package org.iwarp4j.rdmap.atomic;

import io.netty.buffer.ByteBuf;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * {@link AtomicExecutor} that serialises atomics with striped monitors. One instance per RNIC, shared
 * by all its streams, satisfies RFC 7306 §5 [EXT-05]: two atomics on the same word always map to the
 * same stripe.
 *
 * <p>The stripe is chosen from the word's identity: its native address for direct buffers, else the
 * identity of the backing array plus the array offset. A region registered twice (two views of the
 * same memory) still maps each word to one stripe as long as the views share the backing memory.
 */
public final class LockingAtomicExecutor implements AtomicExecutor {

    private final Object[] stripes;
    private final ByteOrder memoryOrder;

    /** One lock, little-endian memory (the defaults described in {@link AtomicExecutor}). */
    public LockingAtomicExecutor() {
        this(1, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param stripes     number of locks (rounded up to a power of two); more stripes let atomics on
     *                    different words proceed in parallel
     * @param memoryOrder byte order of the target words in registered memory
     */
    public LockingAtomicExecutor(int stripes, ByteOrder memoryOrder) {
        if (stripes < 1 || stripes > (1 << 16)) {
            throw new IllegalArgumentException("stripes must be in [1, 65536]: " + stripes);
        }
        int n = 1;
        while (n < stripes) {
            n <<= 1;
        }
        this.stripes = new Object[n];
        for (int i = 0; i < n; i++) {
            this.stripes[i] = new Object();
        }
        this.memoryOrder = Objects.requireNonNull(memoryOrder, "memoryOrder");
    }

    public ByteOrder memoryOrder() {
        return memoryOrder;
    }

    @Override
    public long fetchAdd(ByteBuf memory, int index, long addData, long addMask) {
        synchronized (stripe(memory, index)) {
            long original = read(memory, index);
            write(memory, index, AtomicMath.maskedAdd(original, addData, addMask));
            return original;
        }
    }

    @Override
    public long compareSwap(ByteBuf memory, int index, long compareData, long compareMask, long swapData,
                            long swapMask) {
        synchronized (stripe(memory, index)) {
            long original = read(memory, index);
            long updated = AtomicMath.maskedCompareSwap(original, compareData, compareMask, swapData, swapMask);
            if (updated != original) {
                write(memory, index, updated);
            }
            return original;
        }
    }

    private long read(ByteBuf memory, int index) {
        return memoryOrder == ByteOrder.LITTLE_ENDIAN ? memory.getLongLE(index) : memory.getLong(index);
    }

    private void write(ByteBuf memory, int index, long value) {
        if (memoryOrder == ByteOrder.LITTLE_ENDIAN) {
            memory.setLongLE(index, value);
        } else {
            memory.setLong(index, value);
        }
    }

    private Object stripe(ByteBuf memory, int index) {
        if (stripes.length == 1) {
            return stripes[0];
        }
        long key;
        if (memory.hasMemoryAddress()) {
            key = memory.memoryAddress() + index;
        } else if (memory.hasArray()) {
            key = ((long) System.identityHashCode(memory.array()) << 32) + memory.arrayOffset() + index;
        } else {
            key = ((long) System.identityHashCode(memory.unwrap() != null ? memory.unwrap() : memory) << 32) + index;
        }
        long h = (key >>> 3) * 0x9E3779B97F4A7C15L;
        return stripes[(int) (h >>> 40) & (stripes.length - 1)];
    }
}
