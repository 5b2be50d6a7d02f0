package org.iwarp4j.verbs.cm;

/**
 * Hears the {@link CmEvent}s of connections ({@code rdma_get_cm_event}); called on the connection's event
 * loop, in order, once per event. It must not block: a blocking call of this API made there fails with
 * an {@link IllegalStateException}.
 */
@FunctionalInterface
public interface CmEventListener {

    /**
     * Called once per event.
     *
     * @param event the event
     */
    void onEvent(CmEvent event);

    /** A listener that ignores every event. */
    CmEventListener NONE = event -> { };
}
