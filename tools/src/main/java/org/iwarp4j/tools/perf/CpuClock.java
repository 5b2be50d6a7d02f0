package org.iwarp4j.tools.perf;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's CPU time, every thread together (event loops, the measuring thread, the JIT and the garbage
 * collector): user+sys from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime} (nanoseconds), and
 * user time alone from {@code /proc/self/stat} (fields 14 utime and 15 stime, proc(5), in clock ticks of
 * {@link #TICKS_PER_SECOND}) where the OS has it; beside them the JIT compilers' time ({@link #jitNanos}). Where
 * the MXBean is missing, user+sys is taken from {@code /proc} too; what neither gives is {@link #UNKNOWN} (-1).
 * Read at the start and the end of a measurement, never on the data path (each reading allocates).
 */
final class CpuClock {

    /** A figure this platform does not give. */
    static final long UNKNOWN = -1;
    /** Linux's USER_HZ, the unit of {@code /proc/self/stat}'s times: 100 on every architecture (times(2)). */
    static final long TICKS_PER_SECOND = 100;
    private static final Path PROC_STAT = Path.of("/proc/self/stat");

    private CpuClock() {}

    /**
     * One reading: user+sys and user nanoseconds, and the JIT compilers' time so far ({@code jitNanos}: this
     * process's only; a reading that came over the wire has none), each {@link #UNKNOWN} where the platform does
     * not say.
     */
    record Sample(long cpuNanos, long userNanos, long jitNanos) {

        /** A reading without the JIT's time (the perf protocol carries CPU time only). */
        Sample(long cpuNanos, long userNanos) {
            this(cpuNanos, userNanos, UNKNOWN);
        }

        /** The CPU used from {@code earlier} to this reading, by the end {@code end}, moving {@code bytes}. */
        CpuUse since(Sample earlier, String end, long bytes) {
            return new CpuUse(end, delta(cpuNanos, earlier.cpuNanos), delta(userNanos, earlier.userNanos), bytes,
                    delta(jitNanos, earlier.jitNanos));
        }

        private static long delta(long now, long then) {
            return now < 0 || then < 0 ? UNKNOWN : Math.max(0, now - then);
        }
    }

    /** Now. */
    static Sample now() {
        long[] proc = procTimes();
        long cpu = mxBeanCpu();
        if (cpu < 0 && proc != null) {
            cpu = (proc[0] + proc[1]) * (1_000_000_000L / TICKS_PER_SECOND);
        }
        long user = proc == null ? UNKNOWN : proc[0] * (1_000_000_000L / TICKS_PER_SECOND);
        return new Sample(cpu, user, jitNanos());
    }

    /**
     * The JIT compilers' accumulated time ({@code CompilationMXBean#getTotalCompilationTime}, milliseconds), or
     * {@link #UNKNOWN} without a JIT or its monitoring. Time the compilers spent during a measurement means part of
     * it ran code not compiled yet.
     */
    static long jitNanos() {
        try {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
                return jit.getTotalCompilationTime() * 1_000_000L;
            }
        } catch (LinkageError | RuntimeException e) {
            // no management: unknown
        }
        return UNKNOWN;
    }

    private static long mxBeanCpu() {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
                long t = os.getProcessCpuTime();
                return t >= 0 ? t : UNKNOWN;
            }
        } catch (LinkageError | RuntimeException e) {
            // a JDK without jdk.management: /proc, or unknown
        }
        return UNKNOWN;
    }

    /** utime and stime in ticks, or null where {@code /proc/self/stat} cannot be read. */
    private static long[] procTimes() {
        try {
            return parseStat(Files.readString(PROC_STAT, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * utime and stime (ticks) from a {@code /proc/PID/stat} line, or null if it is not one. The second field, the
     * command in parentheses, may hold spaces and parentheses itself, so the fields are counted after its last
     * {@code ')'}: there the state is field 3, utime field 14 and stime field 15.
     */
    static long[] parseStat(String line) {
        int close = line.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] f = line.substring(close + 1).trim().split(" +");
        if (f.length < 13) {
            return null;
        }
        try {
            long utime = Long.parseLong(f[14 - 3]);
            long stime = Long.parseLong(f[15 - 3]);
            return utime < 0 || stime < 0 ? null : new long[] {utime, stime};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
