package org.iwarp4j.verbs;

/**
 * Receives a queue pair's {@link AsyncEvent}s, on the queue pair's event loop. It must not block: a
 * blocking call of this API made there fails with an {@link IllegalStateException}.
 */
@FunctionalInterface
public interface AsyncEventListener {
    /**
     * Called once per event.
     *
     * @param event the event
     */
    void onAsyncEvent(AsyncEvent event);
}
