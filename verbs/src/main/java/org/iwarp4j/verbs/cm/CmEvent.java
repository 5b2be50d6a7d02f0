package org.iwarp4j.verbs.cm;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the connection manager reports ({@code rdma_get_cm_event}), one record per kind so that a listener
 * switches over them and reads what each carries:
 * <pre>{@code
 * switch (event) {
 *     case CmEvent.Established e -> log.info("connected to {}", e.connection().remoteAddress());
 *     case CmEvent.Disconnected d when d.cause().isEmpty() -> log.info("clean disconnect: {}", d.reason());
 *     case CmEvent.Disconnected d -> log.warn("lost: {}", d.cause().get().getMessage());
 *     default -> { }
 * }
 * }</pre>
 * (On Java 17, with {@code if (event instanceof CmEvent.Established e)}.) {@link #rdmaCmName()} gives the
 * librdmacm name of each, for learners.
 */
public sealed interface CmEvent {

    /**
     * The librdmacm event this corresponds to.
     *
     * @return e.g. {@code RDMA_CM_EVENT_ESTABLISHED}
     */
    String rdmaCmName();

    /**
     * Listener: a valid MPA Request arrived and waits for accept or reject (it also goes to the
     * {@link ConnectionRequestHandler}).
     *
     * @param request the request
     */
    record ConnectRequest(ConnectionRequest request) implements CmEvent {
        /** Checks the component. */
        public ConnectRequest {
            Objects.requireNonNull(request, "request");
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_CONNECT_REQUEST";
        }
    }

    /**
     * Full Operation: the queue pair is in RTS.
     *
     * @param connection the connection
     */
    record Established(Connection connection) implements CmEvent {
        /** Checks the component. */
        public Established {
            Objects.requireNonNull(connection, "connection");
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_ESTABLISHED";
        }
    }

    /**
     * The connection was rejected (an MPA Reply with R=1, RFC 5044 §7.1.2): at the Initiator by the peer, at a
     * listener by itself when a Request's IRD is below its {@link ListenOptions#requiredOrd()} (RFC 6581 §9.1).
     *
     * @param remoteAddress the other side: the Responder at the Initiator, the Initiator at a listener
     * @param privateData   the Responder's private data (ULP part)
     * @param ird           the Responder's IRD (without enhanced data: empty)
     * @param ord           the Responder's ORD: after an "insufficient IRD" reject, the ORD it needs
     * @param reason        what happened, e.g. {@code rejected the connection request from /10.0.0.2:4711: its IRD 1
     *                      is below the required ORD 4 (RFC 6581 §9.1)}
     */
    record Rejected(InetSocketAddress remoteAddress, byte[] privateData, OptionalInt ird, OptionalInt ord,
                    String reason) implements CmEvent {
        /** Copies the private data. */
        public Rejected {
            Objects.requireNonNull(remoteAddress, "remoteAddress");
            Objects.requireNonNull(reason, "reason");
            privateData = privateData.clone();
            Objects.requireNonNull(ird, "ird");
            Objects.requireNonNull(ord, "ord");
        }

        /**
         * The Responder's private data.
         *
         * @return a copy
         */
        @Override
        public byte[] privateData() {
            return privateData.clone();
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_REJECTED";
        }
    }

    /**
     * TCP connect failed or timed out, or the MPA Reply did not come within the startup timeout.
     *
     * @param error what failed
     */
    record Unreachable(ConnectionFailedException error) implements CmEvent {
        /** Checks the component. */
        public Unreachable {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_UNREACHABLE";
        }
    }

    /**
     * The MPA startup failed: an invalid frame, the peer closed, a role conflict, a negotiation that ended in a
     * Terminate, or a local error.
     *
     * @param error what failed
     */
    record ConnectError(ConnectionFailedException error) implements CmEvent {
        /** Checks the component. */
        public ConnectError {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_CONNECT_ERROR";
        }
    }

    /**
     * The connection ended; every outstanding work request has completed (flushed), the TCP connection is
     * closed and its resources released (librdmacm's DISCONNECTED and TIMEWAIT_EXIT in one).
     *
     * @param connection the connection
     * @param reason     who ended it and how
     * @param cause      empty for a clean end ({@link DisconnectReason#isClean()}); else what went wrong: a
     *                   {@link org.iwarp4j.verbs.TerminateException} for a Terminate, a
     *                   {@link ConnectionLostException} for a reset or a TCP failure
     */
    record Disconnected(Connection connection, DisconnectReason reason, Optional<Throwable> cause) implements CmEvent {
        /** Checks the components. */
        public Disconnected {
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public String rdmaCmName() {
            return "RDMA_CM_EVENT_DISCONNECTED";
        }
    }
}
