package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.netty.FpduDecoder;
import org.iwarp4j.mpa.netty.FpduEncoder;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamState;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.ConnectionLifecycle.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The verbs handler of a connection's pipeline, above MPA's FPDU codec:
 * {@code [PcapWriteHandler] → MpaStartupHandler (→ FpduDecoder/FpduEncoder) → QueuePairHandler}.
 *
 * <p>A thin Netty adapter: it opens the {@link RdmapStream} when MPA reaches Full Operation, feeds it every
 * ULPDU, lets the {@link TransmitPump} send, and forwards MPA's events, errors and the channel's end to the
 * {@link ConnectionLifecycle}, whose decisions {@link ChannelActions} carries out on the channel.
 */
final class QueuePairHandler extends ChannelDuplexHandler implements ConnectionRequestImpl.Connecting {

    private static final Logger LOG = LoggerFactory.getLogger(QueuePairHandler.class);

    private final Role role;
    private final PeerAccommodations peer;
    private final ListenerImpl listener;
    /** Responder: the limits checked at TCP accept ({@code null} at an Initiator). */
    private final Admission admission;
    private final Predicate<byte[]> replyPrivateDataCheck;
    private final CmEvents cm;
    private final ChannelActions actions;
    private final ConnectionLifecycle lifecycle;
    /** The connection's event loop, known before the channel exists (an Initiator's application may abort then). */
    private final EventLoop loop;

    private QueuePairImpl qp;
    private ChannelHandlerContext ctx;
    private RdmapStream stream;
    private TransmitPump pump;
    private ConnectionImpl connection;
    private ConnectionRequestImpl request;
    private boolean abortWhenAdded;
    private boolean refusedForLimit;

    /**
     * An Initiator's handler for {@code qp}, connecting with {@code options} on {@code loop}; {@code result}
     * completes at ESTABLISHED.
     */
    QueuePairHandler(QueuePairImpl qp, CompletableFuture<Connection> result, ConnectOptions options, EventLoop loop) {
        this.role = Role.INITIATOR;
        this.loop = loop;
        this.qp = qp;
        this.peer = PeerAccommodations.of(options);
        this.listener = null;
        this.admission = null;
        this.replyPrivateDataCheck = options.replyPrivateDataCheck();
        this.cm = new CmEvents(options.eventListener(), this::remoteAddress, qp, result);
        this.actions = new ChannelActions(cm, peer, qp);
        this.lifecycle = new ConnectionLifecycle(role, peer, options.mpa().startupTimeout(),
                options.disconnectTimeout(), actions);
    }

    /** A Responder's handler on {@code loop}, its channel's: the queue pair comes with {@link #accepting}. */
    QueuePairHandler(ListenerImpl listener, Admission admission, EventLoop loop) {
        this.role = Role.RESPONDER;
        this.loop = loop;
        this.peer = PeerAccommodations.of(listener.options());
        this.listener = listener;
        this.admission = admission;
        this.replyPrivateDataCheck = null;
        this.cm = new CmEvents(listener.options().eventListener(), this::remoteAddress, null, null);
        this.actions = new ChannelActions(cm, peer, null);
        this.lifecycle = new ConnectionLifecycle(role, peer, listener.options().mpa().startupTimeout(),
                listener.options().disconnectTimeout(), actions);
    }

    private InetSocketAddress remoteAddress() {
        return ctx == null ? null : (InetSocketAddress) ctx.channel().remoteAddress();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext c) {
        this.ctx = c;
        actions.attach(c);
        if (abortWhenAdded) {
            loop.execute(this::abort);
        }
    }

    // ------------------------------------------------------------------ connection manager (MPA startup)

