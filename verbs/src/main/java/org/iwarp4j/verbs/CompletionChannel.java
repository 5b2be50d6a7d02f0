package org.iwarp4j.verbs;

import java.time.Duration;
import java.util.Optional;

/**
 * A completion channel ({@code ibv_comp_channel}): the completion queues created with it report here when
 * they were armed ({@link CompletionQueue#arm(NotifyMode)}) and a matching completion arrived. One thread
 * can so wait for many queues; waiting parks the thread (platform or virtual) and does not spin. Events are
 * acknowledged when they are taken ({@code ibv_ack_cq_events} is implicit).
 *
 * <p>The usual loop, as with {@code ibv_get_cq_event}:
 * <pre>{@code
 * cq.arm(NotifyMode.NEXT);
 * while (running) {
 *     CompletionQueue ready = channel.take(Duration.ofSeconds(1)).orElse(null);
 *     if (ready == null) continue;
 *     ready.arm(NotifyMode.NEXT);           // re-arm first, then poll: nothing is missed
 *     int n;
 *     while ((n = ready.poll(completions)) > 0) { ... }
 * }
 * }</pre>
 */
public interface CompletionChannel extends AutoCloseable {

    /**
     * Waits for the next event ({@code ibv_get_cq_event}).
     *
     * @param timeout the longest wait
     * @return the queue that fired, or empty if none fired in time or the channel was closed
     * @throws InterruptedException  if the thread was interrupted while waiting
     * @throws IllegalStateException on an event loop thread
     */
    Optional<CompletionQueue> take(Duration timeout) throws InterruptedException;

    /**
     * Events fired and not yet taken.
     *
     * @return the number of pending events
     */
    int pending();

    /** Closes the channel: waiting threads return empty; armed queues stop reporting. */
    @Override
    void close();
}
