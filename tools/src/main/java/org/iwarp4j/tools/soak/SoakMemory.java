package org.iwarp4j.tools.soak;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The client JVM's memory, sampled every few seconds after a full collection: heap in use, the JDK's direct
 * buffers outside Netty's pool (every region's memory), the memory Netty's pool holds and the resident set. A
 * slope is growing when it is steeper than its limit and the last third of the samples after the warm-up (see
 * {@link #slopes()}) also sits more than 16 MiB above the first third, so that a run's noise (connections coming
 * and going with their memory) is not taken for a leak.
 *
 * <p>The pool and the resident set are judged only in runs of {@value #LONG_RUN_MINUTES} minutes and more. The
 * pool grows with demand (a burst of retransmissions after a drop phase keeps more octets in flight) and keeps
 * its chunks, and the resident set holds what the JVM itself grows into in its first minutes (compiled code,
 * heap the collector committed and keeps, the malloc arenas of new threads): a short run cannot tell growth
 * that levels off from growth that does not. In a short run every pooled buffer is watched by Netty's leak
 * detector at PARANOID instead (part of the soak's verdict), and the regions' memory by the direct series.
 */
final class SoakMemory {

    private static final double MIB = 1 << 20;

    static final double LONG_RUN_MINUTES = 10;

    /** {@code direct}: the JDK's direct buffers outside Netty's pool; {@code pool}: what the pool holds. */
    record Sample(double minutes, long heap, long direct, long pool, long rss) {}

    private final long start = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();

    synchronized void sample() throws InterruptedException {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        // The JDK frees a collected direct buffer on its reference handler thread, after the collection: wait
        // until two reads agree (at most half a second) so that regions already closed are not counted.
        long direct = jdkDirect();
        for (int i = 0; i < 25; i++) {
            Thread.sleep(20);
            long again = jdkDirect();
            if (again == direct) {
                break;
            }
            direct = again;
        }
        long pool = ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p
                ? p.metric().usedDirectMemory() : 0;
        // Without a cleaner-less allocation Netty's pool takes its chunks from the JDK's direct buffers too.
        long outside = PlatformDependent.useDirectBufferNoCleaner() ? direct : Math.max(0, direct - pool);
        add(new Sample((System.nanoTime() - start) / 60e9, heap, outside, pool, rss()));
    }

    private static long jdkDirect() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
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
    record Slope(String name, double mibPerMinute, double quarterRise, boolean growing, boolean judged) {
        @Override
        public String toString() {
            return String.format("%s %+.2f MiB/min, last third %+.1f MiB over the first (%s)", name,
                    mibPerMinute, quarterRise,
                    !judged ? "not judged under " + (int) LONG_RUN_MINUTES + " min" : growing ? "GROWING" : "flat");
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
        out.add(slope("heap", s, 0, 1.0, true));
        out.add(slope("direct", s, 1, 2.0, true));
        boolean longRun = total >= LONG_RUN_MINUTES;
        out.add(slope("pool", s, 3, 2.0, longRun));
        out.add(slope("rss", s, 2, 4.0, longRun));
        return out;
    }

    private static Slope slope(String name, List<Sample> s, int which, double limit, boolean judged) {
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
        return new Slope(name, slope, rise, judged && slope > limit && rise > 16, judged);
    }

    private static double mean(List<Sample> s, int which) {
        double sum = 0;
        for (Sample x : s) {
            sum += value(x, which);
        }
        return s.isEmpty() ? 0 : sum / s.size();
    }

    private static double value(Sample x, int which) {
        long v = switch (which) {
            case 0 -> x.heap;
            case 1 -> x.direct;
            case 2 -> x.rss;
            default -> x.pool;
        };
        return v / MIB;
    }

    synchronized Sample last() {
        return samples.isEmpty() ? null : samples.get(samples.size() - 1);
    }
}
