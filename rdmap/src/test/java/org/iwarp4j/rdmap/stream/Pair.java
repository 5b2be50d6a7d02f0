package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;

/** Two endpoints joined directly: every ULPDU one writes is received by the other. */
final class Pair implements AutoCloseable {

    final Endpoint a;
    final Endpoint b;

    Pair(Endpoint a, Endpoint b) {
        this.a = a;
        this.b = b;
    }

    static Pair create() {
        return new Pair(Endpoint.create(), Endpoint.create());
    }

    /** Moves segments both ways until neither side has anything to send. */
    void run() {
        boolean progress = true;
        while (progress) {
            progress = transfer(a, b) | transfer(b, a);
        }
    }

    static boolean transfer(Endpoint from, Endpoint to) {
        boolean moved = from.flush() > 0;
        ByteBuf ulpdu;
        while ((ulpdu = from.llp.poll()) != null) {
            to.stream.receive(ulpdu);
            moved = true;
        }
        return moved;
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }
}