    @Override
    public void userEventTriggered(ChannelHandlerContext c, Object evt) {
        if (admission != null && (evt instanceof MpaEstablishedEvent || evt instanceof MpaRejectedEvent
                || evt instanceof MpaStartupFailedEvent)) {
            admission.startupEnded();
        }
        if (evt instanceof MpaEstablishedEvent e) {
            FpduDecoder decoder = c.pipeline().get(FpduDecoder.class);
            if (decoder != null) {
                // DDP reads each segment during stream.receive and keeps nothing of it (DdpReceiveListener's
                // contract): the decoder may lend it, with no slice or copy per FPDU
                decoder.lendUlpdus(true);
            }
            onEstablished(e.parameters(), (FpduEncoder) e.sender());
        } else if (evt instanceof MpaConnectRequest r && admission.refusal() != null) {
            // The listener is full: the Request is refused before the application sees it (RFC 5044 §7.1.2 rule 2).
            LOG.warn("{}: MPA Request refused with R=1: {} (ListenOptions)", c.channel(), admission.refusal());
            refusedForLimit = true;
            r.reject(admission.refusalPrivateData());
        } else if (evt instanceof MpaConnectRequest r) {
            request = new ConnectionRequestImpl(this, r, ctx.channel(), listener);
            actions.request(request);
            lifecycle.connectRequest();
            listener.dispatch(request);
        } else if (evt instanceof MpaRejectedEvent r) {
            onRejected(r.rejection());
        } else if (evt instanceof MpaStartupFailedEvent f) {
            boolean timeout = f.reason() == MpaStartupFailedEvent.Reason.TIMEOUT;
            lifecycle.startupFailed(new SetupFailure(timeout ? SetupFailure.Kind.STARTUP_TIMEOUT
                    : SetupFailure.Kind.STARTUP_FAILED, "MPA startup failed: " + f.reason() + ", "
                    + f.cause().getMessage(), f.cause()));
        } else {
            c.fireUserEventTriggered(evt);
        }
    }

    /** Initiator: the TCP connect failed (the channel never became active, so no other event follows). */
    void connectFailed(ConnectionFailedException e) {
        cm.failEstablishment(e);
    }

    @Override
    public void accepting(QueuePairImpl acceptedQp, CompletableFuture<Connection> result) {
        this.qp = acceptedQp;
        cm.bind(acceptedQp, result);
        actions.bind(acceptedQp);
        lifecycle.accepting();
    }

    private void onEstablished(MpaParameters params, FpduEncoder encoder) {
        if (qp == null) {
            LOG.warn("MPA established without a queue pair; closing");
            lifecycle.setupAbandoned(null);
            return;
        }
        if (role == Role.INITIATOR && !replyPrivateDataCheck.test(params.peerPrivateData())) {
            lifecycle.setupAbandoned(new SetupFailure(SetupFailure.Kind.REPLY_PRIVATE_DATA_REFUSED, "the private"
                    + " data of the MPA Reply was not accepted (" + params.peerPrivateData().length + " octets)",
                    null));
            return;
        }
        Reservation irds = qp.irdReservation();
        if (irds != null) {
            irds.trimTo(Math.max(params.ird(), 0)); // the rest of what the IRD could have been raised to goes back
        }
        encoder.gatherSmallFpdus(!ConnectionPipelines.capturesPackets(ctx.pipeline()));
        TransmitPump.Segments segments = new TransmitPump.Segments(encoder, ctx.voidPromise());
        QueuePairEngine engine = new QueuePairEngine(qp, params, ctx.channel().remoteAddress(), peer.terminateLayout(),
                segments, lifecycle, () -> pump.request());
        stream = engine.stream();
        pump = new TransmitPump(ctx, segments, stream, lifecycle);
        actions.streamOpened(engine, pump);
        connection = new ConnectionImpl(this, qp, params, ctx.channel(), encoder.holding());
        qp.connection(connection);
        cm.connection(connection);
        MpaError code = params.requiredTerminate();
        if (code != null) {
            // RFC 6581 §9.1, §9.3 (MPA-69, MPA-74): the Initiator's first FPDU is this Terminate.
            lifecycle.setupTerminateRequired(code == MpaError.INSUFFICIENT_IRD ? TerminateCause.MPA_INSUFFICIENT_IRD
                    : TerminateCause.MPA_NO_MATCHING_RTR, code.description(), "MPA negotiation: " + code);
        } else {
            lifecycle.watchResponses(qp.config().responseTimeout());
            lifecycle.fullOperation(engine.begin(params, role == Role.INITIATOR));
        }
    }

