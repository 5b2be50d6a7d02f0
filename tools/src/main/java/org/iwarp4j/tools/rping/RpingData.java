package org.iwarp4j.tools.rping;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The ping data rping's client puts in its source buffer (librdmacm/examples/rping.c): {@code "rdma-ping-<n>: "},
 * then ASCII characters counting up from a start character, wrapping from 'z' (122) back to 'A' (65); the
 * start character begins at 'A' and moves up by one every ping. The last octet is NUL. Like rping's
 * {@code snprintf}, a header longer than the buffer is cut to {@code size - 1} octets.
 */
public final class RpingData {

    /** rping's minimum size: {@code sizeof("2147483647") + sizeof("rdma-ping-%d: ")} = 11 + 15. */
    public static final int MIN_SIZE = 26;
    /** rping's maximum size: {@code RPING_BUFSIZE - 1}. */
    public static final int MAX_SIZE = 65535;
    public static final int DEFAULT_SIZE = 64;

    static final int FIRST = 'A';
    static final int LAST = 'z';

    private RpingData() {}

    /** The start character of ping {@code ping} (0-based). */
    public static int startCharacter(long ping) {
        return FIRST + (int) (ping % (LAST - FIRST + 1));
    }

    /** Fills octets {@code 0..size-1} of {@code buffer} with the data of ping {@code ping}. */
    public static void fill(ByteBuffer buffer, int size, long ping) {
        byte[] header = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int written = Math.min(header.length, size - 1);
        buffer.put(0, header, 0, written);
        int c = startCharacter(ping);
        for (int i = header.length; i < size; i++) {
            buffer.put(i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buffer.put(size - 1, (byte) 0);
    }

    /** {@code strlen}: octets before the first NUL, at most {@code limit}. */
    public static int strlen(ByteBuffer buffer, int limit) {
        for (int i = 0; i < limit; i++) {
            if (buffer.get(i) == 0) {
                return i;
            }
        }
        return limit;
    }

    /** The C string at the start of {@code buffer} (rping prints it with {@code %s}). */
    public static String string(ByteBuffer buffer, int limit) {
        byte[] b = new byte[strlen(buffer, limit)];
        buffer.get(0, b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
