package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Remote memory as its owner advertised it: an STag, the Tagged Offset of the first octet and a length —
 * what an RDMA Write, Read or atomic names at the peer. Applications exchange it in MPA private data or in
 * a Send; {@link #encode()} gives the 16 octets rping ({@code struct rping_rdma_info}) and most verbs
 * programs use, in network byte order:
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Tagged Offset (64 bits)                   |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             STag                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          Length (32 bits)                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param stag         the STag (rkey)
 * @param taggedOffset the Tagged Offset of the first octet (a verbs virtual address)
 * @param length       octets, 0 to 2<sup>32</sup> − 1
 */
public record RemoteBuffer(Stag stag, long taggedOffset, long length) {

    /** Octets of {@link #encode()}. */
    public static final int ENCODED_LENGTH = 16;

    /** Checks the components. */
    public RemoteBuffer {
        Objects.requireNonNull(stag, "stag");
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("length must be 0..2^32-1: " + length);
        }
        if (length > 0 && Long.compareUnsigned(taggedOffset + length, taggedOffset) < 0) {
            throw new IllegalArgumentException("taggedOffset + length wraps 2^64");
        }
    }

    /**
     * A part of this buffer.
     *
     * @param offset octets from the start
     * @param length octets
     * @return the advert of {@code [taggedOffset + offset, taggedOffset + offset + length)}
     * @throws IllegalArgumentException if the part is not inside this buffer
     */
    public RemoteBuffer slice(long offset, long length) {
        if (offset < 0 || length < 0 || offset > this.length || length > this.length - offset) {
            throw new IllegalArgumentException(length + " octets at " + offset + " are not inside the "
                    + this.length + " octets of " + this);
        }
        return new RemoteBuffer(stag, taggedOffset + offset, length);
    }

    /**
     * The 16-octet advert.
     *
     * @return a new array
     */
    public byte[] encode() {
        byte[] out = new byte[ENCODED_LENGTH];
        encode(ByteBuffer.wrap(out));
        return out;
    }

    /**
     * Writes the 16-octet advert at {@code into}'s position (advancing it), big-endian whatever the buffer's
     * byte order.
     *
     * @param into where to write; at least 16 octets remaining
     */
    public void encode(ByteBuffer into) {
        int at = into.position();
        if (into.remaining() < ENCODED_LENGTH) { // fail before writing anything
            throw new IndexOutOfBoundsException("a remote buffer advert needs " + ENCODED_LENGTH + " octets, "
                    + into.remaining() + " remain");
        }
        into.duplicate().order(ByteOrder.BIG_ENDIAN).putLong(at, taggedOffset).putInt(at + 8, stag.value())
                .putInt(at + 12, (int) length);
        into.position(at + ENCODED_LENGTH);
    }

    /**
     * Reads a 16-octet advert.
     *
     * @param advert at least 16 octets; the first 16 are read
     * @return the buffer
     * @throws IllegalArgumentException if fewer than 16 octets are given, or the advert's Tagged Offset +
     *                                  length wraps 2^64
     */
    public static RemoteBuffer decode(byte[] advert) {
        if (advert.length < ENCODED_LENGTH) {
            throw new IllegalArgumentException("a remote buffer advert has " + ENCODED_LENGTH + " octets, not "
                    + advert.length);
        }
        return decode(ByteBuffer.wrap(advert));
    }

    /**
     * Reads a 16-octet advert at {@code from}'s position (advancing it), big-endian whatever the buffer's byte
     * order.
     *
     * @param from at least 16 octets remaining
     * @return the buffer
     * @throws IllegalArgumentException if fewer than 16 octets remain, or the advert's Tagged Offset +
     *                                  length wraps 2^64 (no such buffer exists)
     */
    public static RemoteBuffer decode(ByteBuffer from) {
        if (from.remaining() < ENCODED_LENGTH) {
            throw new IllegalArgumentException("a remote buffer advert has " + ENCODED_LENGTH + " octets, "
                    + from.remaining() + " remain");
        }
        int at = from.position();
        ByteBuffer be = from.duplicate().order(ByteOrder.BIG_ENDIAN);
        from.position(at + ENCODED_LENGTH);
        return new RemoteBuffer(new Stag(be.getInt(at + 8)), be.getLong(at),
                Integer.toUnsignedLong(be.getInt(at + 12)));
    }

    /** E.g. {@code RemoteBuffer[stag=0x00012a07 to=0x7f0fa83cbc70 length=4096]}. */
    @Override
    public String toString() {
        return "RemoteBuffer[stag=" + stag + String.format(" to=0x%x", taggedOffset) + " length=" + length + "]";
    }
}
