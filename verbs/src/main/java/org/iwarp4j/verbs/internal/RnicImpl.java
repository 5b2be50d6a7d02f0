package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.RdmapMemory;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicAttributes;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * The software RNIC: Netty event loops (epoll when available, else NIO), STag table, RNIC-wide atomic
 * executor (RFC 7306 §5, EXT-05), limits, and the connection manager (listen/connect), whose connections run
 * the pipeline of {@link ConnectionPipelines}.
 */
public final class RnicImpl implements Rnic {

    private static final long SYNTHETIC_BASE = 0x1000_0000_0000L;

    private final RnicConfig config;
    private final ByteBufAllocator allocator;
    private final Transport transport;
    private final EventLoopGroup group;
    /** False for the test seam's RNIC on a loop it was given. */
    private final boolean ownsGroup;
    private final ConnectionManager connections;
    private final StagTable stagTable;
    private final AtomicExecutor atomics;
    private final RdmapMemory memory;
    private final AtomicLong nextPd = new AtomicLong(1);
    private final AtomicInteger nextQp = new AtomicInteger(1);
    private final AtomicInteger queuePairs = new AtomicInteger();
    private final AtomicLong syntheticBase = new AtomicLong(SYNTHETIC_BASE);
    private final Map<Integer, QueuePairImpl> openQueuePairs = new ConcurrentHashMap<>();
    private final Set<CompletionQueueImpl> completionQueues = ConcurrentHashMap.newKeySet();
    private final Set<CompletionChannelImpl> channels = ConcurrentHashMap.newKeySet();
    private final IntFunction<QueuePair> queuePairLookup = openQueuePairs::get;
    private final ResourceLimit registeredBytes;
    private final ResourceLimit postedReceives;
    private final ResourceLimit startups;
    private final ResourceLimit inboundReadsAndAtomics;
    private volatile boolean closed;

    /**
     * Opens an RNIC; {@code allocator}: where its headers and control messages come from ({@link #allocator()}),
     * {@code null} for {@link PooledByteBufAllocator#DEFAULT}.
     */
    public RnicImpl(RnicConfig config, ByteBufAllocator allocator) {
        this(config, allocator, null);
    }

    /**
     * Test seam (the stateful fuzz target, {@code QueuePairFuzzTest}): an RNIC whose completion queues and queue
     * pairs all run on {@code loop}, a loop it does not own ({@link #close} leaves it running), for connections
     * made with {@link #connectOver} on a channel of that loop, typically an {@code EmbeddedChannel}'s. Such an
     * RNIC cannot listen or {@link #connect} (it has no transport of its own); {@code null}: the public
     * constructor's own event loops.
     */
    RnicImpl(RnicConfig config, ByteBufAllocator allocator, EventLoop loop) {
        this.config = Objects.requireNonNull(config, "config");
        this.registeredBytes = new ResourceLimit("maxRegisteredBytes", config.maxRegisteredBytes());
        this.postedReceives = new ResourceLimit("maxPostedReceives", config.maxPostedReceives());
        this.startups = new ResourceLimit("maxStartupsInProgress", config.maxStartupsInProgress());
        this.inboundReadsAndAtomics = new ResourceLimit("maxInboundReadsAndAtomics",
                config.maxInboundReadsAndAtomics());
        this.allocator = allocator == null ? PooledByteBufAllocator.DEFAULT : allocator;
        this.transport = Transports.resolve(config.transport());
        this.ownsGroup = loop == null;
        this.group = loop != null ? loop : new MultiThreadIoEventLoopGroup(config.eventLoopThreads(),
                new EventLoopThreads("iwarp-" + config.name()), Transports.ioHandlerFactory(transport,
                config.busyPoll()));
        this.connections = new ConnectionManager(this, group, transport);
        this.stagTable = new StagTable(config.maxStags());
        this.atomics = new LockingAtomicExecutor(256, config.atomicByteOrder());
        this.memory = new RdmapMemory() {
            @Override
            public TaggedBuffer lookup(int stag) {
                return stagTable.lookup(stag);
            }

            @Override
            public boolean invalidate(TaggedBuffer buffer) {
                StagOwner owner = stagTable.owner(buffer.stag());
                return owner != null && owner.invalidateRemotely();
            }
        };
    }

    // ------------------------------------------------------------------ resources

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public RnicConfig config() {
        return config;
    }

    @Override
    public Transport transport() {
        return transport;
    }

    @Override
    public RnicAttributes query() {
        return new RnicAttributes(config.name(), transport, config.eventLoopThreads(), config.maxQueuePairs(),
                config.maxWorkRequests(), config.maxSge(), config.maxInlineData(), config.maxCompletionQueueDepth(),
                config.maxStags(), Integer.MAX_VALUE, config.maxMessageSize(), config.maxIrdOrd(),
                config.atomicByteOrder(), config.maxRegisteredBytes(), config.maxPostedReceives(),
                config.maxStartupsInProgress(), config.maxInboundReadsAndAtomics());
    }

