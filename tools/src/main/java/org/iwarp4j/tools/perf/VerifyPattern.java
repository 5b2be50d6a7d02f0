package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;

/**
 * The content {@code --verify} moves: octet {@code o} of the server's buffer in round {@code r} is a function
 * of both, so a lost, duplicated, misplaced or stale segment shows as a wrong octet. Both sides compute it.
 */
final class VerifyPattern {

    private VerifyPattern() {}

    static byte at(long round, long offset) {
        long x = offset * 0x9E37_79B9_7F4A_7C15L + round * 0xC2B2_AE3D_27D4_EB4FL;
        x ^= x >>> 29;
        return (byte) (x ^ (offset >>> 8));
    }

    /** Writes octets {@code [offset, offset + length)} of round {@code round} into {@code into} at {@code at}. */
    static void fill(ByteBuffer into, int at, long round, long offset, int length) {
        for (int i = 0; i < length; i++) {
            into.put(at + i, at(round, offset + i));
        }
    }

    /** The first octet of {@code [at, at + length)} that differs from the pattern, or -1. */
    static int firstMismatch(ByteBuffer buffer, int at, long round, long offset, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(at + i) != at(round, offset + i)) {
                return i;
            }
        }
        return -1;
    }
}
