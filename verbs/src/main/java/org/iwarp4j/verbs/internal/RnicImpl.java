package org.iwarp4j.verbs.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.pcap.PcapWriteHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.RdmapMemory;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The software RNIC: Netty event loops (epoll when available, else NIO), STag table, RNIC-wide atomic
 * executor (RFC 7306 §5, EXT-05), limits, and the connection manager (listen/connect), whose connections run
 * the pipeline of {@link ConnectionPipelines}.
 */
public final class RnicImpl implements Rnic {

    private static final long SYNTHETIC_BASE = 0x1000_0000_0000L;

    private final RnicConfig config;
    private final Transport transport;
    private final EventLoopGroup group;
    private final StagTable stagTable;
    private final AtomicExecutor atomics;
    private final RdmapMemory memory;
    private final AtomicLong nextPd = new AtomicLong(1);
    private final AtomicInteger nextQp = new AtomicInteger(1);
    private final AtomicInteger queuePairs = new AtomicInteger();
    private final AtomicLong syntheticBase = new AtomicLong(SYNTHETIC_BASE);
    private final Set<ListenerImpl> listeners = ConcurrentHashMap.newKeySet();
    private final Set<QueuePairImpl> openQueuePairs = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public RnicImpl(RnicConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        Transport t = config.transport();
        if (t == null) {
            t = Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO;
        } else if (t == Transport.EPOLL && !Epoll.isAvailable()) {
            throw new IllegalStateException("epoll is not available: " + Epoll.unavailabilityCause());
        }
        this.transport = t;
        DefaultThreadFactory threads = new DefaultThreadFactory("iwarp-" + config.name(), true);
        this.group = new MultiThreadIoEventLoopGroup(config.eventLoopThreads(), threads,
                t == Transport.EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.stagTable = new StagTable(config.maxMemoryRegions());
        this.atomics = new LockingAtomicExecutor(256, config.atomicByteOrder());
        this.memory = new RdmapMemory() {
            @Override
            public TaggedBuffer lookup(int stag) {
                return stagTable.lookup(stag);
            }

            @Override
            public boolean invalidate(TaggedBuffer buffer) {
                RegionImpl r = stagTable.region(buffer.stag());
                return r != null && r.invalidate();
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
    public CompletionQueue createCompletionQueue(int capacity) throws VerbsException {
        checkOpen();
        if (capacity < 1 || capacity > config.maxCompletionQueueDepth()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "completion queue capacity "
                    + capacity + " outside 1.." + config.maxCompletionQueueDepth());
        }
        return new CompletionQueueImpl(this, group.next(), capacity);
    }

    void completionQueueClosed(CompletionQueueImpl cq) {
        // nothing shared to release; the ring is garbage once unreferenced
    }

    QueuePair createQueuePair(ProtectionDomainImpl pd, QueuePairConfig qpConfig) throws VerbsException {
        checkOpen();
        if (!(qpConfig.sendCompletionQueue() instanceof CompletionQueueImpl)
                || !(qpConfig.receiveCompletionQueue() instanceof CompletionQueueImpl)) {
            throw new IllegalArgumentException("completion queues must come from an RNIC");
        }
        if (qpConfig.sharedReceiveQueue() != null
                && (!(qpConfig.sharedReceiveQueue() instanceof SharedReceiveQueueImpl s) || s.pd() != pd)) {
            throw new IllegalArgumentException("the shared receive queue must belong to the same protection domain");
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
        openQueuePairs.add(qp);
        return qp;
    }

    void queuePairClosed(QueuePairImpl qp) {
        if (openQueuePairs.remove(qp)) {
            queuePairs.decrementAndGet();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RNIC " + config.name() + " is closed");
        }
    }

    // ------------------------------------------------------------------ connection manager

    private Class<? extends SocketChannel> socketChannel() {
        return transport == Transport.EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private Class<? extends ServerChannel> serverChannel() {
        return transport == Transport.EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    @Override
    public Listener listen(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler)
            throws VerbsException {
        checkOpen();
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(handler, "handler");
        ListenerImpl listener = new ListenerImpl(this, options, handler);
        OutputStream pcap = null;
        if (options.pcapFile() != null) {
            try {
                pcap = new BufferedOutputStream(Files.newOutputStream(options.pcapFile()));
                PcapWriteHandler.writeGlobalHeader(pcap);
            } catch (IOException e) {
                throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, null, "cannot write pcap file "
                        + options.pcapFile() + ": " + e);
            }
        }
        MpaConfig mpa = MpaConfig.builder()
                .revision(options.mpaRevision())
                .crc(options.crc())
                .markers(options.markers())
                .irdLimit(config.maxIrdOrd())
                .ird(Math.min(16, config.maxIrdOrd()))
                .ord(Math.min(16, config.maxIrdOrd()))
                .startupTimeout(options.mpaStartupTimeout())
                .emss(options.emss())
                .receiveUlpduLimit(options.receiveUlpduLimit())
                .rtrTypes(options.rtrTypes())
                .requiredOrd(options.requiredOrd())
                .autoAccept(false)
                .build();
        SharedPcapFile sharedPcap = pcap == null ? null : new SharedPcapFile(pcap);
        ServerBootstrap b = new ServerBootstrap()
                .group(group, group)
                .channel(serverChannel())
                .option(ChannelOption.SO_BACKLOG, options.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ConnectionPipelines.responder(ch, mpa, sharedPcap, listener);
                    }
                });
        ChannelFuture bound = b.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            if (sharedPcap != null) {
                sharedPcap.release();
            }
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, null, "cannot listen on " + address + ": "
                    + bound.cause());
        }
        listener.bound(bound.channel(), sharedPcap);
        listeners.add(listener);
        return listener;
    }

    void listenerClosed(ListenerImpl listener) {
        listeners.remove(listener);
    }

    @Override
    public CompletionStage<Connection> connect(InetSocketAddress address, QueuePair queuePair, ConnectOptions options) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(options, "options");
        CompletableFuture<Connection> result = new CompletableFuture<>();
        if (closed) {
            result.completeExceptionally(new IllegalStateException("RNIC is closed"));
            return result;
        }
        if (!(queuePair instanceof QueuePairImpl qp) || qp.rnic() != this) {
            result.completeExceptionally(new IllegalArgumentException("the queue pair belongs to another RNIC"));
            return result;
        }
        if (!qp.claim()) {
            result.completeExceptionally(new IllegalStateException("queue pair " + qp.number() + " is " + qp.state()
                    + " or already connecting; connect needs a fresh IDLE queue pair"));
            return result;
        }
        int ird = options.ird() >= 0 ? options.ird() : qp.config().ird();
        int ord = options.ord() >= 0 ? options.ord() : qp.config().ord();
        MpaConfig mpa;
        try {
            MpaConfig.Builder mb = MpaConfig.builder()
                    .revision(options.mpaRevision())
                    .crc(options.crc())
                    .markers(options.markers())
                    .ird(ird)
                    .ord(ord)
                    .irdLimit(Math.max(ird, config.maxIrdOrd()))
                    .privateData(options.privateData())
                    .startupTimeout(options.mpaStartupTimeout())
                    .emss(options.emss())
                    .receiveUlpduLimit(options.receiveUlpduLimit());
            if (!options.rtrTypes().isEmpty()) {
                mb.peerToPeer(true).rtrTypes(options.rtrTypes());
            }
            mpa = mb.build();
        } catch (IllegalArgumentException e) {
            qp.stateError();
            result.completeExceptionally(e);
            return result;
        }
        EventLoop loop = group.next();
        InetSocketAddress target = address.isUnresolved()
                ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
        QueuePairHandler handler = new QueuePairHandler(qp, result, options);
        qp.bind(loop, handler);
        Path pcapFile = options.pcapFile();
        Bootstrap b = new Bootstrap()
                .group(loop)
                .channel(socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        options.connectTimeout().toMillis()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) throws IOException {
                        ConnectionPipelines.initiator(ch, mpa, pcapFile, handler);
                    }
                });
        loop.execute(() -> {
            options.eventListener().onEvent(CmEvent.ADDR_RESOLVED, qp, null, null);
            options.eventListener().onEvent(CmEvent.ROUTE_RESOLVED, qp, null, null);
            b.connect(target).addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    qp.stateError();
                    ConnectionFailedException e = new ConnectionFailedException(CmEvent.UNREACHABLE,
                            "TCP connect to " + target + " failed: " + f.cause(), f.cause());
                    options.eventListener().onEvent(CmEvent.UNREACHABLE, qp, null, e);
                    result.completeExceptionally(e);
                }
            });
        });
        return result;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ListenerImpl l : List.copyOf(listeners)) {
            l.close();
        }
        for (QueuePairImpl qp : List.copyOf(openQueuePairs)) {
            qp.close();
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "Rnic[" + config.name() + " " + transport + "]";
    }
}
