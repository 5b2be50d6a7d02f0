package org.iwarp4j.verbs.internal;

/**
 * Why a connection did not reach ESTABLISHED, as {@link ConnectionLifecycle} reports it to the adapter, which
 * renders it as a CM event and the failure of the established future.
 *
 * @param kind   what failed
 * @param detail the adapter's message (for MPA's failures), or what the lifecycle knows (the Terminate sent)
 * @param cause  the underlying error, or for the rejections the exception to report
 */
record SetupFailure(Kind kind, String detail, Throwable cause) {

    enum Kind {
        /** Initiator, RFC 5044 §7.1.2 rule 3 (MPA-37): the Reply's private data was refused. */
        REPLY_PRIVATE_DATA_REFUSED,
        /** RFC 6581 §9.1, §9.3 (MPA-69, MPA-74): MPA's negotiation obliges the Initiator to send a Terminate. */
        MPA_NEGOTIATION,
        /** The MPA Reply (or Request) did not come within the startup timeout (RFC 5044 §7.1.2 rules 8, 10). */
        STARTUP_TIMEOUT,
        /** The MPA startup failed otherwise: an invalid frame, a role conflict, the connection closed. */
        STARTUP_FAILED,
        /** A Terminate went out before ESTABLISHED (e.g. RFC 6581 §9.3, MPA-76: an error before the RTR). */
        TERMINATE_SENT,
        /** The connection closed before ESTABLISHED. */
        CONNECTION_CLOSED,
        /** Initiator: the peer rejected the connection (MPA Reply with R=1). */
        REJECTED_BY_PEER,
        /** Responder, RFC 6581 §9.1: MPA rejected the Request itself (IRD below the required ORD); no future. */
        REQUEST_REFUSED
    }
}
