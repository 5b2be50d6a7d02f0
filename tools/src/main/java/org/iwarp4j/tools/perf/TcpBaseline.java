package org.iwarp4j.tools.perf;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.netty.NettyVerbs;

/**
 * {@code iwarp perf tcp}: the same measurements over plain TCP with Netty (the transport the iWARP stack uses,
 * epoll when available, TCP_NODELAY, one event loop per end), so every iWARP figure can be read as a ratio:
 * a stream of {@code SIZE}-octet writes (bandwidth) and a {@code SIZE}-octet ping-pong (latency, half the
 * round trip). Both run on the event loops themselves: the baseline has no application-thread hand-off, which
 * the iWARP figures include (posting and polling).
 *
 * <p>Protocol, per size one connection: a 16-octet header (magic "IWTC", mode, size, warm-up operations); in
 * stream mode the client half-closes when done and the server answers with {@link #REPLY} octets: the count it
 * received, then its process CPU time ({@link CpuClock}, user+sys and user nanoseconds, -1 unknown) when the
 * warm-up's octets had arrived and when the client half-closed, so the client reports the server's CPU per GB.
 */
final class TcpBaseline {

    private static final int MAGIC = 0x49575443; // "IWTC"
    private static final int STREAM = 0;
    private static final int PING_PONG = 1;
    private static final int DONE = 2;
    private static final int HEADER = 16;
    static final int REPLY = 40;

    private final PerfConfig config;
    private final PrintWriter out;
    private PrintWriter notes = new PrintWriter(System.err, true);

    TcpBaseline(PerfConfig config, PrintWriter out) {
        LeakDetection.offUnlessConfigured();
        this.config = config;
        this.out = out;
    }

    /** Where notes on a measurement go ({@link PerfReport#jitNote}): the command's standard error. */
    TcpBaseline notesTo(PrintWriter err) {
        this.notes = err;
        return this;
    }

    /** The transport {@code config} names, or the default: epoll where available, else NIO. */
    static Transport transport(PerfConfig config) {
        return NettyVerbs.resolve(config.stack().transport());
    }

    private EventLoopGroup group(String name) {
        return NettyVerbs.newEventLoopGroup(config.stack().transport(), 1, config.stack().busyPoll(),
                new DefaultThreadFactory(name, true));
    }

    private Class<? extends ServerChannel> serverChannel() {
        return NettyVerbs.serverChannel(config.stack().transport());
    }

    private Class<? extends Channel> socketChannel() {
        return NettyVerbs.socketChannel(config.stack().transport());
    }

    // ------------------------------------------------------------------ server

