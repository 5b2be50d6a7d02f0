package org.iwarp4j.rdmap.atomic;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

/** RFC 7306 §5.1 atomic arithmetic against bit-by-bit reference definitions [EXT-06]. */
class AtomicMathTest {

    /** docs/protocol/rdmap.md §2.9: the RFC's bit-serial definition of the masked add. */
    static long referenceMaskedAdd(long orig, long add, long mask) {
        long r = 0;
        long c = 0;
        for (int i = 0; i < 64; i++) {
            long s = ((orig >>> i) & 1) + ((add >>> i) & 1) + c;
            r |= (s & 1) << i;
            c = (s >>> 1) & 1;
            if (((mask >>> i) & 1) != 0) {
                c = 0;
            }
        }
        return r;
    }

    /** RFC 7306 §5.1.2, bit by bit: all compared bits equal, then each swap-mask bit is replaced. */
    static long referenceCompareSwap(long orig, long cmp, long cmpMask, long swap, long swapMask) {
        for (int i = 0; i < 64; i++) {
            if (((cmpMask >>> i) & 1) != 0 && ((cmp >>> i) & 1) != ((orig >>> i) & 1)) {
                return orig;
            }
        }
        long r = 0;
        for (int i = 0; i < 64; i++) {
            long bit = ((swapMask >>> i) & 1) != 0 ? (swap >>> i) & 1 : (orig >>> i) & 1;
            r |= bit << i;
        }
        return r;
    }

    @Test
    void maskedAddEqualsTheBitSerialDefinition() {
        qt().withExamples(20_000).forAll(longs().all(), longs().all(), longs().all())
                .check((orig, add, mask) ->
                        AtomicMath.maskedAdd(orig, add, mask) == referenceMaskedAdd(orig, add, mask));
    }

    @Test
    void maskedAddWithSparseMasksEqualsTheBitSerialDefinition() {
        // Realistic masks mark few field boundaries; random longs almost never look like that.
        qt().withExamples(5_000).forAll(longs().all(), longs().all(), longs().between(0, 63), longs().between(0, 63))
                .check((orig, add, b1, b2) -> {
                    long mask = (1L << b1) | (1L << b2);
                    return AtomicMath.maskedAdd(orig, add, mask) == referenceMaskedAdd(orig, add, mask);
                });
    }

    @Test
    void maskZeroIsAnOrdinaryWrappingAdd() {
        qt().withExamples(5_000).forAll(longs().all(), longs().all())
                .check((a, b) -> AtomicMath.maskedAdd(a, b, 0) == a + b);
        assertThat(AtomicMath.maskedAdd(-1L, 1L, 0)).isZero();
    }

    @Test
    void fieldBoundaryDropsTheCarry() {
        // Two 32-bit counters: the low one wraps without touching the high one.
        long mask = 0x8000_0000_8000_0000L;
        assertThat(AtomicMath.maskedAdd(0x0000_0005_FFFF_FFFFL, 0x0000_0001_0000_0001L, mask))
                .isEqualTo(0x0000_0006_0000_0000L);
        // Eight 8-bit counters, add 1 to each.
        long bytes = 0x8080_8080_8080_8080L;
        assertThat(AtomicMath.maskedAdd(0xFF01_FF02_FF03_FF04L, 0x0101_0101_0101_0101L, bytes))
                .isEqualTo(0x0002_0003_0004_0005L);
    }

    @Test
    void compareSwapEqualsTheBitwiseDefinition() {
        // Random compare data almost never matches; derive it from orig with a few flipped bits instead.
        qt().withExamples(10_000).forAll(longs().all(), longs().between(0, 64), longs().all(),
                        longs().all().zip(longs().all(), (swap, swapMask) -> new long[] {swap, swapMask}))
                .check((orig, flipBit, cmpMask, swap) -> {
                    long cmp = flipBit == 64 ? orig : orig ^ (1L << flipBit);
                    return AtomicMath.maskedCompareSwap(orig, cmp, cmpMask, swap[0], swap[1])
                            == referenceCompareSwap(orig, cmp, cmpMask, swap[0], swap[1]);
                });
    }

    @Test
    void compareSwapWhenComparedBitsMatch() {
        qt().withExamples(5_000).forAll(longs().all(), longs().all(), longs().all(), longs().all())
                .check((orig, cmpMask, swap, swapMask) -> {
                    // compare data equal to orig on the masked bits (other bits random garbage)
                    long cmp = (orig & cmpMask) | (~orig & ~cmpMask);
                    return AtomicMath.maskedCompareSwap(orig, cmp, cmpMask, swap, swapMask)
                            == ((orig & ~swapMask) | (swap & swapMask));
                });
    }

    @Test
    void plainCompareSwapAsInTheVector() {
        // fpdu-atomic-cmpswap-request: compare 0x64 (all-ones mask), swap 0x1111111111111111 (all-ones).
        assertThat(AtomicMath.maskedCompareSwap(0x64, 0x64, -1L, 0x1111111111111111L, -1L))
                .isEqualTo(0x1111111111111111L);
        assertThat(AtomicMath.maskedCompareSwap(0x65, 0x64, -1L, 0x1111111111111111L, -1L)).isEqualTo(0x65);
        // compare mask 0 always matches
        assertThat(AtomicMath.maskedCompareSwap(0x65, 0x64, 0, 7, -1L)).isEqualTo(7);
    }

    @Test
    void alignment() {
        assertThat(AtomicMath.isAligned(0x40)).isTrue();
        assertThat(AtomicMath.isAligned(0)).isTrue();
        assertThat(AtomicMath.isAligned(0xFFFF_FFFF_FFFF_FFF8L)).isTrue();
        for (int i = 1; i < 8; i++) {
            assertThat(AtomicMath.isAligned(0x40 + i)).isFalse();
        }
    }
}
