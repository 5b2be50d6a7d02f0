package org.iwarp4j.tools.perf;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

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

    /** The summary in microseconds, with the percentile curve. */
    LatencyStats stats() {
        return new LatencyStats(histogram.getTotalCount(), histogram.getMinValue() / 1e3, histogram.getMaxValue() / 1e3,
                histogram.getValueAtPercentile(50) / 1e3, histogram.getMean() / 1e3,
                histogram.getStdDeviation() / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3, curve());
    }

    /**
     * HdrHistogram's percentile distribution (5 steps per halving of the distance to 100 %), in microseconds; the
     * 100 % point, the maximum, stands at one in {@code count} ({@code 1/(1-p)} = count), where a plot of
     * {@code 1/(1-p)} can show it.
     */
    private PercentileCurve curve() {
        long n = histogram.getTotalCount();
        if (n == 0) {
            return new PercentileCurve(new double[0], new double[0]);
        }
        double[] p = new double[64];
        double[] us = new double[64];
        int k = 0;
        for (HistogramIterationValue v : histogram.percentiles(5)) {
            double level = v.getPercentileLevelIteratedTo();
            if (level >= 100 || level >= 100 * (1 - 1.0 / n)) {
                break;
            }
            if (k == p.length) {
                p = Arrays.copyOf(p, k * 2);
                us = Arrays.copyOf(us, k * 2);
            }
            p[k] = level;
            us[k++] = histogram.highestEquivalentValue(v.getValueIteratedTo()) / 1e3;
        }
        p = Arrays.copyOf(p, k + 1);
        us = Arrays.copyOf(us, k + 1);
        p[k] = 100 * (1 - 1.0 / n);
        us[k] = histogram.getMaxValue() / 1e3;
        return new PercentileCurve(p, us);
    }

    /** Latency (µs) against percentile (0..100), ascending. */
    record PercentileCurve(double[] percentiles, double[] micros) {}

    /** perftest's latency columns, in microseconds, and the percentile curve behind them (null: none kept). */
    record LatencyStats(long iterations, double min, double max, double typical, double avg, double stdev,
                        double p99, double p999, PercentileCurve curve) {

        LatencyStats(long iterations, double min, double max, double typical, double avg, double stdev, double p99,
                     double p999) {
            this(iterations, min, max, typical, avg, stdev, p99, p999, null);
        }
    }
}