    /** Serves clients until one sends DONE; returns the bound port through {@code bound}. */
    void server(InetSocketAddress bind, CompletableFuture<Integer> bound, boolean quiet) throws Exception {
        EventLoopGroup group = group("iwarp-tcp-server");
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            Channel listener = new ServerBootstrap().group(group, group)
                    .channel(serverChannel())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, config.stack().waterMark())
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            config.stack().tune(ch);
                            ch.pipeline().addLast(new ServerHandler(done));
                        }
                    }).bind(bind).sync().channel();
            bound.complete(((InetSocketAddress) listener.localAddress()).getPort());
            if (!quiet) {
                PerfReport.waitingForClient(out);
            }
            done.get();
            listener.close().sync();
        } catch (Exception e) {
            bound.completeExceptionally(e);
            throw e;
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static final class ServerHandler extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<Void> done;
        private ByteBuf pending;
        private int mode = -1;
        private int size;
        private long received;
        private long warmupBytes;
        private CpuClock.Sample cpuAtWarm;

        ServerHandler(CompletableFuture<Void> done) {
            this.done = done;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            if (mode == STREAM) {
                received += in.readableBytes();
                in.release();
                warmedUp();
                return;
            }
            if (pending == null) {
                pending = ctx.alloc().buffer();
            }
            pending.writeBytes(in);
            in.release();
            if (mode < 0) {
                if (pending.readableBytes() < HEADER) {
                    return;
                }
                if (pending.readInt() != MAGIC) {
                    ctx.close();
                    return;
                }
                mode = pending.readInt();
                size = pending.readInt();
                warmupBytes = (long) size * pending.readInt();
                if (mode == DONE) {
                    ctx.close();
                    done.complete(null);
                    return;
                }
                if (mode == STREAM) {
                    received = pending.readableBytes();
                    pending.release();
                    pending = null;
                    warmedUp();
                    return;
                }
            }
            boolean wrote = false;
            while (pending.readableBytes() >= size) {
                ctx.write(pending.readRetainedSlice(size));
                wrote = true;
            }
            pending.discardReadBytes();
            if (wrote) {
                ctx.flush();
            }
        }

        /** Takes the CPU reading the measurement starts from once the warm-up's octets are in. */
        private void warmedUp() {
            if (cpuAtWarm == null && received >= warmupBytes) {
                cpuAtWarm = CpuClock.now();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                CpuClock.Sample end = CpuClock.now();
                CpuClock.Sample from = cpuAtWarm != null ? cpuAtWarm : end;
                ByteBuf reply = ctx.alloc().buffer(REPLY).writeLong(received).writeLong(from.cpuNanos())
                        .writeLong(from.userNanos()).writeLong(end.cpuNanos()).writeLong(end.userNanos());
                ctx.writeAndFlush(reply).addListener(ChannelFutureListener.CLOSE);
            }
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (pending != null) {
                pending.release();
                pending = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    // ------------------------------------------------------------------ client

    /** The client's run against {@code server}: every size; returns its report, ended (results and JSON). */
    PerfReport client(InetSocketAddress server) throws Exception {
        EventLoopGroup group = group("iwarp-tcp-client");
        PerfReport report = new PerfReport(out, config).notesTo(notes);
        report.probeMachine();
        List<String> parameters = List.of(
                String.format("Transport type  : TCP (Netty %s, TCP_NODELAY, one event loop per end%s)",
                        transport(config), config.stack().describeLoops()),
                config.latency() ? "Mode            : ping-pong, t = half the round trip (perftest's ib_*_lat)"
                        : "Mode            : stream of SIZE-octet writes, at most " + config.txDepth()
                        + " not yet taken by the socket (-t), flushed once per turn of the loop",
                "Connections     : " + config.qps() + (config.qps() > 1 ? " (-q), on the one event loop" : ""),
                config.durationMode() ? "Duration        : " + config.durationSeconds() + " s per size, "
                        + config.measuredSeconds() + " s measured after a margin of " + config.marginSeconds()
                        + " s (-f)"
                        : "Iterations      : " + config.iterations() + " per size"
                                + (config.qps() > 1 ? " and connection" : ""),
                config.warmsByTime() ? "Warm-up         : the margin, " + config.marginSeconds() + " s per size (-f),"
                        + " in unmeasured " + Rehearsals.describe() + ", then "
                        + config.warmupPerQp() + " operations" : "Warm-up         : "
                        + config.warmupPerQp() + " operations per size" + (config.qps() > 1 ? " and connection" : "")
                        + ", not measured",
                "remote address  : " + server);
        PerftestFormat.TestInfo info = new PerftestFormat.TestInfo(PerfVerb.TCP, config.latency(), false, true,
                config.qps(), config.latency() ? 1 : config.txDepth(), 0, 0, 0, "TCP");
        List<String> block = new ArrayList<>(List.of(" ".repeat(20) + String.join(" ", info.nameWords())));
        parameters.forEach(p -> block.add(" " + p));
        report.header(info, block, List.of(), List.of());
        try (ProgressLine progress = ProgressLine.startIf(config.progress(), config.title())) {
            for (int size : config.sizes()) {
                if (config.warmsByTime()) { // the margin, unmeasured, each piece a run of its own connections
                    Rehearsals.of(config.marginSeconds(),
                            nanos -> run(group, server, size, () -> MeasuredSpan.tcpMargin(config, nanos), null));
                }
                report.line(run(group, server, size, () -> MeasuredSpan.tcp(config), progress));
            }
            ClientHandler bye = new ClientHandler(0, null, null, null);
            bye.mode = DONE;
            connect(group, server, bye).closeFuture().await(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        report.end(parameters);
        return report;
    }

    /** One run of {@code size}, each connection in the phases of a span of {@code spans}. */
    private PerfResult run(EventLoopGroup group, InetSocketAddress server, int size, Supplier<MeasuredSpan> spans,
                           ProgressLine progress) throws Exception {
        int n = config.latency() ? 1 : config.qps();
        StreamRun run = config.latency() ? null : new StreamRun(size, n, progress);
        List<Channel> channels = new ArrayList<>();
        ClientHandler first = null;
        for (int i = 0; i < n; i++) {
            ClientHandler h = new ClientHandler(size, spans.get(), progress, run);
            first = first == null ? h : first;
            if (run != null) {
                run.handlers.add(h);
            }
            channels.add(connect(group, server, h));
        }
        long longest = Math.max(config.durationSeconds(), config.marginSeconds()); // -f with -n may be the longer
        PerfResult r = first.result.get(Math.max(120, 3 * longest + 60), TimeUnit.SECONDS);
        for (Channel ch : channels) {
            ch.closeFuture().await(10, TimeUnit.SECONDS);
        }
        return r;
    }

    private Channel connect(EventLoopGroup group, InetSocketAddress server, ClientHandler h) throws Exception {
        var f = new Bootstrap().group(group)
                .channel(socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, config.stack().waterMark())
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        config.stack().tune(ch);
                        ch.pipeline().addLast(h);
                    }
                }).connect(server).await();
        if (!f.isSuccess()) {
            throw new PerfFailure("cannot connect to " + server + ": " + f.cause());
        }
        return f.channel();
    }

    /**
     * One size of the stream test over {@code -q} connections, all on the client's one event loop (so nothing here
     * is shared between threads): each connection warms up; once all have, they stream together, measured as one
     * (the sum of their writes) and each (the slowest and the fastest); the CPU time runs from the start of that to
     * the last write, and the server's from its first connection's warm-up to its last half-close.
     */
    private final class StreamRun {
        final CompletableFuture<PerfResult> result = new CompletableFuture<>();
        final List<ClientHandler> handlers = new ArrayList<>();
        private final int size;
        private final int connections;
        private final ProgressLine progress;
        private final BandwidthMeter meter = new BandwidthMeter();
        private int warm;
        private int finished;
        private int replies;
        private long completed;
        private CpuClock.Sample cpuStart;
        private CpuClock.Sample cpuEnd;
        private CpuClock.Sample serverFrom;
        private CpuClock.Sample serverTo;

        StreamRun(int size, int connections, ProgressLine progress) {
            this.size = size;
            this.connections = connections;
            this.progress = progress;
        }

        /** A connection's warm-up is over; the last one starts the measurement on all. */
        void warmedUp() {
            if (++warm == connections) {
                long now = System.nanoTime();
                meter.start(now);
                cpuStart = CpuClock.now();
                for (ClientHandler h : handlers) {
                    h.measure(now);
                }
            }
        }

        /** A measured write completed. */
        void written(long now) {
            completed++;
            meter.record(now, completed);
            if (progress != null && (completed & 0xFF) == 0) {
                progress.update(completed, completed * size);
            }
        }

        /** A connection wrote all it measures. */
        void finishedWriting() {
            if (++finished == connections) {
                cpuEnd = CpuClock.now();
            }
        }

        /** A connection's server reply: the octets it received and its process CPU readings. */
        void replied(CpuClock.Sample from, CpuClock.Sample to) {
            serverFrom = serverFrom == null ? from : new CpuClock.Sample(Math.min(serverFrom.cpuNanos(),
                    from.cpuNanos()), Math.min(serverFrom.userNanos(), from.userNanos()));
            serverTo = serverTo == null ? to : new CpuClock.Sample(Math.max(serverTo.cpuNanos(), to.cpuNanos()),
                    Math.max(serverTo.userNanos(), to.userNanos()));
            if (++replies < connections) {
                return;
            }
            long[] each = new long[connections];
            for (int i = 0; i < connections; i++) {
                each[i] = handlers.get(i).done;
            }
            PerfResult r = PerfResult.bandwidth(size, meter)
                    .withSpread(PerfResult.QpSpread.of(each, meter.elapsedNanos()));
            List<CpuUse> cpu = new ArrayList<>(List.of(cpuEnd.since(cpuStart, config.cpuEnd(), r.bytes())));
            if (!config.loopback()) {
                cpu.add(serverTo.since(serverFrom, CpuUse.SERVER, r.bytes()));
            }
            result.complete(r.withCpu(cpu));
        }
    }

    /** Drives one connection of a size on the client's event loop: a warm-up, then the measured stream or ping-pong. */
    private final class ClientHandler extends ChannelInboundHandlerAdapter {
        final CompletableFuture<PerfResult> result;
        private final int size;
        /** The warm-up and the measured part, each ended here ({@link MeasuredSpan#next}); null for DONE. */
        private final MeasuredSpan span;
        private final ProgressLine progress;
        private final StreamRun run;
        int mode;
        private ByteBuf data;
        private ChannelHandlerContext ctx;
        private final LatencyMeter latency;
        private final ChannelFutureListener onWritten = f -> written();
        private final Runnable refill = this::refill;
        private boolean refillScheduled;
        /** The current phase's writes or pings, and those of them completed. */
        private long sent;
        private long done;
        /** Warm, waiting for the run's other connections to be. */
        private boolean waiting;
        private boolean finishing;
        private boolean answered;
        private long pongBytes;
        private long pingStart;
        /** The server's stream reply ({@link #REPLY} octets), gathered. */
        private ByteBuf reply;

        ClientHandler(int size, MeasuredSpan span, ProgressLine progress, StreamRun run) {
            this.size = size;
            this.span = span;
            this.progress = progress;
            this.run = run;
            this.result = run != null ? run.result : new CompletableFuture<>();
            this.mode = config.latency() ? PING_PONG : STREAM;
            this.latency = run == null ? new LatencyMeter(true) : null;
        }

        @Override
        public void channelActive(ChannelHandlerContext c) {
            ctx = c;
            ByteBuf header = c.alloc().buffer(HEADER).writeInt(MAGIC).writeInt(mode).writeInt(size)
                    .writeInt((int) config.warmupPerQp());
            c.writeAndFlush(header);
            if (mode == DONE) {
                c.close();
                return;
            }
            data = ByteBufAllocator.DEFAULT.directBuffer(size);
            data.writeZero(size);
            nextPhase(System.nanoTime()); // the warm-up
            if (mode == STREAM) {
                pump();
            } else {
                ping();
            }
        }

        /** The span's next phase begins at {@code now}, its operations counted from 0. */
        private void nextPhase(long now) {
            sent = 0;
            done = 0;
            span.next(now, 0);
        }

        private boolean warming() {
            return span.phase() == MeasuredSpan.Phase.WARM_UP;
        }

        /** Whether the current phase wants another operation. */
        private boolean more() {
            return span.due(System.nanoTime(), sent);
        }

        /** After the warm-up: the measured run (ping-pong: at once; stream: when every connection is warm). */
        private void endWarmup() {
            if (run != null) {
                waiting = true;
                run.warmedUp();
            } else {
                nextPhase(System.nanoTime());
            }
        }

        /** The stream's measured writes, from {@code start} (the same for every connection of the run). */
        void measure(long start) {
            waiting = false;
            nextPhase(start);
            pump();
        }

        /**
         * Writes while the channel is writable, the phase wants more and fewer than {@code -t} writes wait for the
         * socket, then flushes them at once: what the iWARP tests' transmit pump does with their send queue, whose
         * Writes complete when the socket has taken them, as these writes' promises do. Without the limit the
         * stream's depth would be the outbound buffer's (1,600 writes of 64 octets in 256 KiB) and the baseline a
         * deeper workload than the iWARP test beside it; flushing every 16 writes instead cost it half its rate at
         * 64 octets.
         */
        private void pump() {
            boolean idle = done == sent; // nothing in flight: no completion to come
            while (ctx.channel().isWritable() && more() && sent - done < config.txDepth()) {
                ctx.write(data.retainedDuplicate(), ctx.newPromise().addListener(onWritten));
                sent++;
                idle = false;
            }
            if (idle && !waiting && !finishing && !more()) {
                endPhase(); // the phase's time ran out with nothing in flight: no write's completion will end it
                return;
            }
            ctx.flush(); // may complete the writes at once, and their last one end the phase (written)
        }

        /** Every write of the phase has completed and it wants no more: the warm-up's or the stream's end. */
        private void endPhase() {
            if (warming()) {
                endWarmup();
            } else if (!finishing) {
                finishing = true;
                run.finishedWriting();
                ((DuplexChannel) ctx.channel()).shutdownOutput(); // the server answers with its count
            }
        }

        private void written() {
            done++;
            if (!refillScheduled && mode == STREAM && !finishing && !waiting) {
                // the writes a flush completed make room under -t: refilled once all their promises have run, as
                // the iWARP client re-posts a burst of completions at once
                refillScheduled = true;
                ctx.executor().execute(refill);
            }
            boolean warming = warming();
            if (!warming) {
                run.written(System.nanoTime());
            }
            if (done == sent && !more()) {
                endPhase();
            }
        }

        private void refill() {
            refillScheduled = false;
            if (mode == STREAM && !finishing && !waiting && ctx.channel().isActive()) {
                pump();
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext c) {
            if (mode == STREAM && c.channel().isWritable() && !finishing && !waiting) {
                pump();
            }
        }

        private void ping() {
            pingStart = System.nanoTime();
            pongBytes = 0;
            ctx.writeAndFlush(data.retainedDuplicate());
            sent++;
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (mode == STREAM) {
                    if (finishing) {
                        streamReply(in);
                    }
                    return;
                }
                pongBytes += in.readableBytes();
            } finally {
                in.release();
            }
            if (pongBytes < size) {
                return;
            }
            long now = System.nanoTime();
            done++;
            boolean warming = warming();
            if (!warming) {
                latency.record(now - pingStart);
                if (progress != null) {
                    progress.update(done, done * size);
                }
            }
            if (more()) {
                ping();
            } else if (warming) {
                endWarmup();
                ping();
            } else {
                answered = true;
                span.next(now, done); // the measured span ends with its last pong
                result.complete(PerfResult.latency(size, latency, span.measuredNanos()));
                ctx.close();
            }
        }

        /** The server's count and CPU readings: the end of this connection's part of a bandwidth run. */
        private void streamReply(ByteBuf in) {
            if (reply == null) {
                reply = ctx.alloc().buffer(REPLY);
            }
            reply.writeBytes(in, Math.min(in.readableBytes(), reply.writableBytes()));
            if (reply.readableBytes() < REPLY || answered) {
                return;
            }
            answered = true;
            long got = reply.readLong();
            CpuClock.Sample serverFrom = new CpuClock.Sample(reply.readLong(), reply.readLong());
            CpuClock.Sample serverTo = new CpuClock.Sample(reply.readLong(), reply.readLong());
            long expected = (config.warmupPerQp() + done) * size;
            if (got < expected) {
                result.completeExceptionally(new PerfFailure("the server received " + got + " of " + expected
                        + " octets"));
            }
            run.replied(serverFrom, serverTo);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
            if (!answered) {
                result.completeExceptionally(new PerfFailure("the TCP connection closed before the run ended"));
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext c) {
            if (data != null) {
                data.release();
                data = null;
            }
            if (reply != null) {
                reply.release();
                reply = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            result.completeExceptionally(cause);
            c.close();
        }
    }

    /** Both ends in this JVM over loopback; returns the client's report. */
    PerfReport loopback() throws Exception {
        CompletableFuture<Integer> bound = new CompletableFuture<>();
        CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
            try {
                server(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), bound, true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        int port = Stacks.get(bound, 30);
        PerfReport report = client(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Stacks.get(served, 30);
        return report;
    }
}
