package org.iwarp4j.mpa.netty;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/** {@link FpduLengthHistory}: the smallest period the remembered lengths repeat with, and what it predicts. */
class FpduLengthHistoryTest {

    @Test
    void findsTheSmallestPeriodAndPredictsTheLengthsThatFollow() {
        qt().forAll(integers().between(1, FpduLengthHistory.WINDOW / 2), longs().all()).checkAssert((p, seed) -> {
            Random random = new Random(seed);
            int[] pattern = new int[p];
            for (int i = 0; i < p; i++) {
                pattern[i] = 1 + random.nextInt(65_544);
            }
            FpduLengthHistory h = new FpduLengthHistory();
            int n = FpduLengthHistory.WINDOW + random.nextInt(100);
            for (int i = 0; i < n; i++) {
                h.add(pattern[i % p]);
            }
            int found = h.period();
            assertThat(found).isBetween(1, p);
            assertThat(p % found).as("a smaller period found divides the pattern's").isZero();
            for (int ahead = 0; ahead < 3 * p; ahead++) {
                assertThat(h.predicted(found, ahead)).isEqualTo(pattern[(n + ahead) % p]);
            }
        });
    }

    @Test
    void aWindowThatDoesNotRepeatHasNoPeriod() {
        FpduLengthHistory h = new FpduLengthHistory();
        for (int i = 0; i < 100; i++) {
            h.add(32_740);
        }
        assertThat(h.period()).isEqualTo(1);
        h.add(116);
        assertThat(h.period()).as("the last length broke the pattern").isZero();
        FpduLengthHistory distinct = new FpduLengthHistory();
        for (int i = 0; i < FpduLengthHistory.WINDOW; i++) {
            distinct.add(5_000 + i);
        }
        assertThat(distinct.period()).isZero();
        assertThat(new FpduLengthHistory().period()).isZero();
    }

    @Test
    void remembersWhetherALongFpduIsInTheWindow() {
        FpduLengthHistory h = new FpduLengthHistory();
        assertThat(h.anyLong()).isFalse();
        h.add(FpduReadSizes.ALIGN_FROM);
        assertThat(h.anyLong()).isTrue();
        for (int i = 1; i < FpduLengthHistory.WINDOW; i++) {
            h.add(FpduReadSizes.ALIGN_FROM - 1);
            assertThat(h.anyLong()).isTrue();
        }
        h.add(100);
        assertThat(h.anyLong()).as("the long one left the window").isFalse();
        assertThat(h.size()).isEqualTo(FpduLengthHistory.WINDOW);
        assertThat(h.last(1)).isEqualTo(100);
    }
}
