package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A small buffer RDMAP posts on QN 1 (an inbound Read or Atomic Request header), QN 2 (the peer's
 * Terminate) or QN 3 (an Atomic Response header): RFC 5040 §3.1, RFC 7306 §4.1. Backed by a plain heap
 * array (wrapped, never released), so slots can be recycled for the life of the stream.
 */
final class ControlSlot extends PostedSlot {

    final ByteBuf bytes;

    ControlSlot(int capacity) {
        this.bytes = Unpooled.wrappedBuffer(new byte[capacity]);
    }

    @Override
    public int capacity() {
        return bytes.capacity();
    }

    @Override
    public void place(int messageOffset, ByteBuf source, int sourceIndex, int length) {
        bytes.setBytes(messageOffset, source, sourceIndex, length);
    }
}
