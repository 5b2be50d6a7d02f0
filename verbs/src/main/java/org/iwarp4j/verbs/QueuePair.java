package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.Connection;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A reliable connected queue pair ({@code ibv_qp}, {@code IBV_QPT_RC}): one RDMAP stream over one
 * MPA/TCP connection once connected.
 *
 * <p>Threading: the queue pair lives on one event loop (chosen when it connects or is accepted). The post
 * methods may be called from any thread: they validate on the caller's thread, hand the request over a
 * lock-free queue and wake the loop only when the queue was empty.
 *
 * <p>Refusals: a request that breaks a rule (wrong region, too many SGEs, a state that cannot send) throws
 * a {@link VerbsException} naming the rule and the request. A full send queue is not a programming error:
 * {@link #tryPostSend} returns false, {@link #postSend} throws a {@link VerbsException} with
 * {@link VerbsException.Reason#QUEUE_FULL} (cheap: no stack trace). Polling completions frees the slots.
 *
 * <p>Who sends first: an MPA Responder (the accepting side) may post sends at once, but its FPDUs are held
 * until the Initiator's first FPDU has arrived (RFC 5044 §7.1.2 rule 4): posted Sends do not complete
 * until then ({@link Connection#sendsHeld()}). Either the client sends first, or the client asks for
 * peer-to-peer mode ({@link org.iwarp4j.common.MpaOptions#peerToPeer()}), whose RTR, the Initiator's first FPDU,
 * releases the Responder at once.
 */
public interface QueuePair extends AutoCloseable {

    /**
     * The queue pair number.
     *
     * @return a number unique within the RNIC
     */
    int number();

    /**
     * The current state.
     *
     * @return the state
     */
    QueuePairState state();

    /**
     * What it was created with.
     *
     * @return the configuration
     */
    QueuePairConfig config();

    /**
     * {@code ibv_query_qp}: state, limits, negotiated IRD/ORD and queue occupancy.
     *
     * @return a snapshot
     */
    QueuePairAttributes query();

    /**
     * The domain it was created in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /**
     * The connection, once connected.
     *
     * @return the connection, or empty before
     */
    Optional<Connection> connection();

    /**
     * Free send queue slots (a Read with n SGEs takes n). A slot is taken from the post until the request's
     * completion is polled, or until it completes when it produces none (an unsignaled success).
     *
     * @return how many slots are free now
     */
    int sendQueueAvailable();

    /**
     * {@code ibv_post_send}. Sends need a connection: {@link QueuePairState#RTS}, or a connection that has
     * since failed — in TERMINATE, CLOSING or ERROR the request is accepted and completes with a flush status
     * naming the cause, as a libibverbs queue pair in the error state does.
     *
     * @param request the work request
     * @throws VerbsException refused (the reason says why), nothing was posted
     */
    void postSend(SendWorkRequest request);

    /**
     * {@code ibv_post_send} with a chain of work requests: posted in order and handed to the connection
     * together, so requests that fit go out in one TCP write. As with libibverbs' {@code bad_wr}, a request
     * that is refused ends the chain: the ones before it are posted, it and the rest are not (the exception
     * names it).
     *
     * @param requests the chain
     * @throws VerbsException for the first request refused
     */
    void postSend(List<SendWorkRequest> requests);

    /**
     * {@code ibv_post_send} unless the send queue is full: backpressure without an exception.
     *
     * @param request the work request
     * @return false, having posted nothing, when the send queue is full
     * @throws VerbsException for any other refusal
     */
    boolean tryPostSend(SendWorkRequest request);

    /**
     * Posts {@code request} and returns a future of its completion, which then does not go to the send
     * completion queue (and is reported whether or not the request is {@link SendFlag#SIGNALED}). The future
     * completes normally with a successful completion, exceptionally with a {@link WorkCompletionException}
     * holding an unsuccessful one. Its dependent stages run on the queue pair's event loop unless given an
     * executor.
     *
     * @param request the work request
     * @return the completion, when the request is done
     * @throws VerbsException if the request is refused (a full send queue included)
     */
    CompletableFuture<WorkCompletion> postSendAsync(SendWorkRequest request);

    /**
     * {@code ibv_post_recv}; allowed from {@link QueuePairState#IDLE} on (post receives before connecting).
     *
     * @param request the receive
     * @throws VerbsException refused, nothing was posted
     */
    void postReceive(ReceiveWorkRequest request);

    /**
     * {@code ibv_post_recv} unless the receive queue is full.
     *
     * @param request the receive
     * @return false, having posted nothing, when the receive queue is full
     * @throws VerbsException for any other refusal
     */
    boolean tryPostReceive(ReceiveWorkRequest request);

    /**
     * Validates and builds {@code request} once for repeated posting ({@link PreparedSend#execute()}).
     *
     * @param request the work request
     * @return the prepared request
     * @throws VerbsException if the request is invalid
     */
    PreparedSend prepare(SendWorkRequest request);

    /**
     * Sets the listener of {@link AsyncEvent}s (replacing the previous one).
     *
     * @param listener called on the queue pair's event loop; must not block
     */
    void onAsyncEvent(AsyncEventListener listener);

    /**
     * {@code ibv_destroy_qp}: closes the connection abortively if there is one; every outstanding work
     * request completes with {@link CompletionStatus#WORK_REQUEST_FLUSHED}.
     */
    @Override
    void close();
}
