package org.iwarp4j.testkit;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fault injection as a decorator for tests: a pooled allocator that refuses exactly its {@code failAt}-th
 * allocation (1-based) with an exception, e.g. to make the stack meet a local error at a chosen point.
 */
public final class FailingAllocator extends AbstractByteBufAllocator {

    private final int failAt;
    private final AtomicInteger calls = new AtomicInteger();

    public FailingAllocator(int failAt) {
        super(true);
        this.failAt = failAt;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        check();
        return PooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        check();
        return PooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    private void check() {
        if (calls.incrementAndGet() == failAt) {
            throw new IllegalStateException("injected failure of allocation " + failAt);
        }
    }
}
