package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;
import org.iwarp4j.verbs.RemoteBuffer;

/**
 * The test a perf client asks for, carried as the ULP private data of its MPA Request (RFC 5044 §7.1.1),
 * so the server sizes its memory before it accepts. 44 octets, network byte order:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       magic "IWPF"                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    version    |     verb      |    flags      |  atomic op    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 largest message size (octets)                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    TX depth (operations in flight)            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             client buffer: Tagged Offset (64 bits)            |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     client buffer: STag                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    client buffer: length                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    verification buffer size                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     queue pairs of the run    |   this queue pair's index     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          run token                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Flags: 0x01 latency (ping-pong), 0x02 verify content, 0x04 run to completion (protocol 3: the server handles
 * its completions on its completion queue's event loop, re-posting the Send test's receives and returning its
 * credits there; {@code --run-to-completion}). Other flag bits are refused. A server of protocol 3 takes a
 * protocol 2 hello (the same layout, without flag 0x04); a protocol 2 server refuses a protocol 3 hello by its
 * version. The client buffer, in {@link RemoteBuffer#encode()}'s
 * 16 octets, is where the server writes in the RDMA Write latency ping-pong. A run of {@code -q N} is N
 * connections that say the same test, N and token, with indexes 0 (the first, which also carries the control
 * messages) to N-1, connected in that order; the token tells them from another client's.
 */
