package org.iwarp4j.mpa;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;

/** Pooled (leak-tracked) test buffers. */
public final class TestBuffers {

    public static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private TestBuffers() {}

    /** A pooled direct buffer holding {@code bytes}. */
    public static ByteBuf direct(byte[] bytes) {
        ByteBuf b = ALLOC.directBuffer(Math.max(1, bytes.length));
        b.writeBytes(bytes);
        return b;
    }

    /** A pooled heap buffer holding {@code bytes}. */
    public static ByteBuf heap(byte[] bytes) {
        ByteBuf b = ALLOC.heapBuffer(Math.max(1, bytes.length));
        b.writeBytes(bytes);
        return b;
    }

    /** The readable octets of {@code buf}, then releases it. */
    public static byte[] drain(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }
}
