package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;
import org.iwarp4j.verbs.RemoteBuffer;

/**
 * The server's answer in the private data of its MPA Reply: the memory the client targets and, for the
 * Send test, how many receives the server keeps posted (the client's initial credit: iWARP has no
 * receiver-not-ready retry, so a Send without a posted receive ends the connection, RFC 5040 §5.3).
 * 28 octets, network byte order: magic "IWPF" (4) | version (1) | 3 reserved | receive credits (4) |
 * server buffer (16: Tagged Offset (8) | STag (4) | length (4), as {@link RemoteBuffer#encode()} lays it out).
 */
record PerfWelcome(int receiveCredits, RemoteBuffer buffer) {

    /** The welcome of protocol 2, unchanged in protocol 3 (whose hello only adds a flag): a 2 client reads it. */
    static final int VERSION = 2;
    static final int LENGTH = 28;
    static final int CREDITS_OFFSET = 8;
    static final int BUFFER_OFFSET = 12;

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putInt(0, PerfHello.MAGIC).put(4, (byte) VERSION).putInt(CREDITS_OFFSET, receiveCredits);
        buffer.encode(b.position(BUFFER_OFFSET));
        return b.array();
    }

    static PerfWelcome decode(byte[] data) {
        if (data.length != LENGTH) {
            throw new IllegalArgumentException("the server's private data is " + data.length + " octets, not "
                    + LENGTH + ": not an iwarp perf server");
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        if (b.getInt(0) != PerfHello.MAGIC || b.get(4) != VERSION) {
            throw new IllegalArgumentException("not an iwarp perf server (magic/version)");
        }
        return new PerfWelcome(b.getInt(CREDITS_OFFSET), RemoteBuffer.decode(b.position(BUFFER_OFFSET)));
    }
}
