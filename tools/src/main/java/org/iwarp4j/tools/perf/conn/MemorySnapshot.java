package org.iwarp4j.tools.perf.conn;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What this JVM holds at one moment, for the cost of idle queue pairs: the heap in use after a full GC
 * ({@link java.lang.management.MemoryMXBean}), the resident set ({@code VmRSS} of {@code /proc/self/status}),
 * Netty's memory (the default allocator's metric: direct and heap memory its pools or arenas have taken from
 * the system; {@link PlatformDependent#usedDirectMemory()} where Netty counts its own direct buffers), the
 * JDK's direct buffers ({@code BufferPoolMXBean "direct"}), open file descriptors and live threads.
 *
 * @param heapUsed       heap bytes in use (after a GC when {@link #take(boolean)} was asked for one)
 * @param heapCommitted  heap bytes the JVM has committed
 * @param rss            resident set size in bytes, or -1 where {@code /proc} is not there
 * @param nettyDirect    direct bytes held by Netty's default allocator (its chunks, used or cached)
 * @param nettyHeap      heap bytes held by Netty's default allocator
 * @param nettyCounted   direct bytes Netty counts itself ({@code PlatformDependent.usedDirectMemory()}), or -1
 * @param jdkDirect      bytes of the JDK's direct {@link java.nio.ByteBuffer}s
 * @param fds            open file descriptors, or -1 where {@code /proc} is not there
 * @param threads        live Java threads
 */
record MemorySnapshot(long heapUsed, long heapCommitted, long rss, long nettyDirect, long nettyHeap,
                      long nettyCounted, long jdkDirect, long fds, int threads) {

    /** Takes a snapshot; {@code gc}: first run full collections until the heap in use stops falling. */
    static MemorySnapshot take(boolean gc) {
        if (gc) {
            fullGc();
        }
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long nettyDirect = -1;
        long nettyHeap = -1;
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p) {
            ByteBufAllocatorMetric m = p.metric();
            nettyDirect = m.usedDirectMemory();
            nettyHeap = m.usedHeapMemory();
        }
        long jdkDirect = 0;
        List<BufferPoolMXBean> pools = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
        for (BufferPoolMXBean b : pools) {
            if (b.getName().equals("direct")) {
                jdkDirect = b.getMemoryUsed();
            }
        }
        return new MemorySnapshot(heap.getUsed(), heap.getCommitted(), readRss(), nettyDirect, nettyHeap,
                PlatformDependent.usedDirectMemory(), jdkDirect, openFds(),
                ManagementFactory.getThreadMXBean().getThreadCount());
    }

    /** Full collections (at most 5) until the heap in use shrinks by less than 1 %. */
    static void fullGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        long before = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long used = memory.getHeapMemoryUsage().getUsed();
            if (used > before - before / 100) {
                return;
            }
            before = used;
        }
    }

    /** This snapshot less {@code base}, per {@code n} (one queue pair, or one connection). */
    PerItem perItem(MemorySnapshot base, long n) {
        double d = Math.max(1, n);
        return new PerItem(n, (heapUsed - base.heapUsed) / d, (heapCommitted - base.heapCommitted) / d,
                rss < 0 || base.rss < 0 ? Double.NaN : (rss - base.rss) / d,
                nettyDirect < 0 ? Double.NaN : (nettyDirect - base.nettyDirect) / d,
                nettyHeap < 0 ? Double.NaN : (nettyHeap - base.nettyHeap) / d,
                nettyCounted < 0 ? Double.NaN : (nettyCounted - base.nettyCounted) / d,
                (jdkDirect - base.jdkDirect) / d, fds < 0 || base.fds < 0 ? Double.NaN : (fds - base.fds) / d);
    }

    /**
     * What each of {@code n} items added, in bytes (file descriptors in number); NaN where it was not measured.
     */
    record PerItem(long n, double heap, double heapCommitted, double rss, double nettyDirect, double nettyHeap,
                   double nettyCounted, double jdkDirect, double fds) {}

    /** {@code VmRSS} of {@code /proc/self/status} in bytes, or -1. */
    static long readRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Open file descriptors ({@code /proc/self/fd}), or -1. */
    static long openFds() {
        long n = 0;
        try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path ignored : d) {
                n++;
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return n - 1; // the directory stream's own
    }
}
