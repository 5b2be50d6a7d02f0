package org.iwarp4j.verbs.internal;

/**
 * The states of {@link ConnectionLifecycle}: MPA startup (RFC 5044 §7.1, RFC 6581), Full Operation, and the three
 * ways out of it — graceful (RFC 5040 §6.2.1), by Terminate (RFC 5040 §5.4, §7.1) and abortive.
 */
enum ConnectionState {
    /** RFC 5044 §7.1: MPA Request/Reply (Initiator: Reply awaited; Responder: Request awaited or accepted). */
    STARTING,
    /** Responder: the Request waits for the application; rejected unanswered at 4/5 of the startup timeout. */
    AWAITING_DECISION,
    /** Initiator, RFC 6581 §9.3: the RTR must be the first FPDU; ESTABLISHED once MPA took it (MPA-75). */
    AWAITING_RTR,
    /** Full Operation; the queue pair is in RTS. */
    ESTABLISHED,
    /** RFC 5040 §7.1: RDMAP failed here; its Terminate waits to be handed to MPA. */
    TERMINATE_PENDING,
    /** Graceful disconnect (RFC 5040 §6.2.1): the message in progress is finished, no new one starts. */
    CLOSING,
    /** Graceful disconnect, drained: what MPA took is being written; then the stream ends and TCP closes. */
    CLOSING_FLUSH,
    /** A Terminate ends the stream (RFC 5040 §5.4): ours handed to MPA, then a half-close; or the peer's. */
    TERMINATING,
    /** The stream ended (or never started) and TCP is closing: only the end of the channel is awaited. */
    ENDING,
    /** The channel is gone: work flushed, futures complete. Terminal. */
    CLOSED
}