    /**
     * Where the RNIC's headers and control messages come from: Netty's pooled allocator by default, as every
     * connection's channel ({@link ConnectionManager#CHANNEL_BUFFERS}).
     */
    ByteBufAllocator allocator() {
        return allocator;
    }

    /** Finds an open queue pair by number (what a {@code WorkCompletion} keeps instead of the queue pair). */
    IntFunction<QueuePair> queuePairLookup() {
        return queuePairLookup;
    }

    /** Octets registered in regions (RnicConfig.maxRegisteredBytes). */
    ResourceLimit registeredBytes() {
        return registeredBytes;
    }

    /** Receives posted and not yet polled (RnicConfig.maxPostedReceives). */
    ResourceLimit postedReceives() {
        return postedReceives;
    }

    /** Accepted connections in MPA startup (RnicConfig.maxStartupsInProgress). */
    ResourceLimit startups() {
        return startups;
    }

    /** The IRDs of the RNIC's connections (RnicConfig.maxInboundReadsAndAtomics). */
    ResourceLimit inboundReadsAndAtomics() {
        return inboundReadsAndAtomics;
    }

    /**
     * Takes a connection's IRD before its MPA startup: at least {@code ird} (1 for a Read RTR if it is 0), and as
     * much of what it may raise the IRD to ({@code irdLimit}) as is free; {@code null} if not even that is free.
     */
    Reservation reserveIrd(int ird, int irdLimit) {
        long least = Math.max(ird, 1);
        long got = inboundReadsAndAtomics.tryAcquireBetween(least, Math.max(least, irdLimit));
        return got < 0 ? null : new Reservation(inboundReadsAndAtomics, got);
    }

    StagTable stagTable() {
        return stagTable;
    }

    AtomicExecutor atomics() {
        return atomics;
    }

    RdmapMemory memory() {
        return memory;
    }

    boolean isClosed() {
        return closed;
    }

    /** A unique base TO for memory without a native address (page-aligned, never reused). */
    long syntheticBase(long length) {
        return syntheticBase.getAndAdd((length + 0xFFF) & ~0xFFFL);
    }

    @Override
    public ProtectionDomain allocateProtectionDomain() {
        checkOpen();
        return new ProtectionDomainImpl(this, nextPd.getAndIncrement());
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) {
        return createCompletionQueue(capacity, null, false);
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity, CompletionChannel channel) {
        return createCompletionQueue(capacity, channel, true);
    }

