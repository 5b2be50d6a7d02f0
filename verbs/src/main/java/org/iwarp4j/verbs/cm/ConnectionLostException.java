package org.iwarp4j.verbs.cm;

/**
 * The TCP connection under an iWARP connection was reset or failed (RFC 5044 §8, LLP error 0x01): the cause
 * of a {@link CmEvent.Disconnected} with {@link DisconnectReason#PEER_RESET},
 * {@link DisconnectReason#TRANSPORT_ERROR} or {@link DisconnectReason#DISCONNECT_TIMEOUT}.
 */
public final class ConnectionLostException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened
     * @param cause   the I/O error, or {@code null}
     */
    public ConnectionLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
