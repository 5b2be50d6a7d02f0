package org.iwarp4j.rdmap.atomic;

/**
 * The arithmetic of the RFC 7306 §5.1 atomic operations on a 64-bit value (byte order is handled by
 * the caller, see {@link AtomicExecutor}).
 */
public final class AtomicMath {

    /** RFC 7306 §5.1: the target of an atomic operation is a naturally aligned 64-bit word. */
    public static final int ALIGNMENT = 8;

    private AtomicMath() {
    }

    /**
     * Masked FetchAdd (RFC 7306 §5.1.1): adds {@code add} to {@code original} bit by bit from bit 0;
     * a 1 in {@code mask} at bit i marks the most significant bit of a field, so the carry out of bit i
     * is dropped. Mask 0 is an ordinary 64-bit add (the carry out of bit 63 is always dropped).
     *
     * <p>Computed without a loop: clearing the field-top bits of both operands means no carry can leave
     * a field (each top position sums to at most the incoming carry); XOR-ing the operands' top bits
     * back in completes each top bit's sum bit while discarding its carry. Equal to the bit-by-bit
     * definition (property-tested against it).
     *
     * @return the new value to store
     */
    public static long maskedAdd(long original, long add, long mask) {
        return ((original & ~mask) + (add & ~mask)) ^ ((original ^ add) & mask);
    }

    /**
     * Masked CmpSwap (RFC 7306 §5.1.2): if the bits selected by {@code compareMask} of
     * {@code original} equal those of {@code compareData}, the bits selected by {@code swapMask} are
     * replaced by those of {@code swapData}; otherwise the value is unchanged [EXT-06].
     *
     * @return the new value to store (equal to {@code original} when the compare fails)
     */
    public static long maskedCompareSwap(long original, long compareData, long compareMask, long swapData,
                                         long swapMask) {
        if (((compareData ^ original) & compareMask) != 0) {
            return original;
        }
        return (original & ~swapMask) | (swapData & swapMask);
    }

    /** RFC 7306 §5.1 [EXT-04]: whether a target Tagged Offset is 8-octet aligned. */
    public static boolean isAligned(long taggedOffset) {
        return (taggedOffset & (ALIGNMENT - 1)) == 0;
    }
}
