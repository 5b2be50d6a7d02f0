package org.iwarp4j.tools.perf;

import java.util.List;

/**
 * One line of a perf report.
 *
 * @param size        message size in octets
 * @param iterations  measured operations
 * @param peakBytesPerSecond  best rate over a 5 ms window (bandwidth tests)
 * @param avgBytesPerSecond   average over the run
 * @param messagesPerSecond   operations per second
 * @param latency     the latency columns (latency tests), else {@code null}
 * @param cpu         the CPU time of the measurement, per end that reported it (bandwidth tests), else empty
 * @param spread      the slowest and the fastest of several queue pairs ({@code -q}), else {@code null}
 */
record PerfResult(int size, long iterations, double peakBytesPerSecond, double avgBytesPerSecond,
                  double messagesPerSecond, LatencyMeter.LatencyStats latency, List<CpuUse> cpu, QpSpread spread) {

    PerfResult {
        cpu = List.copyOf(cpu);
    }

    PerfResult(int size, long iterations, double peakBytesPerSecond, double avgBytesPerSecond,
               double messagesPerSecond, LatencyMeter.LatencyStats latency) {
        this(size, iterations, peakBytesPerSecond, avgBytesPerSecond, messagesPerSecond, latency, List.of(), null);
    }

    /**
     * How evenly several queue pairs shared a bandwidth run: the operations per second of the slowest and of the
     * fastest, each over the whole run.
     */
    record QpSpread(int qps, double minMessagesPerSecond, double maxMessagesPerSecond) {

        /** The spread of {@code operations} per queue pair over {@code elapsedNanos}; null for one queue pair. */
        static QpSpread of(long[] operations, long elapsedNanos) {
            if (operations.length < 2) {
                return null;
            }
            long min = Long.MAX_VALUE;
            long max = 0;
            for (long n : operations) {
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            double seconds = Math.max(1, elapsedNanos) / 1e9;
            return new QpSpread(operations.length, min / seconds, max / seconds);
        }
    }

    static PerfResult bandwidth(int size, BandwidthMeter m) {
        return new PerfResult(size, m.operations(), m.peakRate() * size, m.averageRate() * size, m.averageRate(), null);
    }

    static PerfResult latency(int size, LatencyMeter m, long elapsedNanos) {
        long n = m.count();
        double rate = n * 1e9 / Math.max(1, elapsedNanos);
        return new PerfResult(size, n, rate * size, rate * size, rate, m.stats());
    }

    /** The octets the measured operations moved. */
    long bytes() {
        return (long) size * iterations;
    }

    PerfResult withCpu(List<CpuUse> figures) {
        return new PerfResult(size, iterations, peakBytesPerSecond, avgBytesPerSecond, messagesPerSecond, latency,
                figures, spread);
    }

    PerfResult withSpread(QpSpread qpSpread) {
        return new PerfResult(size, iterations, peakBytesPerSecond, avgBytesPerSecond, messagesPerSecond, latency,
                cpu, qpSpread);
    }
}
