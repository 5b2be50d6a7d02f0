package org.iwarp4j.rdmap.wire;

import io.netty.buffer.ByteBuf;

/**
 * Base of the RDMAP header flyweights: a reusable view of a header at an absolute index of a
 * {@link ByteBuf}, read and written in place in network byte order (big-endian, RFC 5040 §4).
 * Offsets ({@code *_OFFSET}) are relative to the first octet of the RDMAP header, i.e. the octet right
 * after the 18-octet untagged DDP header. A flyweight never retains or releases the buffer.
 */
public abstract class HeaderFlyweight<T extends HeaderFlyweight<T>> {

    protected ByteBuf buffer;
    protected int offset;

    /** Points this flyweight at the header starting at absolute index {@code offset} of {@code buffer}. */
    @SuppressWarnings("unchecked")
    public T wrap(ByteBuf buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return (T) this;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }
}