    private void onRejected(MpaRejection rejection) {
        if (role == Role.INITIATOR) {
            lifecycle.setupAbandoned(new SetupFailure(SetupFailure.Kind.REJECTED_BY_PEER, null,
                    CmEvents.rejectedByPeer(rejection)));
        } else if (request != null) {
            lifecycle.requestRejected(); // ConnectionRequestImpl closes once the Reply is written
        } else if (refusedForLimit) {
            lifecycle.requestRefused(CmEvents.refusedByLimit(rejection, remoteAddress(), admission.refusal()));
        } else {
            lifecycle.requestRefused(CmEvents.refused(rejection, remoteAddress()));
        }
    }

    // ------------------------------------------------------------------ data path and errors

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (stream != null && msg instanceof ByteBuf ulpdu) {
            if (!lifecycle.peerSpoke()) {
                connection.sendsReleased(); // RFC 5044 §7.1.2 rule 4: a Responder's FPDUs flow from now on
            }
            lifecycle.fpduReceived();
            stream.receive(ulpdu);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        transmit();
        c.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) {
        if (c.channel().isWritable()) {
            transmit();
        }
        c.fireChannelWritabilityChanged();
    }

    private void transmit() {
        if (pump != null) {
            pump.pump();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        if (cause instanceof MpaException e && stream != null) {
            MpaException.UnverifiedFpdu f = e.unverifiedFpdu();
            if (!lifecycle.peerSpoke() && peer.takesAsSetupTerminate(f)) {
                LOG.info("{}: the peer's first FPDU failed its CRC with a zero CRC field and is a Terminate: taken"
                        + " as the peer's Terminate (Linux siw sends its setup Terminate without CRC,"
                        + " interop/FINDINGS.md M17)", c.channel());
                lifecycle.fpduReceived();
                stream.receive(c.alloc().buffer(f.ulpdu().length).writeBytes(f.ulpdu()));
                transmit();
            } else if (e.error() == MpaError.CRC_ERROR || e.error() == MpaError.MARKER_MISMATCH) {
                lifecycle.streamError(e.error() == MpaError.CRC_ERROR ? TerminateCause.MPA_CRC_ERROR
                        : TerminateCause.MPA_MARKER_MISMATCH, e.detail());
            } else {
                lifecycle.connectionLost(Reason.PEER_CLOSED_INSIDE_FPDU); // FpduDecoder's only other error
            }
        } else if (cause instanceof IOException) {
            LOG.debug("connection {}: {}", c.channel(), cause.toString());
            lifecycle.connectionLost(TcpResets.isPeerReset(cause) ? Reason.PEER_RESET
                    : TcpResets.isTimeout(cause) ? Reason.TCP_TIMEOUT : Reason.TRANSPORT_ERROR);
        } else {
            LOG.warn("unexpected error on {}", c.channel(), cause);
            lifecycle.unexpectedError(streamRunning(), cause.toString());
        }
    }

    private boolean streamRunning() {
        return stream != null && stream.state() == RdmapStreamState.OPERATIONAL;
    }

    // ------------------------------------------------------------------ the application (any thread)

    @Override
    public void completionQueueOverflowed() {
        loop.execute(() -> lifecycle.completionQueueOverflowed(streamRunning()));
    }

    /** A channel already going is left to end. */
    @Override
    public CompletableFuture<Void> disconnect() {
        loop.execute(() -> {
            if (ctx.channel().isActive()) {
                lifecycle.localDisconnect();
            }
        });
        return cm.disconnectedFuture();
    }

    /** Before the channel exists (an Initiator's connect task has not run yet), once it does. */
    @Override
    public void abort() {
        loop.execute(() -> {
            if (ctx == null) {
                abortWhenAdded = true;
            } else if (ctx.channel().isOpen()) {
                lifecycle.localAbort();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        lifecycle.channelInactive();
        c.fireChannelInactive();
    }

    @Override
    public String toString() {
        return "QueuePairHandler[" + role + " " + qp + "]";
    }
}
