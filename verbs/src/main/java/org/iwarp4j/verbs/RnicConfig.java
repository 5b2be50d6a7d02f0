package org.iwarp4j.verbs;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Configuration of one software RNIC ({@link Rnic#open(RnicConfig)}); build with {@link #builder()}, whose
 * setters name the defaults.
 *
 * @param name                    a name for logs and tools
 * @param transport               the transport, or {@code null}: epoll when available, else NIO
 * @param eventLoopThreads        event loops (each queue pair lives on one)
 * @param maxQueuePairs           queue pairs open at once
 * @param maxWorkRequests         largest send or receive queue (per queue pair) and shared receive queue
 * @param maxStags                memory regions and windows at once (STag table size, at most 2^24 − 2)
 * @param maxCompletionQueueDepth largest completion queue
 * @param maxSge                  largest scatter/gather list
 * @param maxInlineData           largest inline payload a queue pair may allow
 * @param maxIrdOrd               largest IRD / ORD of a queue pair (128 like Linux siw)
 * @param maxMessageSize          largest message (2^31 − 1)
 * @param atomicByteOrder         byte order of the 64-bit words atomics read and write in registered memory.
 *                                The wire carries atomic operands big-endian (RFC 7306 §5.2); the memory holds
 *                                them in this order, the host's by default, as libibverbs does. Note that a
 *                                new {@link java.nio.ByteBuffer} is big-endian: read an atomic word with
 *                                {@code buffer.order(rnic.query().atomicByteOrder()).getLong(offset)}.
 * @param maxRegisteredBytes      octets registered in memory regions at once (a fast registration counts its
 *                                {@code maxLength}); {@code allocateRegion} checks it before it allocates
 * @param maxPostedReceives       receives posted and not yet polled, over all queue pairs and shared receive
 *                                queues of the RNIC
 * @param maxStartupsInProgress   connections accepted by the RNIC's listeners whose MPA startup has not ended
 *                                (waiting for the Request, or for the application's decision); one more is closed
 *                                at once, before any MPA state is made for it
 * @param maxInboundReadsAndAtomics RDMA Read and Atomic Requests the peers may have outstanding at this RNIC at
 *                                once: the sum of the IRDs of its connections ({@code max_res_rd_atom} of
 *                                {@code ibv_device_attr}); each connect or accept takes its IRD from it before the
 *                                MPA exchange, and the rest of what it may raise the IRD to, up to what is free
 * @param busyPoll                event loops that never sleep: each turn asks the kernel for ready sockets without
 *                                waiting, so a message is handled as it arrives instead of after a wake-up (a few
 *                                microseconds each on a virtual machine), at the price of a busy core for each loop
 *                                that has started (a loop starts with the first connection or task it is given,
 *                                and spins from then until the RNIC closes). For latency measurements and
 *                                latency-bound applications with a core to spare, as perftest and DPDK poll (with
 *                                {@code eventLoopThreads(1)} one core); epoll and NIO only
 * @param outboundBufferBytes     octets of FPDUs a connection hands to its socket ahead of what the socket has taken
 *                                (the high water mark of Netty's outbound buffer): a queue pair takes work from its
 *                                send queue until this many wait, and again once half of them are written. Each
 *                                batch of FPDUs is one system call and the Sends and Writes in it complete when it
 *                                is written, so larger batches cost fewer system calls and wake-ups per octet, but a
 *                                batch as large as everything the application keeps posted leaves the send queue
 *                                empty until it is written: keep it at most half of the octets the send queue holds
 *                                (docs/performance.md). What waits is mostly the registered memory itself (payloads
 *                                above 4 KiB are not copied; smaller ones are copied into pooled buffers)
 * @param tcpNotSentLowat         octets a connection's socket may hold that TCP has not sent yet
 *                                ({@code TCP_NOTSENT_LOWAT}, tcp(7)): past it the socket takes no more and the
 *                                queue pair waits, however large the kernel has grown the socket's send buffer.
 *                                What is in flight is not limited, so a long path still fills. Without it the
 *                                kernel lets each socket hold up to its send buffer's limit (4 MiB by default), and
 *                                with many connections the octets it copies are long out of the CPU's caches: 64
 *                                queue pairs moved 0.61 of one queue pair's 64 KiB Writes without it and 0.77 with
 *                                1 MiB (docs/performance.md, "Many queue pairs: the kernel's send buffers"). 0: the
 *                                kernel's default. epoll and io_uring; NIO cannot set it and ignores it
 */
public record RnicConfig(String name, Transport transport, int eventLoopThreads, int maxQueuePairs,
                         int maxWorkRequests, int maxStags, int maxCompletionQueueDepth, int maxSge,
                         int maxInlineData, int maxIrdOrd, int maxMessageSize, ByteOrder atomicByteOrder,
                         long maxRegisteredBytes, int maxPostedReceives, int maxStartupsInProgress,
                         int maxInboundReadsAndAtomics, boolean busyPoll, int outboundBufferBytes,
                         int tcpNotSentLowat) {

    /** Checks the limits. */
    public RnicConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(atomicByteOrder, "atomicByteOrder");
        positive("eventLoopThreads", eventLoopThreads);
        positive("maxQueuePairs", maxQueuePairs);
        positive("maxWorkRequests", maxWorkRequests);
        positive("maxCompletionQueueDepth", maxCompletionQueueDepth);
        positive("maxSge", maxSge);
        positive("maxMessageSize", maxMessageSize);
        positive("maxPostedReceives", maxPostedReceives);
        positive("maxStartupsInProgress", maxStartupsInProgress);
        positive("maxInboundReadsAndAtomics", maxInboundReadsAndAtomics);
        if (maxRegisteredBytes < 1) {
            throw new IllegalArgumentException("maxRegisteredBytes must be positive: " + maxRegisteredBytes);
        }
        if (maxInlineData < 0) {
            throw new IllegalArgumentException("maxInlineData must not be negative: " + maxInlineData);
        }
        if (maxStags < 1 || maxStags > 0xFF_FFFE) {
            throw new IllegalArgumentException("maxStags must be 1..2^24-2: " + maxStags);
        }
        if (maxIrdOrd < 0 || maxIrdOrd > 0x3FFE) {
            throw new IllegalArgumentException("maxIrdOrd must be 0..16382: " + maxIrdOrd);
        }
        positive("outboundBufferBytes", outboundBufferBytes);
        if (tcpNotSentLowat < 0) {
            throw new IllegalArgumentException("tcpNotSentLowat must not be negative (0: the kernel's default): "
                    + tcpNotSentLowat);
        }
        if (busyPoll && transport == Transport.IO_URING) {
            throw new IllegalArgumentException("busyPoll needs epoll or NIO: io_uring's loop waits in the kernel");
        }
    }

    /**
     * The octets waiting in a connection's outbound buffer below which its queue pair pulls from the send queue
     * again (Netty's low water mark): half of {@link #outboundBufferBytes()}, at least 1 (Netty makes a channel
     * writable again only below it).
     *
     * @return the low water mark
     */
    public int outboundBufferResumeBytes() {
        return Math.max(1, outboundBufferBytes / 2);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    /**
     * A builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The defaults.
     *
     * @return {@code builder().build()}
     */
    public static RnicConfig defaults() {
        return builder().build();
    }

    /** Builder; each setter names its default. */
    public static final class Builder {
        private String name = "iwarp0";
        private Transport transport;
        private int eventLoopThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int maxQueuePairs = 4096;
        private int maxWorkRequests = 32768;
        private int maxStags = 65536;
        private int maxCompletionQueueDepth = 1 << 20;
        private int maxSge = 32;
        private int maxInlineData = 4096;
        private int maxIrdOrd = 128;
        private int maxMessageSize = Integer.MAX_VALUE;
        private ByteOrder atomicByteOrder = ByteOrder.nativeOrder();
        private long maxRegisteredBytes = 16L << 30;
        private int maxPostedReceives = 1 << 20;
        private int maxStartupsInProgress = 1024;
        private int maxInboundReadsAndAtomics = 65536;
        private boolean busyPoll;
        private int outboundBufferBytes = 256 * 1024;
        private int tcpNotSentLowat = 1 << 20;

        private Builder() {}

        /** @param v default {@code iwarp0} @return this */
        public Builder name(String v) { name = v; return this; }
        /** @param v default {@code null}: epoll when available, else NIO @return this */
        public Builder transport(Transport v) { transport = v; return this; }
        /** @param v default: one per core @return this */
        public Builder eventLoopThreads(int v) { eventLoopThreads = v; return this; }
        /** @param v default 4096 @return this */
        public Builder maxQueuePairs(int v) { maxQueuePairs = v; return this; }
        /** @param v default 32768 @return this */
        public Builder maxWorkRequests(int v) { maxWorkRequests = v; return this; }
        /** @param v default 65536 @return this */
        public Builder maxStags(int v) { maxStags = v; return this; }
        /** @param v default 2^20 @return this */
        public Builder maxCompletionQueueDepth(int v) { maxCompletionQueueDepth = v; return this; }
        /** @param v default 32 @return this */
        public Builder maxSge(int v) { maxSge = v; return this; }
        /** @param v default 4096 @return this */
        public Builder maxInlineData(int v) { maxInlineData = v; return this; }
        /** @param v default 128 @return this */
        public Builder maxIrdOrd(int v) { maxIrdOrd = v; return this; }
        /** @param v default 2^31 − 1 @return this */
        public Builder maxMessageSize(int v) { maxMessageSize = v; return this; }
        /** @param v default {@link ByteOrder#nativeOrder()} @return this */
        public Builder atomicByteOrder(ByteOrder v) { atomicByteOrder = v; return this; }
        /** @param v default 16 GiB @return this */
        public Builder maxRegisteredBytes(long v) { maxRegisteredBytes = v; return this; }
        /** @param v default 2^20 @return this */
        public Builder maxPostedReceives(int v) { maxPostedReceives = v; return this; }
        /** @param v default 1024 @return this */
        public Builder maxStartupsInProgress(int v) { maxStartupsInProgress = v; return this; }
        /** @param v default 65536 @return this */
        public Builder maxInboundReadsAndAtomics(int v) { maxInboundReadsAndAtomics = v; return this; }
        /** @param v default {@code false}: loops sleep until a socket or a task needs them @return this */
        public Builder busyPoll(boolean v) { busyPoll = v; return this; }
        /** @param v default 256 KiB @return this */
        public Builder outboundBufferBytes(int v) { outboundBufferBytes = v; return this; }
        /** @param v default 1 MiB; 0: the kernel's default (no limit below the send buffer's) @return this */
        public Builder tcpNotSentLowat(int v) { tcpNotSentLowat = v; return this; }

        /**
         * Validates and builds.
         *
         * @return the configuration
         */
        public RnicConfig build() {
            return new RnicConfig(name, transport, eventLoopThreads, maxQueuePairs, maxWorkRequests, maxStags,
                    maxCompletionQueueDepth, maxSge, maxInlineData, maxIrdOrd, maxMessageSize, atomicByteOrder,
                    maxRegisteredBytes, maxPostedReceives, maxStartupsInProgress, maxInboundReadsAndAtomics,
                    busyPoll, outboundBufferBytes, tcpNotSentLowat);
        }
    }
}
