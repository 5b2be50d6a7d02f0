package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.netty.FpduEncoder;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.stream.RdmapStreamState;
import org.iwarp4j.rdmap.stream.RtrType;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one verbs handler of a connection's pipeline, above MPA's FPDU codec:
 * {@code [PcapWriteHandler] → MpaStartupHandler (→ FpduDecoder/FpduEncoder) → QueuePairHandler}.
 *
 * <p>A thin adapter: it creates the {@link RdmapStream} when MPA reaches Full Operation, feeds it every
 * ULPDU, pulls segments while the channel is writable (backpressure: nothing queues below RDMAP beyond
 * Netty's watermarks), tells it when a batch of segments was written to the socket (so Sends and Writes
 * complete only then), and turns connection life into CM events. Protocol state lives in the stream and
 * in {@link QueuePairEngine}; this class keeps only the adapter's own state (pumping, closing).
 */
final class QueuePairHandler extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(QueuePairHandler.class);

    enum Role { INITIATOR, RESPONDER }

    private enum Closing { NONE, GRACEFUL, TERMINATE, ABORT }

    private final RnicImpl rnic;
    private final Role role;
    private final Duration disconnectTimeout;
    private final PeerAccommodations peer;
    private final CmEventListener events;
    private final ListenerImpl listener;
    private final java.util.function.Predicate<byte[]> replyPrivateDataCheck;
    private final CompletableFuture<Void> disconnected = new CompletableFuture<>();

    private QueuePairImpl qp;
    private CompletableFuture<Connection> established;
    private ChannelHandlerContext ctx;
    private FpduEncoder encoder;
    private TransmitPump pump;
    private QueuePairEngine engine;
    private RdmapStream stream;
    private ConnectionImpl connection;
    private ConnectionRequestImpl request;
    private ScheduledFuture<?> timer;
    /** How long, after our Terminate and FIN, the peer has to close its side before we close ours. */
    static final Duration TERMINATE_LINGER = Duration.ofSeconds(1);

    private Closing closing = Closing.NONE;
    private boolean gracefulFinishing;
    private boolean transportError;
    private boolean announced;
    /** Something arrived from the peer after Full Operation. */
    private boolean receivedAny;
    private boolean nudgeArmed;

    /** An Initiator's handler for {@code qp}, connecting with {@code options}; {@code result} completes at ESTABLISHED. */
    QueuePairHandler(RnicImpl rnic, QueuePairImpl qp, CompletableFuture<Connection> result, ConnectOptions options) {
        this.rnic = rnic;
        this.replyPrivateDataCheck = options.replyPrivateDataCheck();
        this.role = Role.INITIATOR;
        this.qp = qp;
        this.established = result;
        this.disconnectTimeout = options.disconnectTimeout();
        this.peer = PeerAccommodations.of(options);
        this.events = options.eventListener();
        this.listener = null;
    }

    /** A Responder's handler: the queue pair comes with {@link #accepting}. */
    QueuePairHandler(RnicImpl rnic, ListenerImpl listener) {
        this.rnic = rnic;
        this.role = Role.RESPONDER;
        this.listener = listener;
        this.disconnectTimeout = listener.options().disconnectTimeout();
        this.peer = PeerAccommodations.of(listener.options());
        this.events = listener.options().eventListener();
        this.replyPrivateDataCheck = null;
    }

    QueuePairImpl queuePair() {
        return qp;
    }

    ChannelHandlerContext context() {
        return ctx;
    }

    CompletableFuture<Void> disconnectedFuture() {
        return disconnected;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext c) {
        this.ctx = c;
    }

    // ------------------------------------------------------------------ MPA startup

    @Override
    public void userEventTriggered(ChannelHandlerContext c, Object evt) throws Exception {
        if (evt instanceof MpaEstablishedEvent e) {
            onEstablished(e.parameters(), (FpduEncoder) e.sender());
        } else if (evt instanceof MpaConnectRequest r) {
            onConnectRequest(r);
        } else if (evt instanceof MpaRejectedEvent r) {
            onRejected(r.rejection());
        } else if (evt instanceof MpaStartupFailedEvent f) {
            onStartupFailed(f);
        } else {
            c.fireUserEventTriggered(evt);
        }
    }

    private void onConnectRequest(MpaConnectRequest mpaRequest) {
        request = new ConnectionRequestImpl(this, mpaRequest, ctx.channel(), listener);
        fire(CmEvent.CONNECT_REQUEST, null, null);
        // Reject an unanswered request before the MPA startup timeout ends it silently (siw reports
        // REJECTED rather than UNREACHABLE then).
        long nanos = listener.options().mpaStartupTimeout().toNanos() * 4 / 5;
        timer = ctx.executor().schedule(() -> request.rejectUnanswered(), nanos, TimeUnit.NANOSECONDS);
        listener.dispatch(request);
    }

    /** On the loop, before MPA accepts: the queue pair that will run this connection. */
    void accepting(QueuePairImpl acceptedQp, CompletableFuture<Connection> result) {
        cancelTimer();
        this.qp = acceptedQp;
        this.established = result;
    }

    private void onEstablished(MpaParameters params, FpduEncoder fpduEncoder) {
        if (qp == null) {
            LOG.warn("MPA established without a queue pair; closing");
            ctx.close();
            return;
        }
        if (role == Role.INITIATOR && !replyPrivateDataCheck.test(params.peerPrivateData())) {
            // RFC 5044 §7.1.2 rule 3 (MPA-37): private data not acceptable -> leave MPA, send nothing; the
            // connection manager (the ULP of MPA here) then closes the TCP connection.
            failEstablishment(new ConnectionFailedException(CmEvent.CONNECT_ERROR,
                    "the private data of the MPA Reply was not accepted (" + params.peerPrivateData().length
                            + " octets)", null));
            ctx.close();
            return;
        }
        encoder = fpduEncoder;
        TransmitPump.Segments segments = new TransmitPump.Segments(fpduEncoder, ctx.voidPromise());
        int ird = Math.min(params.ird(), RdmapStreamConfig.MAX_READ_DEPTH);
        int ord = Math.min(params.ord(), RdmapStreamConfig.MAX_READ_DEPTH);
        // The stream identity names the stream in the RDMAP frame log ("[qp3 /127.0.0.1:41234] >> SEND ...").
        Object identity = new StreamName("qp" + qp.number() + " " + ctx.channel().remoteAddress());
        RdmapStreamConfig config = new RdmapStreamConfig(ird, ord, qp.config().rfc7306(), qp.pd().number(), identity,
                qp.config().maxSendWr(), qp.receiveDepth(), peer.terminateLayout());
        engine = new QueuePairEngine(qp, config, segments, new StreamEvents(), this::requestPump);
        stream = engine.stream();
        pump = new TransmitPump(ctx, segments, stream, new PumpControl());
        connection = new ConnectionImpl(this, qp, params, ctx.channel());
        qp.connection(connection);
        if (params.requiredTerminate() != null) {
            // RFC 6581 §9.1 / §9.3 (MPA-69, MPA-74): the Initiator's first FPDU is this Terminate.
            MpaError code = params.requiredTerminate();
            stream.abort(code == MpaError.INSUFFICIENT_IRD ? TerminateCause.MPA_INSUFFICIENT_IRD
                    : TerminateCause.MPA_NO_MATCHING_RTR, code.description());
            failEstablishment(new ConnectionFailedException(CmEvent.CONNECT_ERROR, "MPA negotiation: " + code, null));
            pump();
            return;
        }
        if (role == Role.INITIATOR && params.rtr() != null) {
            // RFC 6581 §5 / §9.3 (MPA-74, MPA-75): the RTR goes first; ESTABLISHED once it is handed to MPA.
            stream.sendRtr(RtrType.valueOf(params.rtr().name()));
            qp.start(engine);
            pump();
            return;
        }
        if (role == Role.RESPONDER && params.peerToPeer()) {
            // RFC 6581 §9.3: the Initiator picks one of the mutually supported RTRs; none consumes a user receive.
            java.util.EnumSet<RtrType> possible = java.util.EnumSet.noneOf(RtrType.class);
            params.rtrTypes().forEach(r -> possible.add(RtrType.valueOf(r.name())));
            if (!possible.isEmpty()) {
                stream.expectRtr(possible);
            }
        }
        qp.start(engine);
        announceEstablished();
        pump();
    }

    void rtrSent() {
        announceEstablished();
    }

    private void announceEstablished() {
        if (announced) {
            return;
        }
        announced = true;
        qp.state(QueuePairState.RTS);
        fire(CmEvent.ESTABLISHED, connection, null);
        established.complete(connection);
    }

    private void onRejected(MpaRejection rejection) {
        if (role == Role.RESPONDER) {
            if (request == null) {
                // MPA rejected the Request itself before any user saw it: RFC 6581 §9.1, the Initiator's IRD
                // is below the ORD this listener requires (the Reply carries that ORD). Tell the listener's
                // user, as librdmacm reports a reject, and close once the Reply is out.
                EnhancedConnectionData q = rejection.request().enhancedData();
                fire(CmEvent.REJECTED, null, new ConnectionRejectedException("rejected the connection request from "
                        + ctx.channel().remoteAddress() + ": its IRD " + (q == null ? "?" : q.ird())
                        + " is below the required ORD " + rejection.responderOrd() + " (RFC 6581 §9.1)",
                        rejection.replyPrivateData(), rejection.responderIrd(), rejection.responderOrd()));
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
            return; // we rejected; ConnectionRequestImpl closes once the Reply is written
        }
        qp.flushUnstarted();
        ConnectionRejectedException e = new ConnectionRejectedException("the peer rejected the connection"
                + (rejection.reason() != null ? " (" + rejection.reason() + ")" : ""), rejection.replyPrivateData(),
                rejection.responderIrd(), rejection.responderOrd());
        qp.stateError();
        fire(CmEvent.REJECTED, null, e);
        established.completeExceptionally(e);
        ctx.close();
    }

    private void onStartupFailed(MpaStartupFailedEvent failed) {
        cancelTimer();
        CmEvent event = failed.reason() == MpaStartupFailedEvent.Reason.TIMEOUT ? CmEvent.UNREACHABLE
                : CmEvent.CONNECT_ERROR;
        failEstablishment(new ConnectionFailedException(event, "MPA startup failed: " + failed.reason() + ", "
                + failed.cause().getMessage(), failed.cause()));
        ctx.close();
    }

    private void failEstablishment(ConnectionFailedException e) {
        if (established == null || established.isDone()) {
            return;
        }
        if (qp != null) {
            qp.stateError();
            qp.flushUnstarted();
        }
        fire(e.event(), null, e);
        established.completeExceptionally(e);
    }

    // ------------------------------------------------------------------ data path

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (stream != null && msg instanceof ByteBuf ulpdu) {
            receivedAny = true;
            stream.receive(ulpdu);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        pump();
        c.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) {
        if (c.channel().isWritable()) {
            pump();
        }
        c.fireChannelWritabilityChanged();
    }

    /** The engine has something to send. */
    void requestPump() {
        if (pump != null) {
            pump.request();
        }
    }

    private void pump() {
        if (pump != null) {
            pump.pump();
        }
    }

    /** Interim: the pump's questions, answered from the handler's flags as before. */
    private final class PumpControl implements TransmitPump.Control {
        @Override
        public boolean finishingMessageOnly() {
            return closing == Closing.GRACEFUL;
        }

        @Override
        public void gracefulDrainFinished() {
            if (!gracefulFinishing) {
                finishGraceful();
            }
        }

        @Override
        public void transmitHeld() {
            if (stream.state() != RdmapStreamState.OPERATIONAL && closing == Closing.NONE) {
                // RFC 5044 §7.1.2 rule 4 (MPA-38): a Responder sends no FPDU before it validated one, so an
                // error found before that (e.g. the first FPDU fails its CRC) closes without a Terminate.
                closing = Closing.TERMINATE;
                ctx.close();
            }
        }

        @Override
        public void fpdusFlushed() {
            armNudge();
        }
    }

    /**
     * Our Terminate is written: the connection ends (RFC 5040 §5.4). We half-close (FIN after the Terminate),
     * read and drop what the peer still sends until it closes its side, and close then, or after
     * {@link #TERMINATE_LINGER} (at most the disconnect timeout) if it does not. Closing at once would make
     * the kernel answer the peer's FPDUs still unread here with RST instead of FIN, and a peer whose stack
     * drops received data on RST would lose our Terminate (interop/FINDINGS.md O1).
     */
    private void closeAfterTerminate() {
        if (!(ctx.channel() instanceof DuplexChannel d) || !d.isActive() || d.isOutputShutdown()) {
            ctx.close();
            return;
        }
        d.shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) {
                ctx.close();
            }
        });
        cancelTimer();
        long linger = Math.min(disconnectTimeout.toNanos(), TERMINATE_LINGER.toNanos());
        timer = ctx.executor().schedule(() -> ctx.close(), linger, TimeUnit.NANOSECONDS);
    }

    /**
     * Initiator with a first-FPDU nudge: once our first FPDUs are on their way, if the peer stays silent for
     * the nudge time, one zero-length RDMA Write follows them (interop/FINDINGS.md M15: a Linux siw
     * Responder may leave an FPDU that arrived between its Reply and the switch of its socket to the queue
     * pair unread until more octets arrive; a zero-length tagged segment is never checked and delivers
     * nothing, RFC 5041 §5.2 [DDP-20], RFC 5040 §5.1).
     */
    private void armNudge() {
        if (nudgeArmed || !peer.nudges() || receivedAny) {
            return;
        }
        nudgeArmed = true;
        ctx.executor().schedule(this::nudge, peer.firstFpduNudge().toNanos(), TimeUnit.NANOSECONDS);
    }

    private void nudge() {
        if (receivedAny || closing != Closing.NONE || !ctx.channel().isActive() || stream == null
                || stream.state() != RdmapStreamState.OPERATIONAL) {
            return;
        }
        if (stream.sendZeroLengthWrite()) {
            LOG.info("{}: nothing arrived within {} ms of our first FPDU: sent a zero-length RDMA Write (first-FPDU"
                    + " nudge; Linux siw accept race, interop FINDINGS M15)", ctx.channel(), peer.firstFpduNudge().toMillis());
            pump();
        }
    }

    // ------------------------------------------------------------------ Terminates and errors

    /** Interim: the engine's lifecycle events, as the handler took them before. */
    private final class StreamEvents implements QueuePairEngine.Lifecycle {
        @Override
        public void rtrSent() {
            QueuePairHandler.this.rtrSent();
        }

        @Override
        public void rdmapFailed(org.iwarp4j.rdmap.terminate.Terminate queued) {
        }

        @Override
        public void terminateSent(org.iwarp4j.rdmap.terminate.Terminate terminate) {
            terminateWritten(terminate);
        }

        @Override
        public void terminateReceived(org.iwarp4j.rdmap.terminate.Terminate terminate) {
            QueuePairHandler.this.terminateReceived();
        }
    }

    /** Our Terminate was handed to MPA: close once it is written (RFC 5040 §6.2.1, siw-interop §F). */
    void terminateWritten(org.iwarp4j.rdmap.terminate.Terminate terminate) {
        closing = Closing.TERMINATE;
        pump.afterNextFlush(this::closeAfterTerminate);
        if (!announced) {
            // e.g. RFC 6581 §9.3 (MPA-76): a local error before the RTR went out
            failEstablishment(new ConnectionFailedException(CmEvent.CONNECT_ERROR,
                    "the connection failed during setup; sent Terminate " + terminate.describe(), null));
        }
    }

    /** The peer's Terminate: nothing more will be sent; close (RFC 5040 §5.4). */
    void terminateReceived() {
        closing = Closing.TERMINATE;
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        if (cause instanceof MpaException e && stream != null) {
            if (acceptUnverifiedSetupTerminate(e)) {
                return;
            }
            TerminateCause tc = switch (e.error()) {
                case CRC_ERROR -> TerminateCause.MPA_CRC_ERROR;
                case MARKER_MISMATCH -> TerminateCause.MPA_MARKER_MISMATCH;
                default -> null;
            };
            if (tc != null) {
                // RFC 5044 §8 (MPA-45): MPA leaves TCP open so that RDMAP can send its Terminate.
                stream.abort(tc, e.detail());
                pump();
                return;
            }
            c.close();
            return;
        }
        if (cause instanceof IOException) {
            // siw-interop §A: a reset is a normal way for a peer to disconnect.
            if (!TcpResets.isPeerReset(cause)) {
                transportError = true;
            }
            LOG.debug("connection {}: {}", c.channel(), cause.toString());
            c.close();
            return;
        }
        LOG.warn("unexpected error on {}", c.channel(), cause);
        if (stream != null && stream.state() == RdmapStreamState.OPERATIONAL) {
            stream.abort(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, cause.toString());
            pump();
        } else {
            c.close();
        }
    }

    /** FINDINGS M17: Linux siw's setup Terminate without CRC, see {@link PeerAccommodations}. */
    private boolean acceptUnverifiedSetupTerminate(MpaException e) {
        MpaException.UnverifiedFpdu f = e.unverifiedFpdu();
        if (receivedAny || !peer.takesAsSetupTerminate(f)) {
            return false;
        }
        byte[] u = f.ulpdu();
        LOG.info("{}: the peer's first FPDU failed its CRC with a zero CRC field and is a Terminate: taken as the"
                + " peer's Terminate (Linux siw sends its setup Terminate without CRC, interop FINDINGS M17)",
                ctx.channel());
        receivedAny = true;
        stream.receive(ctx.alloc().buffer(u.length).writeBytes(u));
        pump();
        return true;
    }

    void completionQueueOverflowed() {
        ChannelHandlerContext c = ctx;
        if (c == null) {
            return;
        }
        c.executor().execute(() -> {
            if (stream != null && stream.state() == RdmapStreamState.OPERATIONAL) {
                qp.fireAsync(new AsyncEvent(AsyncEvent.Type.COMPLETION_QUEUE_OVERFLOW, qp, null,
                        "a completion queue of this queue pair overflowed"));
                stream.abort(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "completion queue overflow");
                pump();
            }
        });
    }

    // ------------------------------------------------------------------ disconnect

    /** Graceful disconnect (any thread). */
    CompletableFuture<Void> disconnect() {
        ctx.executor().execute(() -> {
            if (closing != Closing.NONE || !ctx.channel().isActive()) {
                return;
            }
            closing = Closing.GRACEFUL;
            if (qp != null) {
                qp.state(QueuePairState.CLOSING);
            }
            timer = ctx.executor().schedule(this::abortNow, disconnectTimeout.toNanos(), TimeUnit.NANOSECONDS);
            if (stream == null || encoder == null || encoder.holding()) {
                finishGraceful();
            } else {
                pump();
            }
        });
        return disconnected;
    }

    /** The message in progress is finished and handed to MPA: once written, flush everything and close. */
    private void finishGraceful() {
        gracefulFinishing = true;
        io.netty.channel.ChannelFuture written = pump != null ? pump.flushAll() : ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        written.addListener(f -> {
            if (qp != null) {
                qp.stateError();
            }
            if (stream != null) {
                engine.completions().ending(Completions.Ending.DISCONNECT);
                stream.close();
            }
            ctx.close();
        });
    }

    /** Abortive close (any thread): TCP reset, everything flushed. */
    void abort() {
        ChannelHandlerContext c = ctx;
        if (c == null) {
            return;
        }
        c.executor().execute(this::abortNow);
    }

    private void abortNow() {
        if (closing == Closing.ABORT || !ctx.channel().isOpen()) {
            return;
        }
        closing = Closing.ABORT;
        if (qp != null) {
            qp.stateError();
        }
        if (stream != null) {
            engine.completions().ending(Completions.Ending.DISCONNECT);
            stream.close();
        }
        try {
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        } catch (RuntimeException e) {
            LOG.debug("SO_LINGER 0 not set: {}", e.toString());
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        cancelTimer();
        if (qp != null) {
            qp.stateError(); // before the flush completions, so that whoever sees them sees ERROR
        }
        // RFC 5044 §8 code 0x01 (MPA-43, DDP-33): the peer's FIN or RST, or a TCP failure, that ends the
        // connection between FPDUs reaches RDMAP and the user as the LLP error 0x2/0x0/0x01. Not when this
        // side closed (disconnect, abort, after a Terminate).
        MpaException lost = stream != null && closing == Closing.NONE && stream.state() == RdmapStreamState.OPERATIONAL
                ? new MpaException(MpaError.TCP_CONNECTION_LOST, transportError ? "the TCP connection failed"
                        : "the peer closed the TCP connection (FIN or RST)") : null;
        if (stream != null) {
            engine.completions().ending(transportError && closing == Closing.NONE ? Completions.Ending.TRANSPORT
                    : Completions.Ending.DISCONNECT);
            if (closing == Closing.NONE && transportError) {
                qp.fireAsync(new AsyncEvent(AsyncEvent.Type.CONNECTION_LOST, qp, engine.completions().terminate(),
                        "TCP connection lost"));
            }
            // RFC 5044 §8 code 0x01: nothing can be sent any more; outstanding work is flushed.
            stream.connectionLost(lost != null ? lost : new ClosedChannelException());
            stream.close();
        }
        if (established != null && !established.isDone()) {
            failEstablishment(new ConnectionFailedException(CmEvent.CONNECT_ERROR, "the connection closed", null));
        }
        if (announced) {
            fire(CmEvent.DISCONNECTED, connection, lost);
            fire(CmEvent.TIMEWAIT_EXIT, connection, null);
        }
        if (request != null) {
            request.connectionClosed();
        }
        disconnected.complete(null);
        c.fireChannelInactive();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void fire(CmEvent event, Connection c, Throwable cause) {
        try {
            events.onEvent(event, qp, c, cause);
        } catch (RuntimeException e) {
            LOG.warn("CM event listener failed on {}", event, e);
        }
    }

    @Override
    public String toString() {
        return "QueuePairHandler[" + role + " " + qp + "]";
    }

    /** A stream's identity (compared by reference) that prints as its queue pair and peer. */
    private record StreamName(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

}