record PerfHello(PerfVerb verb, boolean latency, boolean verify, boolean compareSwap, int maxSize, int txDepth,
                 RemoteBuffer clientBuffer, int verifyBufferSize, int qps, int qpIndex, int token,
                 boolean runToCompletion) {

    static final int MAGIC = 0x49575046; // "IWPF"
    static final int VERSION = 3;
    /** The oldest protocol whose hello this end still takes (protocol 2 has no run-to-completion flag). */
    static final int OLDEST_VERSION = 2;
    static final int LENGTH = 44;
    static final int FLAG_LATENCY = 0x01;
    static final int FLAG_VERIFY = 0x02;
    static final int FLAG_RUN_TO_COMPLETION = 0x04;
    private static final int FLAGS_OF_VERSION_2 = FLAG_LATENCY | FLAG_VERIFY;
    private static final int FLAGS = FLAGS_OF_VERSION_2 | FLAG_RUN_TO_COMPLETION;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int VERB_OFFSET = 5;
    static final int FLAGS_OFFSET = 6;
    static final int ATOMIC_OFFSET = 7;
    static final int MAX_SIZE_OFFSET = 8;
    static final int TX_DEPTH_OFFSET = 12;
    static final int BUFFER_OFFSET = 16;
    static final int VERIFY_SIZE_OFFSET = BUFFER_OFFSET + RemoteBuffer.ENCODED_LENGTH;
    static final int QPS_OFFSET = VERIFY_SIZE_OFFSET + 4;
    static final int QP_INDEX_OFFSET = QPS_OFFSET + 2;
    static final int TOKEN_OFFSET = QP_INDEX_OFFSET + 2;

    /** The hello of queue pair {@code index} of the same run. */
    PerfHello forQueuePair(int index) {
        return new PerfHello(verb, latency, verify, compareSwap, maxSize, txDepth, clientBuffer, verifyBufferSize, qps,
                index, token, runToCompletion);
    }

    /** Whether {@code other} is another queue pair of this run. */
    boolean sameRun(PerfHello other) {
        return other.forQueuePair(qpIndex).equals(this);
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putInt(MAGIC_OFFSET, MAGIC).put(VERSION_OFFSET, (byte) VERSION).put(VERB_OFFSET, (byte) verb.ordinal())
                .put(FLAGS_OFFSET, (byte) ((latency ? FLAG_LATENCY : 0) | (verify ? FLAG_VERIFY : 0)
                        | (runToCompletion ? FLAG_RUN_TO_COMPLETION : 0)))
                .put(ATOMIC_OFFSET, (byte) (compareSwap ? 1 : 0)).putInt(MAX_SIZE_OFFSET, maxSize)
                .putInt(TX_DEPTH_OFFSET, txDepth).putInt(VERIFY_SIZE_OFFSET, verifyBufferSize)
                .putShort(QPS_OFFSET, (short) qps).putShort(QP_INDEX_OFFSET, (short) qpIndex)
                .putInt(TOKEN_OFFSET, token);
        clientBuffer.encode(b.position(BUFFER_OFFSET));
        return b.array();
    }

    /**
     * Decodes a client's private data; a different length, magic or version is not a perf client, and a test
     * larger than the client's own options allow (message size, depth, queue pairs, the verification buffer) is
     * refused before the server allocates anything for it: the hello comes from the network.
     */
    static PerfHello decode(byte[] data) {
        if (data.length != LENGTH) {
            throw new IllegalArgumentException("perf private data must be " + LENGTH + " octets, not " + data.length);
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        if (b.getInt(MAGIC_OFFSET) != MAGIC) {
            throw new IllegalArgumentException("not an iwarp perf client (magic)");
        }
        int version = Byte.toUnsignedInt(b.get(VERSION_OFFSET));
        if (version < OLDEST_VERSION || version > VERSION) {
            throw new IllegalArgumentException("perf protocol " + version + " asked; this end speaks "
                    + OLDEST_VERSION + ".." + VERSION + " (run the same iwarp4j at both ends)");
        }
        int flags = Byte.toUnsignedInt(b.get(FLAGS_OFFSET));
        int known = version == OLDEST_VERSION ? FLAGS_OF_VERSION_2 : FLAGS;
        if ((flags & ~known) != 0) {
            throw new IllegalArgumentException(String.format("unknown flags 0x%02x in a protocol %d hello",
                    flags & ~known, version));
        }
        int qps = Short.toUnsignedInt(b.getShort(QPS_OFFSET));
        int index = Short.toUnsignedInt(b.getShort(QP_INDEX_OFFSET));
        if (qps < 1 || index >= qps) {
            throw new IllegalArgumentException("queue pair " + index + " of " + qps);
        }
        if (qps > PerfOptions.MAX_QPS) {
            throw new IllegalArgumentException(qps + " queue pairs asked; at most " + PerfOptions.MAX_QPS);
        }
        int maxSize = b.getInt(MAX_SIZE_OFFSET);
        if (maxSize < 1 || maxSize > PerfOptions.MAX_SIZE) {
            throw new IllegalArgumentException("message size " + Integer.toUnsignedString(maxSize) + " asked; 1.."
                    + PerfOptions.MAX_SIZE);
        }
        int txDepth = b.getInt(TX_DEPTH_OFFSET);
        if (txDepth < 1 || txDepth > PerfOptions.MAX_TX_DEPTH || (long) txDepth * qps > PerfOptions.MAX_IN_FLIGHT) {
            throw new IllegalArgumentException("depth " + Integer.toUnsignedString(txDepth) + " on " + qps
                    + " queue pair(s) asked; 1.." + PerfOptions.MAX_TX_DEPTH + " and at most "
                    + PerfOptions.MAX_IN_FLIGHT + " in all");
        }
        int verifySize = b.getInt(VERIFY_SIZE_OFFSET);
        if (verifySize < 0 || verifySize > PerfConfig.VERIFY_BUFFER_MAX) {
            throw new IllegalArgumentException("verification buffer of " + Integer.toUnsignedString(verifySize)
                    + " octets asked; 0.." + PerfConfig.VERIFY_BUFFER_MAX);
        }
        return new PerfHello(PerfVerb.fromCode(b.get(VERB_OFFSET)), (flags & FLAG_LATENCY) != 0,
                (flags & FLAG_VERIFY) != 0, b.get(ATOMIC_OFFSET) != 0, maxSize, txDepth,
                RemoteBuffer.decode(b.position(BUFFER_OFFSET)), verifySize, qps, index, b.getInt(TOKEN_OFFSET),
                (flags & FLAG_RUN_TO_COMPLETION) != 0);
    }
}
