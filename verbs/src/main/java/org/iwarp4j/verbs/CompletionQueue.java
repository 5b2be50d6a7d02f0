package org.iwarp4j.verbs;

import java.util.function.Consumer;

/**
 * A completion queue ({@code ibv_cq}): a bounded ring several queue pairs (on several event loops) write
 * completions into, and the application polls.
 *
 * <p>{@link #poll} and {@link #drain} may be called from any thread; polling copies into the caller's
 * flyweights and allocates nothing. If the ring is full when a completion arrives the completion queue
 * has overflowed: the completion is lost and every queue pair using it fails with
 * {@link AsyncEvent.Type#COMPLETION_QUEUE_OVERFLOW}.
 */
public interface CompletionQueue extends AutoCloseable {

    /** {@code ibv_poll_cq}: fills up to {@code into.length} completions, oldest first; returns how many. */
    int poll(WorkCompletion[] into);

    /** Hands every available completion to {@code handler} (one reused flyweight); returns how many. */
    int drain(Consumer<WorkCompletion> handler);

    /**
     * {@code ibv_req_notify_cq}: calls {@code handler} once, on this queue's event loop, when the next
     * matching completion is added after this call. Completions already queued do not fire it: the
     * usual pattern is arm, then poll (and in the handler: poll, re-arm, poll).
     */
    void arm(NotifyMode mode, CompletionHandler handler);

    int capacity();

    /** Completions waiting to be polled. */
    int size();

    @Override
    void close();
}
