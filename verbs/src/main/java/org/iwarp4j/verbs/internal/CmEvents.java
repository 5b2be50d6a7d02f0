package org.iwarp4j.verbs.internal;

import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link ConnectionLifecycle} decided, told to the application in the connection manager's terms: the
 * {@link CmEvent}s with their causes and the established and disconnected futures. On the connection's loop.
 */
final class CmEvents {

    private static final Logger LOG = LoggerFactory.getLogger(CmEvents.class);

    private final CmEventListener listener;
    private final CompletableFuture<Void> disconnected = new CompletableFuture<>();
    private QueuePairImpl qp;
    private CompletableFuture<Connection> established;
    private Connection connection;

    /** {@code qp} and {@code established}: the Initiator's; a Responder's come with {@link #bind}. */
    CmEvents(CmEventListener listener, QueuePairImpl qp, CompletableFuture<Connection> established) {
        this.listener = listener;
        this.qp = qp;
        this.established = established;
    }

    void bind(QueuePairImpl acceptedQp, CompletableFuture<Connection> result) {
        this.qp = acceptedQp;
        this.established = result;
    }

    void connection(Connection c) {
        this.connection = c;
    }

    CompletableFuture<Void> disconnectedFuture() {
        return disconnected;
    }

    void connectRequest() {
        fire(CmEvent.CONNECT_REQUEST, null, null);
    }

    void established() {
        qp.state(QueuePairState.RTS);
        fire(CmEvent.ESTABLISHED, connection, null);
        established.complete(connection);
    }

    void setupFailed(SetupFailure f) {
        switch (f.kind()) {
            case REQUEST_REFUSED -> fire(CmEvent.REJECTED, null, f.cause());
            case REJECTED_BY_PEER -> {
                qp.flushUnstarted();
                qp.stateError();
                fire(CmEvent.REJECTED, null, f.cause());
                established.completeExceptionally(f.cause());
            }
            default -> failEstablishment(new ConnectionFailedException(f.kind() == SetupFailure.Kind.STARTUP_TIMEOUT
                    ? CmEvent.UNREACHABLE : CmEvent.CONNECT_ERROR, message(f), f.cause()));
        }
    }

    private static String message(SetupFailure f) {
        return switch (f.kind()) {
            case TERMINATE_SENT -> "the connection failed during setup; sent Terminate " + f.detail();
            case CONNECTION_CLOSED -> "the connection closed";
            default -> f.detail();
        };
    }

    /** The channel is gone; {@code lost}: the LLP error the stream heard, if any (the DISCONNECTED cause). */
    void closed(LifecycleActions.Teardown teardown, Throwable lost) {
        if (teardown.setupFailure() != null) {
            setupFailed(teardown.setupFailure());
        }
        if (teardown.fireDisconnected()) {
            fire(CmEvent.DISCONNECTED, connection, lost);
            fire(CmEvent.TIMEWAIT_EXIT, connection, null);
        }
    }

    void disconnected() {
        disconnected.complete(null);
    }

    /** Initiator: the peer's MPA Reply said R=1. */
    static ConnectionRejectedException rejectedByPeer(MpaRejection r) {
        return new ConnectionRejectedException("the peer rejected the connection" + (r.reason() != null ? " ("
                + r.reason() + ")" : ""), r.replyPrivateData(), r.responderIrd(), r.responderOrd());
    }

    /**
     * Responder: MPA rejected the Request before any user saw it: RFC 6581 §9.1, the Initiator's IRD is below the
     * ORD this listener requires (the Reply carries that ORD). Reported as librdmacm reports a reject.
     */
    static ConnectionRejectedException refused(MpaRejection r, SocketAddress from) {
        EnhancedConnectionData q = r.request().enhancedData();
        return new ConnectionRejectedException("rejected the connection request from " + from + ": its IRD "
                + (q == null ? "?" : q.ird()) + " is below the required ORD " + r.responderOrd() + " (RFC 6581 §9.1)",
                r.replyPrivateData(), r.responderIrd(), r.responderOrd());
    }

    /** The established future may have failed already (ConnectionRequestImpl: the accept failed). */
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

    private void fire(CmEvent event, Connection c, Throwable cause) {
        try {
            listener.onEvent(event, qp, c, cause);
        } catch (RuntimeException e) {
            LOG.warn("CM event listener failed on {}", event, e);
        }
    }
}
