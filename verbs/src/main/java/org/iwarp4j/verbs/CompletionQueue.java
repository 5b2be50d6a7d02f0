package org.iwarp4j.verbs;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A completion queue ({@code ibv_cq}): a bounded ring several queue pairs (on several event loops) write
 * completions into, and the application reads. Three ways to read it, all from any thread:
 * <ul>
 *   <li><b>poll</b>: {@link #poll(WorkCompletion[])} returns at once with what is there; it copies into the
 *       caller's flyweights and allocates nothing (the hot path, {@code ibv_poll_cq});</li>
 *   <li><b>wait</b>: {@link #poll(WorkCompletion[], Duration)} and {@link #take(Duration)} block the calling
 *       thread (platform or virtual) until a completion arrives, without spinning;</li>
 *   <li><b>notify</b>: {@link #arm(NotifyMode)} sends one event to the queue's {@link CompletionChannel}
 *       ({@code ibv_req_notify_cq} / {@code ibv_get_cq_event}), or {@link #arm(NotifyMode, CompletionHandler)}
 *       calls a handler once on an event loop.</li>
 * </ul>
 * <p>Sizing: as with libibverbs, a request's send or receive queue slot stays taken until its completion has
 * been polled (an unsignaled request that succeeds frees its slot when it completes: it has no completion), so a
 * completion queue with room for the {@code maxSendWr} and {@code maxRecvWr} of every queue pair using it never
 * overflows. Receives from a shared receive queue hold no queue pair slot: count its capacity too. If the ring is
 * full when a completion arrives, the queue has overflowed: the completion is lost and every queue pair using it
 * fails with {@link AsyncEvent.Type#COMPLETION_QUEUE_OVERFLOW}.
 *
 * <p>The blocking methods refuse to run on an iwarp4j event loop (inside a completion handler, a connection
 * manager listener or a future's callback): they throw {@link IllegalStateException} instead of
 * deadlocking the loop that would deliver the completion.
 */
public interface CompletionQueue extends AutoCloseable {

    /**
     * {@code ibv_poll_cq}: fills up to {@code into.length} completions, oldest first; never blocks.
     *
     * @param into flyweights to fill (allocate them once: {@code WorkCompletion.array(16)})
     * @return how many were filled, 0 when the queue is empty
     */
    int poll(WorkCompletion[] into);

    /**
     * Like {@link #poll(WorkCompletion[])}, but waits up to {@code timeout} for the first completion.
     *
     * @param into    flyweights to fill
     * @param timeout the longest wait
     * @return how many were filled, 0 if none arrived in time
     * @throws InterruptedException  if the thread was interrupted while waiting
     * @throws IllegalStateException on an event loop thread
     */
    int poll(WorkCompletion[] into, Duration timeout) throws InterruptedException;

    /**
     * Waits up to {@code timeout} for the next completion and returns it as a new object (not a flyweight:
     * convenient, and it allocates).
     *
     * @param timeout the longest wait
     * @return the oldest completion, or empty if none arrived in time
     * @throws InterruptedException  if the thread was interrupted while waiting
     * @throws IllegalStateException on an event loop thread
     */
    Optional<WorkCompletion> take(Duration timeout) throws InterruptedException;

    /**
     * Hands every available completion to {@code handler} (one reused flyweight); never blocks.
     *
     * @param handler called once per completion
     * @return how many were handed over
     */
    int drain(Consumer<WorkCompletion> handler);

    /**
     * {@code ibv_req_notify_cq}: the next matching completion added after this call sends one event to this
     * queue's {@link CompletionChannel}. Completions already queued do not: arm, then poll, and after each
     * event poll, arm, poll again.
     *
     * @param mode which completion fires the event
     * @throws IllegalStateException if the queue was created without a channel
     */
    void arm(NotifyMode mode);

    /**
     * Calls {@code handler} once, on this queue's event loop, when the next matching completion is added after
     * this call (replacing a handler armed before). Completions already queued do not fire it: arm, then poll
     * (and in the handler: poll, re-arm, poll).
     *
     * @param mode    which completion fires the handler
     * @param handler the callback; it must not block
     */
    void arm(NotifyMode mode, CompletionHandler handler);

    /** Cancels an arming ({@link #arm(NotifyMode)} or {@link #arm(NotifyMode, CompletionHandler)}) not yet fired. */
    void disarm();

    /**
     * The event loop this queue's {@link CompletionHandler}s run on, as an executor: work handed to it runs on
     * that thread, in order with the handlers. Run to completion: start there what the handlers continue (post
     * the first requests, then arm), so that one thread posts, polls and moves the octets of a queue pair that
     * lives on the same loop (as every queue pair of an RNIC with one event loop does), with no hand-off between
     * threads. Never block in a task (see the guide's "Threads").
     *
     * @return an executor of the queue's event loop; tasks given after {@link Rnic#close()} are refused
     */
    Executor executor();

    /**
     * The channel this queue reports to.
     *
     * @return the channel given to {@link Rnic#createCompletionQueue(int, CompletionChannel)}, or empty
     */
    Optional<CompletionChannel> channel();

    /**
     * The number of completions the ring holds.
     *
     * @return the capacity asked for at creation
     */
    int capacity();

    /**
     * Completions waiting to be polled.
     *
     * @return the number of completions in the ring
     */
    int size();

    /** Destroys the queue ({@code ibv_destroy_cq}); completions still queued are dropped. */
    @Override
    void close();
}
