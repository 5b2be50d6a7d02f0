package org.iwarp4j.tools.perf;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long two threads take to hand one cache line back and forth: a round trip between two CPUs, in nanoseconds.
 *
 * <p>Every test of {@code iwarp perf --loopback} moves its octets between two event loops, so between two CPUs, and
 * that costs what a cache line costs to cross. On a virtual machine this is not a constant: the host places the
 * virtual CPUs on cores that may share a cache or not, and moves them. On the 2-vCPU machine of docs/performance.md
 * the round trip jumped between about 90 and about 400 ns from one minute to the next, and iWARP and TCP alike moved
 * a quarter fewer 4 KiB messages while it was slow. Printed beside the results ({@code --details}), it tells a
 * reader which of two such states a figure was made in.
 *
 * <p>Two platform threads spin on one {@link AtomicLong}: one writes odd values, the other answers with the next
 * even one. The result is the median of {@link #BATCHES} batches. It needs two CPUs free: with one, or when the
 * threads share a CPU, a hand-off waits for the scheduler, and the probe gives up after {@link #LIMIT_NANOS}
 * ({@link Double#NaN}).
 */
final class CrossCpuProbe {

    static final int BATCHES = 5;
    static final int ROUND_TRIPS_PER_BATCH = 20_000;
    static final long LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private CrossCpuProbe() {}

    /** The median round trip in nanoseconds, or NaN when it could not be measured (one CPU, or too slow). */
    static double roundTripNanos() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        AtomicLong line = new AtomicLong();
        long deadline = System.nanoTime() + LIMIT_NANOS;
        long total = (long) BATCHES * ROUND_TRIPS_PER_BATCH;
        Thread echo = new Thread(() -> {
            for (long v = 1; v < 2 * total; v += 2) {
                if (!await(line, v, deadline)) {
                    return;
                }
                line.set(v + 1);
            }
        }, "iwarp-perf-cross-cpu-probe");
        echo.setDaemon(true);
        echo.start();
        double[] batches = new double[BATCHES];
        long v = 0;
        try {
            for (int b = 0; b < BATCHES; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < ROUND_TRIPS_PER_BATCH; i++) {
                    line.set(v + 1);
                    if (!await(line, v + 2, deadline)) {
                        return Double.NaN;
                    }
                    v += 2;
                }
                batches[b] = (System.nanoTime() - start) / (double) ROUND_TRIPS_PER_BATCH;
            }
        } finally {
            line.set(Long.MIN_VALUE); // a stopped echo thread sees no value it waits for, and ends at its deadline
        }
        try {
            echo.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NANOS) + 100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Arrays.sort(batches);
        return batches[BATCHES / 2];
    }

    /** Spins until {@code line} holds {@code value}; false once the deadline has passed. */
    private static boolean await(AtomicLong line, long value, long deadline) {
        int spins = 0;
        while (line.get() != value) {
            Thread.onSpinWait();
            if ((++spins & 1023) == 0 && System.nanoTime() - deadline > 0) {
                return false;
            }
        }
        return true;
    }
}
