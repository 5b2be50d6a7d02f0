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
 */
record PerfResult(int size, long iterations, double peakBytesPerSecond, double avgBytesPerSecond,
                  double messagesPerSecond, LatencyMeter.LatencyStats latency, List<CpuUse> cpu) {

    PerfResult {
        cpu = List.copyOf(cpu);
    }

    PerfResult(int size, long iterations, double peakBytesPerSecond, double avgBytesPerSecond,
               double messagesPerSecond, LatencyMeter.LatencyStats latency) {
        this(size, iterations, peakBytesPerSecond, avgBytesPerSecond, messagesPerSecond, latency, List.of());
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
                figures);
    }
}
