package org.iwarp4j.verbs;

/**
 * A shared receive queue ({@code ibv_srq}): receives posted here are taken by whichever attached queue
 * pair receives a Send next, at the moment the message arrives. If none is left, that queue pair's peer
 * gets a Terminate (iWARP has no RNR).
 */
public interface SharedReceiveQueue extends AutoCloseable {

    /** {@code ibv_post_srq_recv}. */
    void postReceive(ReceiveWorkRequest request) throws VerbsException;

    int capacity();

    /** Receives posted and not yet taken. */
    int available();

    /** Completes nothing (taken receives complete on their queue pair); untaken receives are dropped. */
    @Override
    void close();
}
