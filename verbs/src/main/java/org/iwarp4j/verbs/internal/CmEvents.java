package org.iwarp4j.verbs.internal;

import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.TerminateException;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionLostException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What {@link ConnectionLifecycle} decided, told to the application in the connection manager's terms: the
 * {@link CmEvent}s and the established, disconnected and closed futures. On the connection's loop.
 */
final class CmEvents {

    private static final Logger LOG = LoggerFactory.getLogger(CmEvents.class);

    private final CmEventListener listener;
    private final Supplier<InetSocketAddress> peer;
    private final LoopSafeFuture<Void> disconnected = new LoopSafeFuture<>();
    private QueuePairImpl qp;
    private CompletableFuture<Connection> established;
    private ConnectionImpl connection;

    /**
     * {@code qp} and {@code established}: the Initiator's; a Responder's come with {@link #bind}. {@code peer}: the
     * other side's address, once connected.
     */
    CmEvents(CmEventListener listener, Supplier<InetSocketAddress> peer, QueuePairImpl qp,
             CompletableFuture<Connection> established) {
        this.listener = listener;
        this.peer = peer;
        this.qp = qp;
        this.established = established;
    }

    /** Delivers {@code event}: a listener that throws is logged, never breaks the connection. */
    static void fire(CmEventListener listener, CmEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            LOG.warn("CM event listener failed on {}", event.rdmaCmName(), e);
        }
    }

    void bind(QueuePairImpl acceptedQp, CompletableFuture<Connection> result) {
        this.qp = acceptedQp;
        this.established = result;
    }

    void connection(ConnectionImpl c) {
        this.connection = c;
    }

    CompletableFuture<Void> disconnectedFuture() {
        return disconnected;
    }

    void connectRequest(ConnectionRequestImpl request) {
        fire(listener, new CmEvent.ConnectRequest(request));
    }

    void established() {
        qp.state(QueuePairState.RTS);
        fire(listener, new CmEvent.Established(connection));
        established.complete(connection);
    }

    void setupFailed(SetupFailure f) {
        switch (f.kind()) {
            case REQUEST_REFUSED -> fire(listener, ((RejectedBy) f.cause()).event);
            case REJECTED_BY_PEER -> {
                ConnectionRejectedException e = (ConnectionRejectedException) f.cause();
                fail(e.toEvent(peer.get()), e);
            }
            default -> failEstablishment(new ConnectionFailedException(f.kind() == SetupFailure.Kind.STARTUP_TIMEOUT
                    ? ConnectionFailedException.Kind.UNREACHABLE : ConnectionFailedException.Kind.CONNECT_ERROR,
                    message(f), f.cause()));
        }
    }

    private static String message(SetupFailure f) {
        return switch (f.kind()) {
            case TERMINATE_SENT -> "the connection failed during setup; sent Terminate " + f.detail();
            case CONNECTION_CLOSED -> "the connection closed";
            default -> f.detail();
        };
    }

    /** The channel is gone. */
    void closed(LifecycleActions.Teardown teardown) {
        if (teardown.setupFailure() != null) {
            setupFailed(teardown.setupFailure());
        }
        if (teardown.fireDisconnected()) {
            CmEvent.Disconnected event = disconnected(teardown.end());
            fire(listener, event);
            connection.disconnected(event);
        }
    }

    /**
     * Why it ended, as the application sees it: a clean end (our disconnect or close, the peer's FIN between
     * FPDUs) has no cause; a Terminate, reset or failure says what happened.
     */
    private CmEvent.Disconnected disconnected(ConnectionEnd end) {
        Terminate t = end.terminate();
        return switch (end.reason()) {
            case LOCAL_DISCONNECT -> clean(DisconnectReason.LOCAL_DISCONNECT);
            case LOCAL_ABORT -> clean(DisconnectReason.LOCAL_CLOSE);
            case PEER_CLOSED -> clean(DisconnectReason.PEER_DISCONNECT);
            case DISCONNECT_TIMEOUT -> lost(DisconnectReason.DISCONNECT_TIMEOUT, "the graceful disconnect did not"
                    + " finish within the disconnect timeout: closed abortively");
            case PEER_RESET -> lost(DisconnectReason.PEER_RESET, "the peer reset the TCP connection");
            case PEER_CLOSED_INSIDE_FPDU -> lost(DisconnectReason.TRANSPORT_ERROR, "the peer closed the TCP connection"
                    + " in the middle of an FPDU (RFC 5044 §8: TCP connection lost)");
            case RESPONSE_TIMEOUT -> lost(DisconnectReason.RESPONSE_TIMEOUT, ResponseWatchdog.describe(
                    qp == null ? null : qp.config().responseTimeout()));
            case TCP_TIMEOUT -> lost(DisconnectReason.TCP_TIMEOUT, "TCP gave up on the peer (ETIMEDOUT): keepalive"
                    + " probes or sent octets went unacknowledged (ConnectOptions/ListenOptions.keepalive)");
            case TRANSPORT_ERROR, SETUP_FAILED -> lost(DisconnectReason.TRANSPORT_ERROR, "the TCP connection failed");
            case TERMINATE_SENT -> terminated(DisconnectReason.TERMINATE_SENT, t == null ? null : Terminates.sent(t));
            case TERMINATE_WITHHELD -> terminated(DisconnectReason.TERMINATE_WITHHELD,
                    t == null ? null : Terminates.withheld(t));
            case TERMINATE_RECEIVED -> terminated(DisconnectReason.TERMINATE_RECEIVED,
                    t == null ? null : Terminates.received(t));
        };
    }

    private CmEvent.Disconnected clean(DisconnectReason reason) {
        return new CmEvent.Disconnected(connection, reason, Optional.empty());
    }

    private CmEvent.Disconnected lost(DisconnectReason reason, String message) {
        return new CmEvent.Disconnected(connection, reason, Optional.of(new ConnectionLostException(message, null)));
    }

    private CmEvent.Disconnected terminated(DisconnectReason reason, TerminateInfo info) {
        return info == null ? lost(reason, "a Terminate ended the connection")
                : new CmEvent.Disconnected(connection, reason, Optional.of(new TerminateException(info)));
    }

    void disconnected() {
        disconnected.complete(null);
    }

    /** Initiator: the peer's MPA Reply said R=1. */
    static ConnectionRejectedException rejectedByPeer(MpaRejection r) {
        return new ConnectionRejectedException("the peer rejected the connection" + (r.reason() != null ? " ("
                + r.reason() + ")" : ""), r.replyPrivateData(), MpaConfigs.depth(r.responderIrd()),
                MpaConfigs.depth(r.responderOrd()));
    }

    /**
     * Responder: MPA rejected the Request before any user saw it: RFC 6581 §9.1, the Initiator's IRD is below the
     * ORD this listener requires (the Reply carries that ORD). Reported as librdmacm reports a reject.
     */
    static Throwable refused(MpaRejection r, InetSocketAddress from) {
        EnhancedConnectionData q = r.request().enhancedData();
        String reason = "rejected the connection request from " + from + ": its IRD " + (q == null ? "?" : q.ird())
                + " is below the required ORD " + r.responderOrd() + " (RFC 6581 §9.1)";
        LOG.debug("{}", reason);
        return new RejectedBy(new CmEvent.Rejected(from, r.replyPrivateData(), MpaConfigs.depth(r.responderIrd()),
                MpaConfigs.depth(r.responderOrd()), reason));
    }

    /** Responder: the listener refused the Request with R=1 for one of its limits ({@code reason}). */
    static Throwable refusedByLimit(MpaRejection r, InetSocketAddress from, String reason) {
        return new RejectedBy(new CmEvent.Rejected(from, r.replyPrivateData(), MpaConfigs.depth(r.responderIrd()),
                MpaConfigs.depth(r.responderOrd()), "rejected the connection request from " + from + ": " + reason));
    }

    /** Carries a listener's own reject to {@link #setupFailed} (no application future waits for it). */
    private static final class RejectedBy extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient CmEvent.Rejected event;

        RejectedBy(CmEvent.Rejected event) {
            super(event.reason(), null, false, false);
            this.event = event;
        }
    }

    /** The connection is not established: UNREACHABLE or CONNECT_ERROR, as {@code e} says. */
    void failEstablishment(ConnectionFailedException e) {
        fail(e.kind() == ConnectionFailedException.Kind.UNREACHABLE ? new CmEvent.Unreachable(e)
                : new CmEvent.ConnectError(e), e);
    }

    /**
     * The queue pair fails, its receives posted while IDLE are flushed, {@code event} is fired and the
     * established future fails with {@code e} — unless it is done already (ConnectionRequestImpl: the accept
     * failed).
     */
    private void fail(CmEvent event, Exception e) {
        if (established == null || established.isDone()) {
            return;
        }
        if (qp != null) {
            qp.stateError();
            qp.flushUnstarted();
        }
        fire(listener, event);
        established.completeExceptionally(e);
    }
}
