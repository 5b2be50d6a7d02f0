package org.iwarp4j.verbs.cm;

import org.iwarp4j.verbs.QueuePair;

/**
 * Hears the {@link CmEvent}s of connections ({@code rdma_get_cm_event}); called on the connection's
 * event loop, must not block.
 */
@FunctionalInterface
public interface CmEventListener {

    /**
     * @param event      the event
     * @param queuePair  the queue pair concerned ({@code null} for a request not yet accepted)
     * @param connection the connection once established, else {@code null}
     * @param cause      for CONNECT_ERROR / UNREACHABLE / REJECTED / DISCONNECTED by error: why; else {@code null}
     */
    void onEvent(CmEvent event, QueuePair queuePair, Connection connection, Throwable cause);

    CmEventListener NONE = (event, qp, connection, cause) -> { };
}
