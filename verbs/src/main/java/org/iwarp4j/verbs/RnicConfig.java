package org.iwarp4j.verbs;

import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Configuration of one software RNIC ({@link Rnic#open(RnicConfig)}); build with {@link #builder()}.
 *
 * @param name                    a name for logs and tools
 * @param transport               the Netty transport, or {@code null}: epoll when available, else NIO
 * @param eventLoopThreads        event loops (each queue pair lives on one)
 * @param maxQueuePairs           queue pairs open at once
 * @param maxMemoryRegions        registered regions at once (STag table size, at most 2^24 − 1)
 * @param maxCompletionQueueDepth largest completion queue
 * @param maxSge                  largest scatter/gather list
 * @param maxIrdOrd               largest IRD / ORD of a queue pair (128 like Linux siw)
 * @param maxMessageSize          largest message (2^31 − 1)
 * @param atomicByteOrder         byte order of the words atomics operate on in registered memory
 * @param allocator               for headers and control messages (pooled)
 */
public record RnicConfig(String name, Transport transport, int eventLoopThreads, int maxQueuePairs,
                         int maxMemoryRegions, int maxCompletionQueueDepth, int maxSge, int maxIrdOrd,
                         int maxMessageSize, ByteOrder atomicByteOrder, ByteBufAllocator allocator) {

    public RnicConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(atomicByteOrder, "atomicByteOrder");
        Objects.requireNonNull(allocator, "allocator");
        positive("eventLoopThreads", eventLoopThreads);
        positive("maxQueuePairs", maxQueuePairs);
        positive("maxCompletionQueueDepth", maxCompletionQueueDepth);
        positive("maxSge", maxSge);
        positive("maxMessageSize", maxMessageSize);
        if (maxMemoryRegions < 1 || maxMemoryRegions > 0xFF_FFFE) {
            throw new IllegalArgumentException("maxMemoryRegions must be 1..2^24-2: " + maxMemoryRegions);
        }
        if (maxIrdOrd < 0 || maxIrdOrd > 0x3FFE) {
            throw new IllegalArgumentException("maxIrdOrd must be 0..16382: " + maxIrdOrd);
        }
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static RnicConfig defaults() {
        return builder().build();
    }

    /** Builder with the defaults: epoll if available, one event loop per core, siw-like limits. */
    public static final class Builder {
        private String name = "iwarp0";
        private Transport transport;
        private int eventLoopThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int maxQueuePairs = 4096;
        private int maxMemoryRegions = 65536;
        private int maxCompletionQueueDepth = 1 << 20;
        private int maxSge = 32;
        private int maxIrdOrd = 128;
        private int maxMessageSize = Integer.MAX_VALUE;
        private ByteOrder atomicByteOrder = ByteOrder.LITTLE_ENDIAN;
        private ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;

        private Builder() {}

        public Builder name(String v) { name = v; return this; }
        public Builder transport(Transport v) { transport = v; return this; }
        public Builder eventLoopThreads(int v) { eventLoopThreads = v; return this; }
        public Builder maxQueuePairs(int v) { maxQueuePairs = v; return this; }
        public Builder maxMemoryRegions(int v) { maxMemoryRegions = v; return this; }
        public Builder maxCompletionQueueDepth(int v) { maxCompletionQueueDepth = v; return this; }
        public Builder maxSge(int v) { maxSge = v; return this; }
        public Builder maxIrdOrd(int v) { maxIrdOrd = v; return this; }
        public Builder maxMessageSize(int v) { maxMessageSize = v; return this; }
        public Builder atomicByteOrder(ByteOrder v) { atomicByteOrder = v; return this; }
        public Builder allocator(ByteBufAllocator v) { allocator = v; return this; }

        public RnicConfig build() {
            return new RnicConfig(name, transport, eventLoopThreads, maxQueuePairs, maxMemoryRegions,
                    maxCompletionQueueDepth, maxSge, maxIrdOrd, maxMessageSize, atomicByteOrder, allocator);
        }
    }
}
