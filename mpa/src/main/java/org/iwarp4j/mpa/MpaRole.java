package org.iwarp4j.mpa;

/**
 * The two MPA roles (RFC 5044 §7.1). The Initiator sends the MPA Request; it is not necessarily
 * the side that opened the TCP connection. The Responder answers with the MPA Reply.
 */
public enum MpaRole {
    /** Sends the MPA Request and waits for the Reply. */
    INITIATOR,
    /** Waits for the MPA Request and answers with the Reply. */
    RESPONDER
}
