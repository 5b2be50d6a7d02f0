package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.Terminate;

/**
 * Why a connection ended, as {@link ConnectionLifecycle} decided it: the first event that sealed its fate.
 *
 * @param reason    why
 * @param terminate the Terminate that ended it (sent, withheld or received), if one was involved
 */
record ConnectionEnd(Reason reason, Terminate terminate) {

    enum Reason {
        /** The application disconnected gracefully (RFC 5040 §6.2.1). */
        LOCAL_DISCONNECT,
        /** The application closed abortively (TCP RST). */
        LOCAL_ABORT,
        /** A graceful disconnect did not finish within the disconnect timeout and turned abortive. */
        DISCONNECT_TIMEOUT,
        /** The peer closed TCP (FIN) at an FPDU boundary. */
        PEER_CLOSED,
        /** The peer closed TCP (FIN) inside an FPDU (RFC 5044 §8: 0x01 while data was expected). */
        PEER_CLOSED_INSIDE_FPDU,
        /** The peer reset TCP (RST), a normal way for a peer to disconnect (interop/FINDINGS.md F7). */
        PEER_RESET,
        /** TCP failed (an I/O error other than a reset or a timeout). */
        TRANSPORT_ERROR,
        /** TCP gave up on the peer (ETIMEDOUT): keepalive or TCP_USER_TIMEOUT expired, or retransmission. */
        TCP_TIMEOUT,
        /** This side detected an error and sent its Terminate (RFC 5040 §7.1). */
        TERMINATE_SENT,
        /** This side detected an error whose Terminate could not be sent (RFC 5044 §7.1.2 rule 4, or a failure). */
        TERMINATE_WITHHELD,
        /** The peer sent a Terminate (RFC 5040 §5.4). */
        TERMINATE_RECEIVED,
        /** The peer went silent while it owed a Read or Atomic Response (QueuePairConfig.responseTimeout). */
        RESPONSE_TIMEOUT,
        /** The connection never reached ESTABLISHED. */
        SETUP_FAILED
    }
}
