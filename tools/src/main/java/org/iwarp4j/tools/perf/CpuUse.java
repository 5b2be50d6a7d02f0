package org.iwarp4j.tools.perf;

/**
 * The CPU time one end spent on a measurement, beside the octets it moved: what {@code iwarp perf} reports as
 * CPU seconds per GB (10^9 octets), user+sys and user alone.
 *
 * @param end        whose CPU: {@link #BOTH} (--loopback: one process runs client and server), {@link #CLIENT} or
 *                   {@link #SERVER} (the server's own process, as it reported it)
 * @param cpuNanos   user+sys nanoseconds, or {@link CpuClock#UNKNOWN}
 * @param userNanos  user nanoseconds, or {@link CpuClock#UNKNOWN}
 * @param bytes      octets moved in the measurement
 * @param jitNanos   the JIT compilers' time during the measurement (this process's readings only), or
 *                   {@link CpuClock#UNKNOWN}
 */
record CpuUse(String end, long cpuNanos, long userNanos, long bytes, long jitNanos) {

    static final String BOTH = "both";
    static final String CLIENT = "client";
    static final String SERVER = "server";

    /** Without the JIT's time (the other end's figures, as the perf protocol carries them). */
    CpuUse(String end, long cpuNanos, long userNanos, long bytes) {
        this(end, cpuNanos, userNanos, bytes, CpuClock.UNKNOWN);
    }

    boolean hasJit() {
        return jitNanos >= 0;
    }

    double jitSeconds() {
        return jitNanos / 1e9;
    }

    boolean hasCpu() {
        return cpuNanos >= 0;
    }

    boolean hasUser() {
        return userNanos >= 0;
    }

    double gigabytes() {
        return bytes / 1e9;
    }

    double cpuSeconds() {
        return cpuNanos / 1e9;
    }

    double userSeconds() {
        return userNanos / 1e9;
    }

    /** User+sys seconds per 10^9 octets moved; NaN when unknown or nothing moved. */
    double cpuSecondsPerGB() {
        return hasCpu() && bytes > 0 ? cpuSeconds() / gigabytes() : Double.NaN;
    }

    /** User seconds per 10^9 octets moved; NaN when unknown or nothing moved. */
    double userSecondsPerGB() {
        return hasUser() && bytes > 0 ? userSeconds() / gigabytes() : Double.NaN;
    }
}
