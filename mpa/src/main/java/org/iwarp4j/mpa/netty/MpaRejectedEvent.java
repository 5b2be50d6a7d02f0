package org.iwarp4j.mpa.netty;

import org.iwarp4j.mpa.MpaRejection;

/**
 * The startup ended with a Reply with R=1: sent by this Responder, or received by this Initiator
 * (RFC 5044 §7.1.2 rules 2 and 3). MPA has been left and {@link MpaStartupHandler} removed itself; the
 * TCP connection is still open and the layer above decides (normally: close it).
 *
 * @param rejection the Request, the rejecting Reply and the peer's IRD/ORD (RFC 6581 §9.1)
 */
public record MpaRejectedEvent(MpaRejection rejection) implements MpaStartupEvent {
}
