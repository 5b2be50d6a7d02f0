package org.iwarp4j.verbs;

/**
 * A shared receive queue ({@code ibv_srq}): receives posted here are taken by whichever attached queue
 * pair receives a Send next, at the moment the message arrives. If none is left, that queue pair's peer
 * gets a Terminate (iWARP has no RNR).
 */
public interface SharedReceiveQueue extends AutoCloseable {

    /**
     * {@code ibv_post_srq_recv}.
     *
     * @param request the receive
     * @throws VerbsException refused (a full queue: {@link VerbsException.Reason#QUEUE_FULL})
     */
    void postReceive(ReceiveWorkRequest request);

    /**
     * {@code ibv_post_srq_recv} unless the queue is full.
     *
     * @param request the receive
     * @return false, having posted nothing, when the queue is full
     */
    boolean tryPostReceive(ReceiveWorkRequest request);

    /**
     * The receives the queue holds.
     *
     * @return the capacity
     */
    int capacity();

    /**
     * Receives posted and not yet taken.
     *
     * @return how many
     */
    int available();

    /** Completes nothing (taken receives complete on their queue pair); untaken receives are dropped. */
    @Override
    void close();
}
