package org.iwarp4j.ddp.header;

import io.netty.buffer.ByteBuf;

/**
 * The base of every header flyweight, DDP's and RDMAP's: a reusable view of a header that starts at an absolute
 * index of a {@link ByteBuf}, read and written in place in network byte order (big-endian, RFC 5041 §4 and
 * RFC 5040 §4). Accessors never move the buffer's reader or writer index, and a flyweight never retains or
 * releases the buffer. One instance serves every segment: {@link #wrap(ByteBuf, int)} points it at the next.
 *
 * @param <F> the concrete flyweight, so that {@code wrap} and fluent setters return it
 */
public abstract class HeaderFlyweight<F extends HeaderFlyweight<F>> {

    protected ByteBuf buffer;
    /** The absolute index of the header's first octet; each field is at {@code index + *_OFFSET}. */
    protected int index;

    /** Points this flyweight at the header that starts at {@code index} of {@code buffer}. */
    @SuppressWarnings("unchecked")
    public F wrap(ByteBuf buffer, int index) {
        this.buffer = buffer;
        this.index = index;
        return (F) this;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    public int index() {
        return index;
    }
}
