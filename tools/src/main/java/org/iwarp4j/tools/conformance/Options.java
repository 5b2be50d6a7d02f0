package org.iwarp4j.tools.conformance;

/**
 * How the tool talks to the peer.
 *
 * @param app                  the peer's application protocol
 * @param crc                  ask for CRCs (C=1) in our frames (RFC 5044 §4.4: the default)
 * @param ird                  our IRD in our frames (RFC 6581 §9.1)
 * @param ord                  our ORD
 * @param rpingSize            the rping buffer size we advertise ({@code -S} of the peer's rping)
 * @param checkTimeoutMillis   the bound of each wait of a check
 * @param closeWaitMillis      how long after a Terminate the peer has to close the connection
 * @param startupTimeoutMillis how long a check waits for the peer to time out a startup that stalls
 * @param firstFpduDelayMillis responder role: pause between the Reply and our first FPDU (Linux siw can strand
 *                             an FPDU that arrives before it has handed the socket to the QP: FINDINGS M15)
 */
record Options(App app, boolean crc, int ird, int ord, int rpingSize, long checkTimeoutMillis, long closeWaitMillis,
               long startupTimeoutMillis, long firstFpduDelayMillis) {

    static Options defaults(App app) {
        return new Options(app, true, 4, 4, 64, 5000, 2000, 30000, 50);
    }
}
