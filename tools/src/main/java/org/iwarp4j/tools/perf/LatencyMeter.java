package org.iwarp4j.tools.perf;

import org.HdrHistogram.Histogram;

/**
 * Latencies of one measurement in an HdrHistogram (1 ns to 100 s, 3 significant digits), reported as
 * perftest's latency tests report them: t_min, t_max, t_typical (the median), t_avg, t_stdev and the 99 %
 * and 99.9 % percentiles, in microseconds. Ping-pong tests (Write, Send, TCP) record half the round trip, as
 * perftest does; Read and Atomic tests record the whole operation.
 */
final class LatencyMeter {

    private final Histogram histogram = new Histogram(1, 100_000_000_000L, 3);
    private final boolean halfRoundTrip;

    LatencyMeter(boolean halfRoundTrip) {
        this.halfRoundTrip = halfRoundTrip;
    }

    void record(long nanos) {
        long v = halfRoundTrip ? nanos / 2 : nanos;
        histogram.recordValue(Math.max(1, Math.min(v, histogram.getHighestTrackableValue())));
    }

    long count() {
        return histogram.getTotalCount();
    }

    /** The summary in microseconds. */
    LatencyStats stats() {
        return new LatencyStats(histogram.getTotalCount(), histogram.getMinValue() / 1e3, histogram.getMaxValue() / 1e3,
                histogram.getValueAtPercentile(50) / 1e3, histogram.getMean() / 1e3,
                histogram.getStdDeviation() / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3);
    }

    /** perftest's latency columns, in microseconds. */
    record LatencyStats(long iterations, double min, double max, double typical, double avg, double stdev,
                        double p99, double p999) {}
}
