package org.iwarp4j.tools.soak;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The client JVM's memory, sampled every few seconds after a full collection: heap in use, the JDK's direct
 * buffers (every region's memory and Netty's pools) and the resident set. A slope is growing when it is steeper
 * than its limit and the last third of the samples after the warm-up (see {@link #slopes()}) also sits more
 * than 16 MiB above the first third, so that a run's noise (connections coming and going with their memory) is
 * not taken for a leak.
 */
final class SoakMemory {

    private static final double MIB = 1 << 20;

    record Sample(double minutes, long heap, long direct, long rss) {}

    private final long start = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();

    synchronized void sample() {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            }
        }
        add(new Sample((System.nanoTime() - start) / 60e9, heap, direct, rss()));
    }

    synchronized void add(Sample s) {
        samples.add(s);
    }

    private static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no RSS
        }
        return 0;
    }

    /** The verdict on one series, e.g. {@code heap +0.12 MiB/min (flat)}. */
    record Slope(String name, double mibPerMinute, double quarterRise, boolean growing) {
        @Override
        public String toString() {
            return String.format("%s %+.2f MiB/min, last third %+.1f MiB over the first (%s)", name,
                    mibPerMinute, quarterRise, growing ? "GROWING" : "flat");
        }
    }

    /**
     * Slopes over the samples after the warm-up (the first quarter of the run, at least its first minute or half);
     * empty with fewer than 6 samples after it.
     */
    synchronized List<Slope> slopes() {
        List<Slope> out = new ArrayList<>();
        double total = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).minutes;
        double warmUp = Math.max(total / 4, Math.min(1, total / 2));
        List<Sample> s = samples.stream().filter(x -> x.minutes >= warmUp).toList();
        if (s.size() < 6) {
            return out;
        }
        out.add(slope("heap", s, 0, 1.0));
        out.add(slope("direct", s, 1, 2.0));
        out.add(slope("rss", s, 2, 4.0));
        return out;
    }

    private static Slope slope(String name, List<Sample> s, int which, double limit) {
        double n = s.size();
        double mx = 0;
        double my = 0;
        for (Sample x : s) {
            mx += x.minutes;
            my += value(x, which);
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (Sample x : s) {
            sxy += (x.minutes - mx) * (value(x, which) - my);
            sxx += (x.minutes - mx) * (x.minutes - mx);
        }
        double slope = sxx == 0 ? 0 : sxy / sxx;
        int q = s.size() / 3;
        double early = mean(s.subList(0, q), which);
        double late = mean(s.subList(s.size() - q, s.size()), which);
        double rise = late - early;
        return new Slope(name, slope, rise, slope > limit && rise > 16);
    }

    private static double mean(List<Sample> s, int which) {
        double sum = 0;
        for (Sample x : s) {
            sum += value(x, which);
        }
        return s.isEmpty() ? 0 : sum / s.size();
    }

    private static double value(Sample x, int which) {
        return (which == 0 ? x.heap : which == 1 ? x.direct : x.rss) / MIB;
    }

    synchronized Sample last() {
        return samples.isEmpty() ? null : samples.get(samples.size() - 1);
    }
}
