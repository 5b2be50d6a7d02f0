package org.iwarp4j.tools.perf;

/**
 * Bandwidth of one measurement: average over the whole run, and peak over the best window of at least
 * {@link #PEAK_WINDOW_NANOS} (perftest's peak compares per-iteration timestamps; ours uses windows of
 * completions, which a Java clock resolves honestly). Samples are taken at most every 100 µs into arrays
 * allocated once, so recording allocates nothing.
 */
final class BandwidthMeter {

    static final long PEAK_WINDOW_NANOS = 5_000_000;
    private static final long SAMPLE_NANOS = 100_000;
    private static final int MAX_SAMPLES = 1 << 20;

    private final long[] times;
    private final long[] counts;
    private int samples;
    private long start;
    private long end;
    private long operations;

    BandwidthMeter() {
        times = new long[MAX_SAMPLES];
        counts = new long[MAX_SAMPLES];
    }

    void start(long now) {
        start = now;
        end = now;
        operations = 0;
        samples = 1;
        times[0] = now;
        counts[0] = 0;
    }

    /** {@code completed} operations have finished by {@code now}. */
    void record(long now, long completed) {
        operations = completed;
        end = now;
        if (samples < MAX_SAMPLES && now - times[samples - 1] >= SAMPLE_NANOS) {
            times[samples] = now;
            counts[samples] = completed;
            samples++;
        }
    }

    long operations() {
        return operations;
    }

    long elapsedNanos() {
        return Math.max(1, end - start);
    }

    /** Average rate in operations per second. */
    double averageRate() {
        return operations * 1e9 / elapsedNanos();
    }

    /** The best rate over any window of at least {@link #PEAK_WINDOW_NANOS} (the average if the run is shorter). */
    double peakRate() {
        double best = averageRate();
        int i = 0;
        for (int j = 1; j < samples; j++) {
            while (i + 1 < j && times[j] - times[i + 1] >= PEAK_WINDOW_NANOS) {
                i++;
            }
            long dt = times[j] - times[i];
            if (dt >= PEAK_WINDOW_NANOS) {
                best = Math.max(best, (counts[j] - counts[i]) * 1e9 / dt);
            }
        }
        return best;
    }
}
