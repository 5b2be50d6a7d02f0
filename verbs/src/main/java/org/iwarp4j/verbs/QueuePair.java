package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.Connection;

/**
 * A reliable connected queue pair ({@code ibv_qp}, {@code IBV_QPT_RC}): one RDMAP stream over one
 * MPA/TCP connection once connected.
 *
 * <p>Threading: the queue pair lives on one event loop (chosen when it connects or is accepted).
 * {@link #postSend}/{@link #postReceive} may be called from any thread: they validate on the caller's
 * thread, hand the request over a lock-free queue and wake the loop only when the queue was empty.
 */
public interface QueuePair extends AutoCloseable {

    /** The queue pair number (unique within the RNIC). */
    int number();

    QueuePairState state();

    QueuePairConfig config();

    ProtectionDomain protectionDomain();

    /** The connection, once connected; {@code null} before. */
    Connection connection();

    /**
     * {@code ibv_post_send}. Sends need a connection: {@link QueuePairState#RTS}, or a connection that has
     * since failed — in TERMINATE, CLOSING or ERROR the request is accepted and completes with a flush
     * status naming the cause, as a libibverbs queue pair in the error state does. Refused (with
     * {@link VerbsException.Reason#WRONG_STATE}) before the connection exists and after {@code close()}.
     */
    void postSend(SendWorkRequest request) throws VerbsException;

    /**
     * {@code ibv_post_send} with a chain of work requests: posted in order and handed to the connection
     * together, so requests that fit go out in one TCP write. As with libibverbs' {@code bad_wr}, a request
     * that is refused ends the chain: the ones before it are posted, it and the rest are not (the exception
     * names it).
     */
    void postSend(java.util.List<SendWorkRequest> requests) throws VerbsException;

    /** {@code ibv_post_recv}; allowed from {@link QueuePairState#IDLE} on (post receives before connecting). */
    void postReceive(ReceiveWorkRequest request) throws VerbsException;

    /** Validates and builds {@code request} once for repeated posting ({@link PreparedSend#execute()}). */
    PreparedSend prepare(SendWorkRequest request) throws VerbsException;

    /** Sets the listener of {@link AsyncEvent}s (replacing the previous one). */
    void onAsyncEvent(AsyncEventListener listener);

    /**
     * {@code ibv_destroy_qp}: closes the connection abortively if there is one; every outstanding work
     * request completes with {@link CompletionStatus#WORK_REQUEST_FLUSHED}.
     */
    @Override
    void close();
}
