package org.iwarp4j.verbs.cm;

/**
 * Gets every valid MPA Request of a listener ({@link CmEvent#CONNECT_REQUEST}), on the connection's
 * event loop. Decide with {@link ConnectionRequest#accept} or {@link ConnectionRequest#reject} now or
 * later from any thread; unanswered requests are rejected before the MPA startup timeout runs out.
 */
@FunctionalInterface
public interface ConnectionRequestHandler {
    void onConnectionRequest(ConnectionRequest request);
}
