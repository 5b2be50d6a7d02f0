package org.iwarp4j.tools.conformance;

import java.io.IOException;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;

/** Exchanges several checks use to see whether the peer accepted what we sent. */
final class Probes {

    /** The STag and TO we name as Data Sink of our Read Requests. */
    static final int SINK_STAG = 0x5eed0200;
    static final long SINK_TO = 0x10000;

    private Probes() {}

    /**
     * A zero-length RDMA Read Request (RFC 5040 §5.2.1: its source STag is not validated; RFC 6581 §9.2 uses
     * it as the Read RTR): every peer with IRD ≥ 1 answers it with one zero-length Read Response.
     */
    static Segment zeroRead(Session s) {
        return Segment.readRequest(s.readMsn++, SINK_STAG, SINK_TO, 0, 0x1, 0);
    }

    static boolean isZeroReadResponse(SegmentView v) {
        return v.complete() && v.tagged() && v.opcode() == Segment.READ_RESPONSE && v.stag() == SINK_STAG
                && v.to() == SINK_TO && v.last() && v.payload().length == 0;
    }

    /**
     * A Read Response to our Data Sink that carries octets: the wrong answer to a zero-length Read Request (RFC 5040
     * §5.2.1, RDMAP-14: zero size, a zero-length response; siw now and then, FINDINGS C11).
     */
    static Verdict.Problem dataForZeroRead(SegmentView v) {
        if (v.complete() && v.tagged() && v.opcode() == Segment.READ_RESPONSE && v.stag() == SINK_STAG
                && v.payload().length > 0) {
            return new Verdict.Problem("a Read Response of " + v.payload().length + " octets ("
                    + Hex.of(v.payload()) + ") to our zero-length Read Request: " + v.describe(),
                    "zero-read-answered-with-data");
        }
        return null;
    }

    /** Waits for the one zero-length Read Response that answers our zero-length Read Request. */
    static Verdict zeroReadAnswered(Session s) throws IOException {
        return Judge.proceeds(s, ZERO_READ_ANSWER, Probes::isZeroReadResponse, Probes::dataForZeroRead);
    }

    static final String ZERO_READ_ANSWER = "one zero-length RDMA Read Response to our Data Sink (STag 0x5eed0200, "
            + "TO 0x10000, L=1), no Terminate";

    /** Sends {@code request} (a zero-length Read Request) framed with {@code tamper}, and waits for its answer. */
    static Verdict echo(Session s, Segment request, FpduTamper tamper, String label) throws IOException {
        s.wire.sendFpdu(request.toBytes(), tamper, label);
        return zeroReadAnswered(s);
    }

    static Verdict echo(Session s) throws IOException {
        return echo(s, zeroRead(s), FpduTamper.NONE, "zero-length RDMA Read Request");
    }

    /** Octets of an FPDU with an all-zero CRC field (CRC on: a wrong CRC). */
    static byte[] zeroCrc(byte[] fpdu) {
        byte[] b = fpdu.clone();
        for (int i = b.length - 4; i < b.length; i++) {
            b[i] = 0;
        }
        return b;
    }
}
