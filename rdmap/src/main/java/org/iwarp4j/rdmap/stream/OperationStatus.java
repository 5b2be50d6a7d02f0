package org.iwarp4j.rdmap.stream;

/**
 * How a send-queue operation or a posted receive ended. Every status except {@link #SUCCESS} means the
 * stream is (or went) into its error state; the Terminate involved is available from
 * {@link RdmapStream#terminateSent()} / {@link RdmapStream#terminateReceived()}.
 */
public enum OperationStatus {
    /** Completed: for Write/Send/Immediate Data the lower layer took it, for Read/Atomic the response was delivered. */
    SUCCESS,
    /** This stream detected an error caused by (or while building) this operation and sent a Terminate. */
    LOCAL_ERROR,
    /**
     * The peer's Terminate names this operation's message with a protection error (RDMAP Remote Protection or DDP
     * tagged/untagged buffer error).
     */
    REMOTE_ACCESS_ERROR,
    /** The peer's Terminate names this operation's message with another error (e.g. Remote Operation). */
    REMOTE_OPERATION_ERROR,
    /**
     * The stream entered its error state (Terminate sent or received, connection lost, closed) before the operation
     * completed.
     */
    FLUSHED
}
