package org.iwarp4j.verbs;

/** Receives a queue pair's {@link AsyncEvent}s, on the queue pair's event loop; must not block. */
@FunctionalInterface
public interface AsyncEventListener {
    void onAsyncEvent(AsyncEvent event);
}
