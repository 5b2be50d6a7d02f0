package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** {@link CpuClock}'s readings and {@link CpuUse}'s arithmetic. */
class CpuClockTest {

    @Test
    void parsesUtimeAndStimeAfterTheLastParenthesis() {
        // proc(5): pid (comm) state ppid ... utime stime; a command may hold spaces and parentheses.
        String line = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 731 245 0 0 20 0 30 0 1234 0 0";
        assertThat(CpuClock.parseStat(line)).containsExactly(731, 245);
        assertThat(CpuClock.parseStat("4242 java S 1")).isNull();
        assertThat(CpuClock.parseStat("4242 (java) S 1 2 3")).isNull();
        assertThat(CpuClock.parseStat("4242 (java) S 1 4242 4242 0 -1 4194560 1000 0 0 0 x 245 0")).isNull();
    }

    @Test
    void readsThisProcessAndGrowsWithWork() {
        CpuClock.Sample before = CpuClock.now();
        assertThat(before.cpuNanos()).isPositive();
        if (Files.isReadable(Path.of("/proc/self/stat"))) {
            assertThat(before.userNanos()).isPositive().isLessThanOrEqualTo(before.cpuNanos() + 20_000_000);
        }
        long x = 0;
        CpuClock.Sample after;
        do {
            for (int i = 0; i < 1_000_000; i++) {
                x += i * 31L ^ (x >>> 3);
            }
            after = CpuClock.now();
        } while (after.cpuNanos() - before.cpuNanos() < 50_000_000);
        assertThat(x).isNotZero();
        CpuUse use = after.since(before, CpuUse.BOTH, 2_000_000_000L);
        assertThat(use.cpuNanos()).isGreaterThanOrEqualTo(50_000_000);
        assertThat(use.cpuSecondsPerGB()).isCloseTo(use.cpuSeconds() / 2, Offset.offset(1e-12));
        if (before.userNanos() >= 0) {
            assertThat(use.userNanos()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void theJitsTimeIsReadAndCarriedIntoTheUse() {
        // HotSpot monitors its compilation time; this JVM has compiled something by now
        long first = CpuClock.jitNanos();
        assertThat(first).isPositive();
        // a sample taken later reads at least as much (the compilers may add to it in between, never take away)
        assertThat(CpuClock.now().jitNanos()).isGreaterThanOrEqualTo(first);
        CpuUse use = new CpuClock.Sample(3, 2, 1_500_000_000L).since(new CpuClock.Sample(1, 1, 500_000_000L),
                CpuUse.BOTH, 10);
        assertThat(use.jitSeconds()).isEqualTo(1.0);
        assertThat(use.hasJit()).isTrue();
        // the other end's readings come over the wire without it
        assertThat(new CpuClock.Sample(3, 2).since(new CpuClock.Sample(1, 1), CpuUse.SERVER, 10).hasJit()).isFalse();
        assertThat(new CpuClock.Sample(3, 2, 5).since(new CpuClock.Sample(1, 1), CpuUse.CLIENT, 10).hasJit())
                .isFalse();
    }

    @Test
    void unknownStaysUnknown() {
        CpuClock.Sample known = new CpuClock.Sample(5_000_000_000L, 3_000_000_000L);
        CpuClock.Sample noUser = new CpuClock.Sample(1_000_000_000L, CpuClock.UNKNOWN);
        CpuUse u = known.since(noUser, CpuUse.SERVER, 1_000_000_000L);
        assertThat(u.cpuSeconds()).isEqualTo(4.0);
        assertThat(u.cpuSecondsPerGB()).isEqualTo(4.0);
        assertThat(u.hasUser()).isFalse();
        assertThat(u.userSecondsPerGB()).isNaN();
        assertThat(new CpuUse(CpuUse.CLIENT, 10, 5, 0).cpuSecondsPerGB()).isNaN();
        // a reading that went backwards (it cannot, but the wire could say so) is no negative figure
        assertThat(noUser.since(known, CpuUse.CLIENT, 1).cpuNanos()).isZero();
    }
}
