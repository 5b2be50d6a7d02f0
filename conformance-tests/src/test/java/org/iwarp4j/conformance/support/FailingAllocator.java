package org.iwarp4j.conformance.support;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fault injection as a decorator (STYLE.md): a pooled allocator that refuses exactly its {@code failAt}-th
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
        return Bytes.ALLOC.heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        check();
        return Bytes.ALLOC.directBuffer(initialCapacity, maxCapacity);
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
