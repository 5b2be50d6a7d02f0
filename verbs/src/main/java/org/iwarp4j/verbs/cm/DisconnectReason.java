package org.iwarp4j.verbs.cm;

/** Why a connection ended ({@link CmEvent.Disconnected#reason()}). */
public enum DisconnectReason {
    /** This side's {@link Connection#disconnect()}: the message in progress was finished, then TCP closed. */
    LOCAL_DISCONNECT,
    /** This side's {@link Connection#close()} (or the queue pair's or RNIC's close): TCP reset, work flushed. */
    LOCAL_CLOSE,
    /** The peer closed TCP between two FPDUs (a FIN): its graceful disconnect, RFC 5040 §6.2. */
    PEER_DISCONNECT,
    /** The peer reset TCP: its abortive close, or a peer that went away with data unread. */
    PEER_RESET,
    /** This side found a protocol error and sent a Terminate (RFC 5040 §5.4). */
    TERMINATE_SENT,
    /**
     * This side found a protocol error before it had validated the Initiator's first FPDU, so it could send no
     * Terminate (RFC 5044 §7.1.2 rule 4) and closed the connection.
     */
    TERMINATE_WITHHELD,
    /** The peer sent a Terminate. */
    TERMINATE_RECEIVED,
    /** TCP failed: an I/O error, or the peer closed in the middle of an FPDU. */
    TRANSPORT_ERROR,
    /**
     * TCP gave up on the peer (ETIMEDOUT): its keepalive probes went unanswered, or octets sent stayed
     * unacknowledged beyond {@code TCP_USER_TIMEOUT} ({@link TcpKeepalive}) or the kernel's retransmission limit.
     */
    TCP_TIMEOUT,
    /** A graceful disconnect did not finish within the disconnect timeout and was made abortive. */
    DISCONNECT_TIMEOUT,
    /**
     * The peer sent nothing for the queue pair's response timeout while it owed a Read or Atomic Response
     * ({@code QueuePairConfig.responseTimeout}, RFC 5044 §7.1.2 rule 10); this side closed the connection.
     */
    RESPONSE_TIMEOUT;

    /**
     * Whether the connection ended as intended by one side, with nothing lost in transit.
     *
     * @return true for {@link #LOCAL_DISCONNECT}, {@link #LOCAL_CLOSE} and {@link #PEER_DISCONNECT}
     */
    public boolean isClean() {
        return this == LOCAL_DISCONNECT || this == LOCAL_CLOSE || this == PEER_DISCONNECT;
    }
}
