package org.iwarp4j.ddp.memory;

import io.netty.buffer.ByteBuf;

/**
 * An {@link UntaggedBuffer} over one {@link ByteBuf}: message offset {@code n} is index {@code n} of the
 * buffer, the capacity is the buffer's capacity. Suits RDMAP's small QN 1/2/3 slots (read the delivered
 * header from {@link #buffer()} with absolute gets) and simple receive buffers. The poster owns the
 * {@code ByteBuf} and releases it; this wrapper never does.
 */
public final class ByteBufUntaggedBuffer implements UntaggedBuffer {

    private final ByteBuf buffer;

    public ByteBufUntaggedBuffer(ByteBuf buffer) {
        this.buffer = buffer;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    @Override
    public int capacity() {
        return buffer.capacity();
    }

    @Override
    public void place(int messageOffset, ByteBuf source, int sourceIndex, int length) {
        buffer.setBytes(messageOffset, source, sourceIndex, length);
    }

    @Override
    public String toString() {
        return "ByteBufUntaggedBuffer[capacity=" + buffer.capacity() + "]";
    }
}