    private CompletionQueue createCompletionQueue(int capacity, CompletionChannel channel, boolean withChannel) {
        checkOpen();
        if (withChannel && !(channel instanceof CompletionChannelImpl c && channels.contains(c))) {
            throw new IllegalArgumentException("the completion channel must come from this RNIC");
        }
        if (capacity < 1 || capacity > config.maxCompletionQueueDepth()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "completion queue capacity "
                    + capacity + " outside 1.." + config.maxCompletionQueueDepth());
        }
        CompletionQueueImpl cq = new CompletionQueueImpl(group.next(), capacity, (CompletionChannelImpl) channel,
                completionQueues::remove);
        completionQueues.add(cq);
        return cq;
    }

    /** The completion queues and channels this RNIC still holds (open ones); for tests. */
    int completionQueuesAndChannelsHeld() {
        return completionQueues.size() + channels.size();
    }

    @Override
    public CompletionChannel createCompletionChannel() {
        checkOpen();
        CompletionChannelImpl c = new CompletionChannelImpl(channels::remove);
        channels.add(c);
        return c;
    }

    QueuePairImpl createQueuePair(ProtectionDomainImpl pd, QueuePairConfig qpConfig) {
        checkOpen();
        for (CompletionQueue cq : List.of(qpConfig.sendCompletionQueue(), qpConfig.receiveCompletionQueue())) {
            if (!(cq instanceof CompletionQueueImpl c) || !completionQueues.contains(c) || c.isClosed()) {
                throw new IllegalArgumentException("completion queue " + cq + " is closed or of another RNIC");
            }
        }
        if (qpConfig.sharedReceiveQueue().isPresent()
                && (!(qpConfig.sharedReceiveQueue().get() instanceof SharedReceiveQueueImpl s) || s.pd() != pd)) {
            throw new IllegalArgumentException("the shared receive queue must belong to the same protection domain");
        }
        if (qpConfig.maxSendWr() > config.maxWorkRequests() || qpConfig.maxRecvWr() > config.maxWorkRequests()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "maxSendWr/maxRecvWr "
                    + qpConfig.maxSendWr() + "/" + qpConfig.maxRecvWr() + " exceed the RNIC's "
                    + config.maxWorkRequests());
        }
        if (qpConfig.maxInlineData() > config.maxInlineData()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "maxInlineData "
                    + qpConfig.maxInlineData() + " exceeds the RNIC's " + config.maxInlineData());
        }
        if (qpConfig.maxSge() > config.maxSge()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "maxSge " + qpConfig.maxSge()
                    + " exceeds the RNIC's " + config.maxSge());
        }
        if (qpConfig.ird() > config.maxIrdOrd() || qpConfig.ord() > config.maxIrdOrd()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "IRD/ORD " + qpConfig.ird() + "/"
                    + qpConfig.ord() + " exceed the RNIC's " + config.maxIrdOrd());
        }
        if (queuePairs.incrementAndGet() > config.maxQueuePairs()) {
            queuePairs.decrementAndGet();
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "the RNIC has "
                    + config.maxQueuePairs() + " queue pairs already");
        }
        QueuePairImpl qp = new QueuePairImpl(this, pd, qpConfig, nextQp.getAndIncrement());
        openQueuePairs.put(qp.number(), qp);
        return qp;
    }

    void queuePairClosed(QueuePairImpl qp) {
        if (openQueuePairs.remove(qp.number(), qp)) {
            queuePairs.decrementAndGet();
        }
    }

    /** The Netty extra: the event loop of a completion queue of this stack (see {@code NettyVerbs}). */
    public static EventLoop eventLoopOf(CompletionQueue cq) {
        if (!(cq instanceof CompletionQueueImpl impl)) {
            throw new IllegalArgumentException("not a completion queue of iwarp4j's: " + cq);
        }
        return impl.loop();
    }

    /** The Netty extra: registers a {@link ByteBuf} (see {@code NettyVerbs}). */
    public static MemoryRegion registerByteBuf(ProtectionDomain pd, ByteBuf buffer, Set<Access> access) {
        if (!(pd instanceof ProtectionDomainImpl p)) {
            throw new IllegalArgumentException("not a protection domain of an iwarp4j RNIC: " + pd);
        }
        return p.register(buffer, access);
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RNIC " + config.name() + " is closed");
        }
    }

    // ------------------------------------------------------------------ connection manager

    @Override
    public Listener listen(InetSocketAddress address, ListenOptions options) {
        return connections.listen(address, options);
    }

    @Override
    public Listener listen(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler) {
        return connections.listen(address, options, handler);
    }

    void listenerClosed(ListenerImpl listener) {
        connections.listenerClosed(listener);
    }

    @Override
    public CompletableFuture<Connection> connect(InetSocketAddress address, QueuePair queuePair,
            ConnectOptions options) {
        return connections.connect(address, queuePair, options);
    }

    /**
     * Test seam (see the package-private constructor): connects {@code queuePair} as the Initiator over
     * {@code ch}, a channel already connected and registered with this RNIC's loop: the pipeline of
     * {@link ConnectionPipelines#initiator} is installed on it and MPA's startup begins at once.
     */
    CompletableFuture<Connection> connectOver(Channel ch, QueuePair queuePair, ConnectOptions options) {
        return connections.connectOver(ch, queuePair, options);
    }

    /**
     * Test seam: {@code ch}, a channel already connected and registered with this RNIC's loop, as a connection a
     * listener with {@code options} accepted: the pipeline of {@link ConnectionPipelines#responder} is installed on
     * it, and the MPA Request that arrives goes to {@code handler}.
     */
    Listener acceptOver(Channel ch, ListenOptions options, ConnectionRequestHandler handler) {
        return connections.acceptOver(ch, options, handler);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        EventLoopThreads.checkMayBlock("Rnic.close");
        closed = true;
        connections.closeListeners();
        for (QueuePairImpl qp : List.copyOf(openQueuePairs.values())) {
            qp.close();
        }
        for (CompletionQueueImpl cq : List.copyOf(completionQueues)) {
            cq.closeForRnic();
        }
        for (CompletionChannelImpl c : List.copyOf(channels)) {
            c.close();
        }
        connections.closeChannels();
        deregisterAll();
        if (ownsGroup) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }

    /**
     * What the application left registered: windows first (a region refuses to close under a bound window), then
     * regions, whose memory goes back where it came from (a transfer still holding some keeps it until it ends).
     */
    private void deregisterAll() {
        List<StagOwner> owners = stagTable.owners();
        for (StagOwner o : owners) {
            if (o instanceof WindowImpl w) {
                w.close();
            }
        }
        for (StagOwner o : owners) {
            if (o instanceof RegionImpl r) {
                r.close();
            }
        }
    }

    @Override
    public String toString() {
        return "Rnic[" + config.name() + " " + transport + "]";
    }
}
