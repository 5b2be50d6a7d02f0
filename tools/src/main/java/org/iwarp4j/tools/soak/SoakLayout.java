package org.iwarp4j.tools.soak;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What the soak's two sides agree on: the layout of the region a server shares with each connection, the private
 * data of its MPA Reply, and the octets every payload carries (a pseudo-random stream from a seed, so that either
 * side can regenerate what the other should have put there).
 *
 * <pre>
 * shared region:  [0, READ_LANE)                the read lane: the server fills it from the connection's seed
 *                 [WRITE_AREA, WRITE_AREA_END)  the write area: the client writes here and reads it back
 *                 RECEIVED                      8 octets: receives the server has handled and posted again
 *                 COUNTER                       8 octets: the word the client's atomics change (starts at 0)
 * reply private data: the shared region's RemoteBuffer (16 octets), the read lane's seed (8 octets)
 * a Send's payload: the seed (8 octets, little-endian), then octets(seed, length - 8)
 * </pre>
 */
final class SoakLayout {

    static final int READ_LANE = 256 << 10;
    static final int WRITE_AREA = READ_LANE;
    static final int WRITE_AREA_END = WRITE_AREA + (768 << 10);
    static final int RECEIVED = WRITE_AREA_END;
    static final int COUNTER = RECEIVED + 8;
    static final int SHARED_LENGTH = COUNTER + 8;
    /** The largest Send payload, and the size of each of the server's receives. */
    static final int MAX_SEND = 16 << 10;
    /** Receives the server keeps posted per connection. */
    static final int RECEIVES = 256;
    /** Messages that consume a receive the client may have outstanding beyond what the server reported. */
    static final int CREDITS = 192;
    static final int ADVERT_LENGTH = 16 + 8;
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private SoakLayout() {
    }

    /** The octets of a payload with this seed. */
    static byte[] octets(long seed, int length) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** Fills {@code length} octets of {@code into} at {@code offset} with a Send payload: the seed, then octets. */
    static void sendPayload(ByteBuffer into, int offset, long seed, int length) {
        ByteBuffer b = into.duplicate().order(ORDER);
        b.putLong(offset, seed);
        b.put(offset + 8, octets(seed, length - 8));
    }

    /**
     * The first octet at which a received Send payload differs from what its seed makes, or -1.
     *
     * @param from   the receive's memory
     * @param length the received length (at least 8)
     */
    static int checkSendPayload(ByteBuffer from, int offset, int length) {
        if (length < 8) {
            return 0;
        }
        ByteBuffer b = from.duplicate().order(ORDER);
        long seed = b.getLong(offset);
        return mismatch(b, offset + 8, octets(seed, length - 8));
    }

    /** The first index at which {@code memory} from {@code offset} differs from {@code expected}, or -1. */
    static int mismatch(ByteBuffer memory, int offset, byte[] expected) {
        byte[] got = new byte[expected.length];
        memory.duplicate().get(offset, got);
        return Arrays.mismatch(got, expected);
    }
}
