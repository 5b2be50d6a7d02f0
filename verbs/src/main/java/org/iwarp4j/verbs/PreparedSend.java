package org.iwarp4j.verbs;

/**
 * A send work request validated and built once, posted again and again by {@link #execute()} — the
 * analog of DiSNI's stateful verb calls ({@code SVCPostSend}). Re-executing does not re-validate the
 * scatter/gather list or rebuild the RDMAP operation; it retains the registered memory and hands the
 * request to the queue pair's event loop. The regions must stay registered while it is in use.
 */
public interface PreparedSend extends AutoCloseable {

    /**
     * The request this posts.
     *
     * @return the work request given to {@link QueuePair#prepare}
     */
    SendWorkRequest workRequest();

    /**
     * Posts the request once more (same checks of queue state and capacity as {@code postSend}).
     *
     * @throws VerbsException if the send queue is full or the queue pair cannot send
     */
    void execute();

    /**
     * Posts the request once more unless the send queue is full.
     *
     * @return false, having posted nothing, when the send queue is full
     * @throws VerbsException for any other refusal
     */
    boolean tryExecute();

    /**
     * Releases the references this prepared request holds on its memory (executions in flight keep their own).
     * Closing its queue pair (or RNIC) closes it too; after that {@link #execute()} throws.
     */
    @Override
    void close();
}
