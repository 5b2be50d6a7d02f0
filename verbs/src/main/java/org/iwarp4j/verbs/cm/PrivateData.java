package org.iwarp4j.verbs.cm;

import java.util.OptionalInt;

/** The length rules for MPA private data (RFC 5044 §7.1.1, RFC 6581 §7). */
final class PrivateData {

    /** RFC 5044 §7.1.1: PD_Length ≤ 512. */
    static final int MAX_PD_LENGTH = 512;
    /** RFC 6581 §7: the enhanced data takes 4 of the 512 octets. */
    static final int ENHANCED_DATA_LENGTH = 4;
    /** RFC 6581 §9.1: IRD and ORD are 14-bit fields. */
    static final int MAX_DEPTH = 0x3FFF;

    private PrivateData() {}

    static byte[] check(byte[] data, int revision) {
        byte[] copy = data == null ? new byte[0] : data.clone();
        int overhead = revision >= 2 ? ENHANCED_DATA_LENGTH : 0;
        if (copy.length + overhead > MAX_PD_LENGTH) {
            throw new IllegalArgumentException("private data of " + copy.length + " octets exceeds "
                    + (MAX_PD_LENGTH - overhead) + " (PD_Length ≤ 512 including the " + overhead
                    + "-octet RFC 6581 block, RFC 5044 §7.1.1)");
        }
        return copy;
    }

    static void checkDepth(String name, OptionalInt depth) {
        if (depth == null) {
            throw new NullPointerException(name + " (OptionalInt.empty() for the queue pair's)");
        }
        if (depth.isPresent() && (depth.getAsInt() < 0 || depth.getAsInt() > MAX_DEPTH)) {
            throw new IllegalArgumentException(name + " must be 0..16383 (RFC 6581 §9.1): " + depth.getAsInt());
        }
    }
}
