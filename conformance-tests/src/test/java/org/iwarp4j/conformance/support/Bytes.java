package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Octet helpers; buffers come from the pooled allocator so that leaks are caught. */
public final class Bytes {

    public static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private Bytes() {}

    /** A pooled direct buffer holding {@code octets}. */
    public static ByteBuf direct(byte[] octets) {
        return ALLOC.directBuffer(Math.max(1, octets.length)).writeBytes(octets);
    }

    /** The readable octets of {@code buf}; releases it. */
    public static byte[] drain(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public static byte[] random(Random r, int length) {
        byte[] b = new byte[length];
        r.nextBytes(b);
        return b;
    }

    /** {@code length} octets counting up from {@code first} (mod 256): easy to spot in dumps. */
    public static byte[] pattern(int length, int first) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (first + i);
        }
        return b;
    }
}
