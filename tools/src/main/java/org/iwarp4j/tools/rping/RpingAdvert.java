package org.iwarp4j.tools.rping;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * rping's only message ({@code struct rping_rdma_info}): where the peer may RDMA Read or Write, sent in
 * a Send of exactly 16 octets (siw-interop.md §H). Network byte order:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     buf (virtual address)                     |
 * +                      = Tagged Offset                          +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          rkey (STag)                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          size (octets)                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The server's "go ahead" Sends have the same length; their content is ignored (rping and siw send zeros).
 *
 * @param address the Tagged Offset of the buffer (rping: its virtual address)
 * @param rkey    the STag of the buffer
 * @param length  octets the peer may access
 */
public record RpingAdvert(long address, int rkey, int length) {

    public static final int ADDRESS_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int LENGTH_OFFSET = 12;
    /** Every rping Send is exactly this long; any other receive length is an error on both sides. */
    public static final int LENGTH = 16;

    /** Writes the advert at index 0 of {@code buffer} (absolute, big-endian). */
    public void writeTo(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
        b.putLong(ADDRESS_OFFSET, address).putInt(RKEY_OFFSET, rkey).putInt(LENGTH_OFFSET, length);
    }

    /** Reads the advert at index 0 of {@code buffer}. */
    public static RpingAdvert readFrom(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
        return new RpingAdvert(b.getLong(ADDRESS_OFFSET), b.getInt(RKEY_OFFSET), b.getInt(LENGTH_OFFSET));
    }

    /** As rping's debug line prints it: {@code RDMA addr 7f.. rkey 1200 len 64}. */
    @Override
    public String toString() {
        return String.format("RDMA addr %x rkey %x len %d", address, rkey, length);
    }
}
