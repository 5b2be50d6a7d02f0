package org.iwarp4j.verbs.internal;

/** Sizing of the power-of-two rings of the send and completion queues. */
final class Rings {

    private Rings() {}

    /**
     * The ring size for {@code depth} entries: the smallest power of two at least {@code depth}, and at least 2
     * (so 2 for a depth of 1 or less), letting slots be found with {@code size - 1} as a mask.
     */
    static int size(int depth) {
        return Integer.highestOneBit(Math.max(1, depth - 1)) << 1;
    }
}
