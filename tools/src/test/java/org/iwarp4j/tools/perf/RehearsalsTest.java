package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RehearsalsTest {

    /** A margin of 1 s runs as pieces of 250 ms at most, one after the other, until the second has passed. */
    @Test
    void aMarginRunsInPiecesUntilItHasPassed() throws Exception {
        List<Long> pieces = new ArrayList<>();
        long start = System.nanoTime();
        Rehearsals.of(1, nanos -> {
            pieces.add(nanos);
            TimeUnit.NANOSECONDS.sleep(nanos);
        });
        long elapsed = System.nanoTime() - start;
        assertThat(elapsed).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));
        assertThat(pieces).hasSizeBetween(4, 5).allSatisfy(n -> assertThat(n).isBetween(0L, Rehearsals.NANOS));
        assertThat(pieces.get(0)).isEqualTo(Rehearsals.NANOS);
        assertThat(pieces.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));
    }

    /** No margin is still one piece, of nothing: the measurement's start is rehearsed once. */
    @Test
    void noMarginIsOneEmptyPiece() throws Exception {
        List<Long> pieces = new ArrayList<>();
        Rehearsals.of(0, pieces::add);
        assertThat(pieces).containsExactly(0L);
    }

    @Test
    void theWarmUpLineNamesThePieces() {
        assertThat(Rehearsals.describe()).isEqualTo("runs of 250 ms");
    }
}
