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
 * @param perftest             {@code --app perftest}: the program the server runs
 * @param perftestSize         {@code --app perftest}: the server's {@code -s}
 * @param perftestIterations   {@code --app perftest}: the server's {@code -n} ({@code ib_send_bw}'s receives)
 */
record Options(App app, boolean crc, int ird, int ord, int rpingSize, long checkTimeoutMillis, long closeWaitMillis,
               long startupTimeoutMillis, long firstFpduDelayMillis, PerftestExchange.Program perftest,
               int perftestSize, long perftestIterations) {

    static Options defaults(App app) {
        return new Options(app, true, 4, 4, 64, 5000, 2000, 30000, 50, PerftestExchange.Program.WRITE, 65536, 1000);
    }

    /** The same with our IRD and ORD set to {@code irdOrd} (perftest's control connection: 0). */
    Options withIrdOrd(int irdOrd) {
        return new Options(app, crc, irdOrd, irdOrd, rpingSize, checkTimeoutMillis, closeWaitMillis,
                startupTimeoutMillis, firstFpduDelayMillis, perftest, perftestSize, perftestIterations);
    }
}
