package org.iwarp4j.verbs.cm;

/**
 * Connection manager events, named as librdmacm names them ({@code RDMA_CM_EVENT_*}), so the flow of
 * {@code rdma_cm} programs maps one to one.
 */
public enum CmEvent {
    /** The destination address was resolved (immediately for an IP address). */
    ADDR_RESOLVED,
    /** The route was resolved (TCP: nothing to resolve; raised right after ADDR_RESOLVED). */
    ROUTE_RESOLVED,
    /** Listener: a valid MPA Request arrived and waits for accept or reject. */
    CONNECT_REQUEST,
    /** The MPA startup failed: invalid frame, peer closed, role conflict, or a local error. */
    CONNECT_ERROR,
    /** TCP connect failed or timed out, or the MPA Reply did not come within the startup timeout. */
    UNREACHABLE,
    /** The peer rejected (MPA Reply with R=1); carries its private data. */
    REJECTED,
    /** Full Operation: the queue pair is in RTS. */
    ESTABLISHED,
    /** The connection ended (our disconnect or close, the peer's FIN or RST, a Terminate, an error). */
    DISCONNECTED,
    /** The TCP connection is fully closed and its resources released (after DISCONNECTED). */
    TIMEWAIT_EXIT
}
