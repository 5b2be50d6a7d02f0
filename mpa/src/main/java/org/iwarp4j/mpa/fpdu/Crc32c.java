package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32c of the MPA FPDU (RFC 5044 §4.4): the iSCSI CRC (RFC 3720), i.e. exactly
 * {@link java.util.zip.CRC32C}. The 32-bit value is sent least-significant octet first
 * ({@code writeIntLE((int) crc.getValue())}), verified against RFC 5044 Figures 5 and 6.
 *
 * <p>{@link #update} feeds a {@code ByteBuf} range to a {@code CRC32C} without copying: a heap
 * buffer through its array, a single-region buffer through {@code internalNioBuffer}, a composite
 * through {@code nioBuffers()}. {@code CRC32C} is not thread-safe: each codec owns one and resets it
 * per FPDU.
 */
public final class Crc32c {

    /** Length of the CRC field. */
    public static final int LENGTH = 4;

    private Crc32c() {}

    /** Adds {@code length} octets of {@code buf} starting at absolute {@code index}. */
    public static void update(CRC32C crc, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
        } else if (buf.nioBufferCount() == 1) {
            crc.update(buf.internalNioBuffer(index, length));
        } else {
            for (ByteBuffer b : buf.nioBuffers(index, length)) {
                crc.update(b);
            }
        }
    }

    /** CRC32c of {@code length} octets of {@code buf} at {@code index}, as {@code CRC32C.getValue()} gives it. */
    public static long compute(ByteBuf buf, int index, int length) {
        CRC32C crc = new CRC32C();
        update(crc, buf, index, length);
        return crc.getValue();
    }

    /** CRC32c of a byte array. */
    public static long compute(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }
}
