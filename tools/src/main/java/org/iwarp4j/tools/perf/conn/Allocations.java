package org.iwarp4j.tools.perf.conn;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bytes allocated on the heap by every live Java thread, from HotSpot's per-thread counters
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}: TLAB and outside-TLAB allocations, exact to
 * the allocation), grouped by what the thread is: the event loops of each named RNIC ({@code iwarp-NAME-…}) and
 * all other threads. A thread that ends between two snapshots takes its count with it; the event loops and the
 * tool's own thread live through a run. Memory the JVM allocates outside the heap (direct buffers, the native
 * side of sockets) is not counted here.
 */
final class Allocations {

    /** A group's name for threads that are no RNIC's event loop. */
    static final String OTHER = "other";

    private static final ThreadMXBean THREADS = threadBean();

    private final Map<Long, Long> byThread;
    private final Map<Long, String> groupOf;

    private Allocations(Map<Long, Long> byThread, Map<Long, String> groupOf) {
        this.byThread = byThread;
        this.groupOf = groupOf;
    }

    private static ThreadMXBean threadBean() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean t
                && t.isThreadAllocatedMemorySupported()) {
            if (!t.isThreadAllocatedMemoryEnabled()) {
                t.setThreadAllocatedMemoryEnabled(true);
            }
            return t;
        }
        return null;
    }

    /** Whether this JVM counts allocations per thread. */
    static boolean supported() {
        return THREADS != null;
    }

    /**
     * The counters now; {@code rnicNames}: the RNICs whose event loops are their own groups (the rest is
     * {@link #OTHER}).
     */
    static Allocations now(List<String> rnicNames) {
        Map<Long, Long> bytes = new HashMap<>();
        Map<Long, String> groups = new HashMap<>();
        if (THREADS == null) {
            return new Allocations(bytes, groups);
        }
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        long[] allocated = THREADS.getThreadAllocatedBytes(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && allocated[i] >= 0) {
                bytes.put(ids[i], allocated[i]);
                groups.put(ids[i], groupOf(infos[i].getThreadName(), rnicNames));
            }
        }
        return new Allocations(bytes, groups);
    }

    private static String groupOf(String threadName, List<String> rnicNames) {
        for (String r : rnicNames) {
            if (threadName.startsWith("iwarp-" + r + "-")) {
                return r;
            }
        }
        return OTHER;
    }

    /**
     * What was allocated since {@code before}, per group (in the order of {@code rnicNames}, then {@link #OTHER}),
     * and in total under {@code "total"}.
     */
    Map<String, Long> since(Allocations before, List<String> rnicNames) {
        Map<String, Long> out = new LinkedHashMap<>();
        long total = 0;
        for (String r : rnicNames) {
            out.put(r, 0L);
        }
        out.put(OTHER, 0L);
        for (Map.Entry<Long, Long> e : byThread.entrySet()) {
            long delta = e.getValue() - before.byThread.getOrDefault(e.getKey(), 0L);
            String g = groupOf.get(e.getKey());
            out.merge(g, delta, Long::sum);
            total += delta;
        }
        out.put("total", total);
        return out;
    }
}
