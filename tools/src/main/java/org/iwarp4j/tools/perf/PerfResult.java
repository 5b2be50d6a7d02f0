package org.iwarp4j.tools.perf;

/**
 * One line of a perf report.
 *
 * @param size        message size in octets
 * @param iterations  measured operations
 * @param peakBytesPerSecond  best rate over a 5 ms window (bandwidth tests)
 * @param avgBytesPerSecond   average over the run
 * @param messagesPerSecond   operations per second
 * @param latency     the latency columns (latency tests), else {@code null}
 */
record PerfResult(int size, long iterations, double peakBytesPerSecond, double avgBytesPerSecond,
                  double messagesPerSecond, LatencyMeter.LatencyStats latency) {

    static PerfResult bandwidth(int size, BandwidthMeter m) {
        return new PerfResult(size, m.operations(), m.peakRate() * size, m.averageRate() * size, m.averageRate(), null);
    }

    static PerfResult latency(int size, LatencyMeter m, long elapsedNanos) {
        long n = m.count();
        double rate = n * 1e9 / Math.max(1, elapsedNanos);
        return new PerfResult(size, n, rate * size, rate * size, rate, m.stats());
    }
}
