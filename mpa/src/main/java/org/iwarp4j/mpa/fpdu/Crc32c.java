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
 *
 * <p>A direct buffer's ByteBuffer view costs an allocation with some allocators (Netty 4.2's adaptive
 * buffers create one per {@code internalNioBuffer} call). The variant with a scratch array copies ranges of
 * up to {@link #SCRATCH_LENGTH} octets (headers, the FPDU trailer, small FPDUs) into it instead: a copy of
 * a few octets is cheaper than the view, and nothing is allocated.
 */
public final class Crc32c {

    /** Length of the CRC field. */
    public static final int LENGTH = 4;

    private Crc32c() {}

    /** Size of the scratch array {@link #update(CRC32C, ByteBuf, int, int, byte[])} uses for small ranges. */
    public static final int SCRATCH_LENGTH = 256;

    /**
     * {@link #update(CRC32C, ByteBuf, int, int)} that reads a range of a direct buffer of at most
     * {@code scratch.length} octets through {@code scratch} (no ByteBuffer view is created).
     */
    public static void update(CRC32C crc, ByteBuf buf, int index, int length, byte[] scratch) {
        if (length > 0 && length <= scratch.length && !buf.hasArray()) {
            buf.getBytes(index, scratch, 0, length);
            crc.update(scratch, 0, length);
            return;
        }
        update(crc, buf, index, length);
    }

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
