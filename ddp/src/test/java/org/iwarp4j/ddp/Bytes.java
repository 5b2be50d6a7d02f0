package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Small byte helpers for tests. */
public final class Bytes {

    private Bytes() {}

    /** A pooled buffer holding {@code bytes}. */
    public static ByteBuf pooled(byte[] bytes) {
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }

    /** A pooled direct buffer of {@code length} octets filled with {@code fill}. */
    public static ByteBuf directFilled(int length, int fill) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(length, length);
        for (int i = 0; i < length; i++) {
            buf.writeByte(fill);
        }
        return buf;
    }

    /** A deterministic pattern: octet i = (seed + 7 i) mod 256. */
    public static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + 7 * i);
        }
        return b;
    }

    public static byte[] contents(ByteBuf buf) {
        byte[] b = new byte[buf.capacity()];
        buf.getBytes(0, b);
        return b;
    }
}
