package org.iwarp4j.mpa.netty;

import org.iwarp4j.mpa.MpaException;

/**
 * The startup failed; {@link MpaStartupHandler} removed itself.
 *
 * @param reason           what went wrong
 * @param cause            the error: 0x04 for an invalid Request/Reply (the connection is closed at once,
 *                         RFC 5044 §7.1.2), 0x01 for a closed connection or a timeout
 * @param connectionClosed whether MPA closed (or found closed) the TCP connection
 */
public record MpaStartupFailedEvent(Reason reason, MpaException cause, boolean connectionClosed)
        implements MpaStartupEvent {

    /** Why the startup failed. */
    public enum Reason {
        /** A malformed Request/Reply, or one this endpoint cannot work with (0x04). */
        INVALID_FRAME,
        /** Both ends took the same role: a Request at the Initiator or a Reply at the Responder (0x04). */
        ROLE_CONFLICT,
        /** The startup (or the wait for the Request) timed out (RFC 5044 §7.1.2 rules 8 and 10; 0x01). */
        TIMEOUT,
        /** The peer closed or reset the connection during startup (0x01). */
        CONNECTION_CLOSED,
        /** A local failure (e.g. the user's decision could not be applied). */
        LOCAL_ERROR
    }
}
