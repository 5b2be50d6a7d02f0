package org.iwarp4j.verbs.cm;

/**
 * Gets every valid MPA Request of a listener ({@link CmEvent.ConnectRequest}), on the connection's event loop.
 * Decide with {@link ConnectionRequest#accept} or {@link ConnectionRequest#reject} now or later from any
 * thread, without blocking here; unanswered requests are rejected before the MPA startup timeout runs out.
 */
@FunctionalInterface
public interface ConnectionRequestHandler {
    /**
     * A request arrived.
     *
     * @param request the request
     */
    void onConnectionRequest(ConnectionRequest request);
}
