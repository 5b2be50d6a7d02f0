package org.iwarp4j.verbs.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The RNIC's connection manager ({@code rdma_cm}): listeners and connects, each connection a channel of the
 * RNIC's event loops with the pipeline of {@link ConnectionPipelines}.
 */
final class ConnectionManager {

    /**
     * Every connection's channel allocates from Netty's pooled allocator (the buffers it reads into, the FPDUs it
     * gathers), not 4.2's adaptive one ({@code ByteBufAllocator.DEFAULT}): a pooled buffer hands out its
     * {@code ByteBuffer} view again with its memory, which MPA's CRC32C reads received FPDUs through, and recycles
     * its {@code retainedSlice()}s, which the framing between large FPDUs is written as; an adaptive buffer makes
     * both anew each time, a heap object per read and per large FPDU (docs/performance.md, "Pooled buffers").
     */
    static final ByteBufAllocator CHANNEL_BUFFERS = PooledByteBufAllocator.DEFAULT;

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionManager.class);

    private final RnicImpl rnic;
    private final EventLoopGroup group;
    private final Transport transport;
    private final Set<ListenerImpl> listeners = ConcurrentHashMap.newKeySet();
    /**
     * Every connection this RNIC made or accepted that is still open (a channel leaves the group when it closes):
     * {@link #closeChannels} closes them when the RNIC closes, whatever state their startup is in.
     */
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    /** RnicConfig.outboundBufferBytes: a queue pair pulls segments while fewer octets wait, resumes at half. */
    private final WriteBufferWaterMark outboundBuffer;

    ConnectionManager(RnicImpl rnic, EventLoopGroup group, Transport transport) {
        this.rnic = rnic;
        this.group = group;
        this.transport = transport;
        RnicConfig config = rnic.config();
        this.outboundBuffer =
                new WriteBufferWaterMark(config.outboundBufferResumeBytes(), config.outboundBufferBytes());
    }

    Listener listen(InetSocketAddress address, ListenOptions options) {
        return bindListener(address, options, null);
    }

    Listener listen(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler) {
        return bindListener(address, options, Objects.requireNonNull(handler, "handler"));
    }

    /** {@code handler} {@code null}: the requests wait for {@code Listener.take}. */
    private Listener bindListener(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler) {
        EventLoopThreads.checkMayBlock("Rnic.listen");
        rnic.checkOpen();
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(options, "options");
        ListenerImpl listener = new ListenerImpl(rnic, options, handler);
        SharedPcapFile sharedPcap = options.pcapFile().map(ConnectionManager::openPcap).orElse(null);
        MpaConfig mpa = MpaConfigs.responder(options, rnic.config().maxIrdOrd());
        ServerBootstrap b = new ServerBootstrap()
                .group(group, group)
                .channel(Transports.serverChannel(transport))
                .option(ChannelOption.SO_BACKLOG, options.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, outboundBuffer)
                .childOption(ChannelOption.ALLOCATOR, CHANNEL_BUFFERS)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.add(ch);
                        TcpLiveness.apply(ch, options.keepalive().orElse(null));
                        Transports.setNotSentLowat(ch, rnic.config().tcpNotSentLowat());
                        Admission admission = listener.admit(ch);
                        if (admission != null) {
                            ConnectionPipelines.responder(ch, mpa, sharedPcap, listener, admission);
                        }
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

    private static SharedPcapFile openPcap(Path file) {
        try {
            return SharedPcapFile.open(file);
        } catch (IOException e) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, null, "cannot write pcap file " + file
                    + ": " + e);
        }
    }

    void listenerClosed(ListenerImpl listener) {
        listeners.remove(listener);
    }

    CompletableFuture<Connection> connect(InetSocketAddress address, QueuePair queuePair, ConnectOptions options) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(options, "options");
        LoopSafeFuture<Connection> result = new LoopSafeFuture<>();
        Initiation i = initiation(address, queuePair, options, result);
        if (i == null) {
            return result;
        }
        InetSocketAddress target = address.isUnresolved()
                ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
        Path pcapFile = options.pcapFile().orElse(null);
        Bootstrap b = new Bootstrap()
                .group(i.loop())
                .channel(Transports.socketChannel(transport))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, outboundBuffer)
                .option(ChannelOption.ALLOCATOR, CHANNEL_BUFFERS)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        options.connectTimeout().toMillis()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) throws IOException {
                        channels.add(ch);
                        TcpLiveness.apply(ch, options.keepalive().orElse(null));
                        Transports.setNotSentLowat(ch, rnic.config().tcpNotSentLowat());
                        ch.closeFuture().addListener(f -> i.irds().release());
                        ConnectionPipelines.initiator(ch, i.mpa(), pcapFile, i.handler());
                    }
                });
        i.loop().execute(() -> b.connect(target).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                i.irds().release();
                i.handler().connectFailed(new ConnectionFailedException(ConnectionFailedException.Kind.UNREACHABLE,
                        "TCP connect to " + target + " failed: " + f.cause(), f.cause()));
            }
        }));
        return result;
    }

    /**
     * The test seam behind {@link RnicImpl#connectOver}: {@link #connect} after TCP's handshake, on {@code ch}
     * (connected, registered with the queue pair's loop; no keepalive, no capture file).
     */
    CompletableFuture<Connection> connectOver(Channel ch, QueuePair queuePair, ConnectOptions options) {
        Objects.requireNonNull(options, "options");
        if (queuePair instanceof QueuePairImpl qp && qp.sendCq().loop() != ch.eventLoop()) {
            throw new IllegalArgumentException("the channel runs on another loop than the queue pair");
        }
        LoopSafeFuture<Connection> result = new LoopSafeFuture<>();
        Initiation i = initiation(ch.remoteAddress(), queuePair, options, result);
        if (i == null) {
            return result;
        }
        channels.add(ch);
        ch.closeFuture().addListener(f -> i.irds().release());
        try {
            ConnectionPipelines.initiator(ch, i.mpa(), null, i.handler());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // only a capture file's
        }
        return result;
    }

    /**
     * The test seam behind {@link RnicImpl#acceptOver}: what a listener does for a connection TCP accepted, on
     * {@code ch} (connected, registered with the loop its queue pair will use; no keepalive, no capture file), for a
     * listener of its own that is never bound.
     */
    Listener acceptOver(Channel ch, ListenOptions options, ConnectionRequestHandler handler) {
        ListenerImpl listener = new ListenerImpl(rnic, Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(handler, "handler"));
        channels.add(ch);
        Admission admission = listener.admit(ch);
        if (admission != null) {
            ConnectionPipelines.responder(ch, MpaConfigs.responder(options, rnic.config().maxIrdOrd()), null, listener,
                    admission);
        }
        return listener;
    }

    /**
     * At {@link RnicImpl#close}, after its queue pairs: closes every connection still open, and waits (up to 5 s)
     * until they are. A connection whose MPA Request waits for the application's decision has no queue pair yet, and
     * without this it would outlive the RNIC where the RNIC's loops are not its own, and depend on the loops'
     * shutdown where they are.
     */
    void closeChannels() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** What a connect needs before its channel: {@code null} if it failed {@code result} already. */
    private record Initiation(EventLoop loop, QueuePairHandler handler, MpaConfig mpa, Reservation irds) {
    }

    private Initiation initiation(Object address, QueuePair queuePair, ConnectOptions options,
                                  LoopSafeFuture<Connection> result) {
        if (rnic.isClosed()) {
            result.completeExceptionally(new IllegalStateException("RNIC is closed"));
            return null;
        }
        if (!(queuePair instanceof QueuePairImpl qp) || qp.rnic() != rnic) {
            result.completeExceptionally(new IllegalArgumentException("the queue pair belongs to another RNIC"));
            return null;
        }
        int ird = options.ird().orElse(qp.config().ird());
        int ord = options.ord().orElse(qp.config().ord());
        // Before anything is made for the connection: its IRD from the RNIC's, and what it may raise it to.
        Reservation irds = rnic.reserveIrd(ird, Math.max(ird, rnic.config().maxIrdOrd()));
        if (irds == null) {
            ResourceLimit limit = rnic.inboundReadsAndAtomics();
            LOG.warn("connect to {} refused: {} (RnicConfig)", address, limit.reached());
            result.completeExceptionally(limit.refusal(null, "connect with IRD " + ird));
            return null;
        }
        if (!qp.claim()) {
            irds.release();
            result.completeExceptionally(new IllegalStateException("queue pair " + qp.number() + " is " + qp.state()
                    + " or already connecting; connect needs a fresh IDLE queue pair"));
            return null;
        }
        MpaConfig mpa;
        try {
            mpa = MpaConfigs.initiator(options, ird, ord, (int) irds.held());
        } catch (IllegalArgumentException e) {
            irds.release();
            qp.stateError();
            result.completeExceptionally(e);
            return null;
        }
        qp.irdReservation(irds);
        // The queue pair lives where its send completion queue's handlers run: a handler that posts (run to
        // completion) hands nothing to another thread.
        EventLoop loop = qp.sendCq().loop();
        QueuePairHandler handler = new QueuePairHandler(qp, result, options, loop);
        qp.bind(loop, handler);
        return new Initiation(loop, handler, mpa, irds);
    }

    /** Closes every listener (the RNIC closes). */
    void closeListeners() {
        for (ListenerImpl l : List.copyOf(listeners)) {
            l.close();
        }
    }
}
