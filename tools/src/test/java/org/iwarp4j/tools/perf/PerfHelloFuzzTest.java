package org.iwarp4j.tools.perf;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The perf tool's private-data parsers on any octets from the network: the server's reading of a
 * client's hello, the client's reading of the server's welcome. Each either refuses with an
 * {@link IllegalArgumentException} (the server answers that with an MPA Reply R=1 and the reason; the
 * client reports it) or returns a value within the limits the server sizes memory by, which encodes to
 * a hello/welcome that decodes to the same value. Anything else escaping is a finding.
 */
class PerfHelloFuzzTest {

    @FuzzTest
    void hello(byte[] privateData) {
        PerfHello h;
        try {
            h = PerfHello.decode(privateData);
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal without a reason", refused);
            }
            return;
        }
        if (h.maxSize() < 1 || h.maxSize() > PerfOptions.MAX_SIZE
                || h.txDepth() < 1 || h.txDepth() > PerfOptions.MAX_TX_DEPTH
                || (long) h.txDepth() * h.qps() > PerfOptions.MAX_IN_FLIGHT
                || h.qps() < 1 || h.qps() > PerfOptions.MAX_QPS || h.qpIndex() >= h.qps()
                || h.verifyBufferSize() < 0 || h.verifyBufferSize() > PerfConfig.VERIFY_BUFFER_MAX) {
            throw new AssertionError("accepted a hello beyond the limits: " + h);
        }
        PerfHello again = PerfHello.decode(h.encode());
        if (!again.equals(h)) {
            throw new AssertionError("round trip " + h + " -> " + again);
        }
    }

    @FuzzTest
    void welcome(byte[] privateData) {
        PerfWelcome w;
        try {
            w = PerfWelcome.decode(privateData);
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal without a reason", refused);
            }
            return;
        }
        PerfWelcome again = PerfWelcome.decode(w.encode());
        if (!again.equals(w)) {
            throw new AssertionError("round trip " + w + " -> " + again);
        }
    }
}
