package org.iwarp4j.tools.conformance;

import static org.iwarp4j.tools.conformance.Judge.cause;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.tools.conformance.Check.Need;
import org.iwarp4j.tools.conformance.Judge.Expect;
import org.iwarp4j.tools.conformance.Judge.Headers;

/** Group 6: RDMAP messages, Read Requests and Terminates (RFC 5040 §4-§7, RFC 7306). */
final class RdmapChecks {

    private static final int UNEXPECTED_OPCODE = cause(0, 2, 6);
    private static final int INVALID_VERSION = cause(0, 2, 5);

    private RdmapChecks() {}

    static void add(Catalog c) {
        c.group("RDMAP (RFC 5040 §4-§7, RFC 7306)");
        for (int rv : new int[] {0, 2, 3}) {
            c.check("answers a Send with RDMAP version " + rv + " with Terminate 0x0/0x2/0x05")
                    .rule("RFC 5040 §4.1, §4.8, §7.2", "RDMAP-01", "RDMAP-31").run(s -> {
                        Segment m = Segment.send(s.sendMsn, new byte[8]).rdmapVersion(rv);
                        return Judge.terminates(s, m, Expect.of(INVALID_VERSION, Headers.DDP, m));
                    });
        }
        c.check("answers an RDMA Write with RDMAP version 0 with Terminate 0x0/0x2/0x05")
                .rule("RFC 5040 §4.1, §7.2", "RDMAP-01", "RDMAP-31").run(s -> {
                    Segment m = Segment.tagged(Segment.WRITE, DdpChecks.UNKNOWN_STAG, 0).payload(8).rdmapVersion(0);
                    // An RFC 5040 receiver may look at the STag first (DDP's checks run before RDMAP's).
                    return Judge.terminates(s, m, Expect.of(INVALID_VERSION, Headers.DDP, m)
                            .or(DdpChecks.invalidStag()));
                });
        for (int op : new int[] {0xC, 0xD, 0xE, 0xF}) {
            c.check(String.format("answers the unassigned opcode 0x%x (untagged) with Terminate 0x0/0x2/0x06", op))
                    .rule("RFC 5040 §4.2, §7.2, RFC 7306 §4.1", "RDMAP-03", "RDMAP-31").run(s -> {
                        Segment m = Segment.untagged(op, Segment.QN_SEND, s.sendMsn).payload(8);
                        return Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m));
                    });
        }
        c.check("answers the opcode 0xF on a tagged segment with a Terminate").rule("RFC 5040 §4.2, §7.2", "RDMAP-03")
                .run(s -> {
                    Segment m = Segment.tagged(0xF, DdpChecks.UNKNOWN_STAG, 0).payload(8);
                    return Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)
                            .or(DdpChecks.invalidStag()));
                });
        c.check("answers a Send on the Read Request queue (QN 1) with Terminate 0x0/0x2/0x06")
                .rule("RFC 5040 §4.2, §5.1", "RDMAP-03").run(s -> {
                    Segment m = Segment.untagged(Segment.SEND, Segment.QN_READ_REQUEST, 1).payload(8);
                    return byOpcode(Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)),
                            "0x1/0x2/0x01");
                });
        c.check("answers a Read Request on the Send queue (QN 0) with Terminate 0x0/0x2/0x06")
                .rule("RFC 5040 §4.2, §5.1", "RDMAP-03").run(s -> {
                    Segment m = Segment.readRequest(1, Probes.SINK_STAG, 0, 8, 1, 0).qn(Segment.QN_SEND);
                    return byOpcode(Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)
                            .or(cause(1, 2, 2)).or(cause(1, 2, 5))), "0x0/0x1/");
                });
        c.check("answers an RDMA Write sent untagged with Terminate 0x0/0x2/0x06").rule("RFC 5040 §4.2", "RDMAP-03")
                .run(s -> {
                    Segment m = Segment.untagged(Segment.WRITE, Segment.QN_SEND, s.sendMsn).payload(8);
                    return byOpcode(Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)),
                            "0x1/0x1/0x00");
                });
        c.check("answers a Read Response sent untagged with Terminate 0x0/0x2/0x06").rule("RFC 5040 §4.2", "RDMAP-03")
                .run(s -> {
                    Segment m = Segment.untagged(Segment.READ_RESPONSE, Segment.QN_SEND, s.sendMsn).payload(8);
                    return byOpcode(Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)),
                            "0x1/0x0/0x00");
                });
        c.check("answers a Send sent tagged with a Terminate").rule("RFC 5040 §4.2", "RDMAP-03").run(s -> {
            Segment m = Segment.tagged(Segment.SEND, DdpChecks.UNKNOWN_STAG, 0).payload(8);
            return byOpcode(Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m)
                    .or(DdpChecks.invalidStag())), "0x1/0x2/0x03");
        });
        c.check("answers a Read Request whose header is cut short with a Terminate").rule("RFC 5040 §4.4",
                "RDMAP-05").run(s -> {
                    byte[] full = Segment.readRequest(s.readMsn, Probes.SINK_STAG, Probes.SINK_TO, 8, 1, 0)
                            .payloadOctets();
                    Segment m = Segment.untagged(Segment.READ_REQUEST, Segment.QN_READ_REQUEST, s.readMsn)
                            .payload(Arrays.copyOf(full, 20));
                    return FramingChecks.stalls(Judge.terminates(s, m, Expect.of(cause(0, 2, 0xFF), Headers.DDP, m)
                            .or(cause(0, 2, 7)).or(UNEXPECTED_OPCODE).or(cause(1, 2, 4)).or(cause(1, 2, 5))));
                });
        c.check("answers a Read Request for an STag it never advertised with Terminate 0x0/0x1/0x00 and R=1")
                .rule("RFC 5040 §4.8, §5.2.1, §7.2", "RDMAP-11", "RDMAP-14", "RDMAP-31").needs(Need.ECHO).run(s -> {
                    Segment m = Segment.readRequest(s.readMsn, Probes.SINK_STAG, Probes.SINK_TO, 16,
                            DdpChecks.UNKNOWN_STAG, 0);
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 0), Headers.DDP_AND_READ, m)
                            .or(cause(0, 1, 3)));
                });
        c.check("answers a Read Request running 8 octets past the buffer with Terminate 0x0/0x1/0x01 and R=1")
                .rule("RFC 5040 §5.2.1, §7.2", "RDMAP-14", "RDMAP-31").needs(Need.READABLE_STAG).run(s -> {
                    Segment m = Segment.readRequest(s.readMsn, Probes.SINK_STAG, Probes.SINK_TO, 16, s.buffer.stag(),
                            s.buffer.to() + s.buffer.length() - 8);
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 1), Headers.DDP_AND_READ, m));
                });
        c.check("answers a Read Request 1 GiB past the buffer with Terminate 0x0/0x1/0x01 and R=1")
                .rule("RFC 5040 §5.2.1, §7.2", "RDMAP-14", "RDMAP-31").needs(Need.READABLE_STAG).run(s -> {
                    Segment m = Segment.readRequest(s.readMsn, Probes.SINK_STAG, Probes.SINK_TO, 16, s.buffer.stag(),
                            s.buffer.to() + (1L << 30));
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 1), Headers.DDP_AND_READ, m));
                });
        c.check("answers a Read Request whose source TO + size wraps 2^64 with Terminate 0x0/0x1/0x04 and R=1")
                .rule("RFC 5040 §5.2.1, §7.2", "RDMAP-14", "RDMAP-31").needs(Need.READABLE_STAG).run(s -> {
                    Segment m = Segment.readRequest(s.readMsn, Probes.SINK_STAG, Probes.SINK_TO, 16, s.buffer.stag(),
                            -8L);
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 4), Headers.DDP_AND_READ, m)
                            .or(cause(0, 1, 1)));
                });
        c.check("answers a Read Request within the buffer with Read Responses to our Data Sink")
                .rule("RFC 5040 §4.5, §5.2.2", "RDMAP-06", "RDMAP-14", "RDMAP-15", "DDP-03", "DDP-17")
                .needs(Need.READABLE_STAG).run(RdmapChecks::readResponse);
        c.check("answers a zero-length Read Request with one zero-length Read Response").rule("RFC 5040 §5.2.1, "
                + "RFC 5041 §5.2", "RDMAP-14", "RDMAP-06", "DDP-19").needs(Need.ECHO).run(Probes::echo);
        c.check("answers Read Requests beyond its IRD with a Terminate").rule("RFC 5040 §5.2.2, §6.1, RFC 6581 §9.1",
                "RDMAP-15", "RDMAP-16").needs(Need.READABLE_STAG).run(s -> {
                    int ird = s.peerIrd();
                    if (ird < 0 || ird > 16) {
                        return Verdict.skip("the peer's IRD is " + (ird < 0 ? "unknown (Rev 1 or S=0)" : ird)
                                + ": too many Read Requests to send at once");
                    }
                    int n = Math.max(1, ird) * 2 + 2;
                    List<byte[]> fpdus = new ArrayList<>();
                    Segment last = null;
                    for (int i = 0; i < n; i++) {
                        last = Segment.readRequest(s.readMsn++, Probes.SINK_STAG, Probes.SINK_TO + 8L * i, 8,
                                s.buffer.stag(), s.buffer.to());
                        fpdus.add(s.wire.frame(last.toBytes(), FpduTamper.NONE));
                    }
                    s.wire.send(concat(fpdus), n + " Read Requests of 8 octets in one segment (IRD " + ird + ")");
                    // Which request overflowed depends on how fast the peer answers: the copied header is not judged.
                    return Judge.terminate(s, s.observe(), Expect.of(cause(1, 2, 2), Headers.DDP, null)
                            .or(cause(0, 2, 7)).or(cause(1, 2, 3)));
                });
        c.check("answers a Send with Invalidate of an STag it never had with Terminate 'STag cannot be invalidated'")
                .rule("RFC 5040 §5.3, §7.2", "RDMAP-18", "RDMAP-31").needs(Need.RECEIVE).run(s -> {
                    Segment m = Segment.untagged(Segment.SEND_INVALIDATE, Segment.QN_SEND, s.sendMsn)
                            .reservedUlp(DdpChecks.UNKNOWN_STAG).payload(8);
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 9), Headers.DDP, m).or(cause(0, 2, 9))
                            .or(cause(0, 1, 0)));
                });
        c.check("answers a Send with SE and Invalidate of an STag it never had with 'STag cannot be invalidated'")
                .rule("RFC 5040 §5.3, §7.2", "RDMAP-18").needs(Need.RECEIVE).run(s -> {
                    Segment m = Segment.untagged(Segment.SEND_SE_INVALIDATE, Segment.QN_SEND, s.sendMsn)
                            .reservedUlp(DdpChecks.UNKNOWN_STAG).payload(8);
                    return Judge.terminates(s, m, Expect.of(cause(0, 1, 9), Headers.DDP, m).or(cause(0, 2, 9))
                            .or(cause(0, 1, 0)));
                });
        c.check("ignores the reserved bits of the RDMAP control field").rule("RFC 5040 §4.1", "RDMAP-02")
                .needs(Need.ECHO).run(s -> Probes.echo(s, Probes.zeroRead(s).rdmapReserved(3), FpduTamper.NONE,
                        "zero-length Read Request, RDMAP Rsvd bits 11"));
        c.check("ignores the Invalidate STag field of a Read Request").rule("RFC 5040 §4.1", "RDMAP-04")
                .needs(Need.ECHO).run(s -> Probes.echo(s, Probes.zeroRead(s).reservedUlp(0x12345678), FpduTamper.NONE,
                        "zero-length Read Request, Invalidate STag field 0x12345678"));
        c.check("answers Immediate Data of 4 octets (not 8) with a Terminate").rule("RFC 7306 §6.2, §8.2", "EXT-02",
                "EXT-14").needs(Need.RECEIVE).run(s -> {
                    Segment m = Segment.untagged(Segment.IMMEDIATE_DATA, Segment.QN_SEND, s.sendMsn).payload(4);
                    // An RFC 5040-only peer knows no opcode 0x8: 0x0/0x2/0x06 is then its right answer.
                    return Judge.terminates(s, m, Expect.of(cause(0, 2, 0xFF), Headers.DDP, m).or(UNEXPECTED_OPCODE)
                            .or(cause(0, 2, 7)));
                });
        c.check("answers an Atomic Request with an unknown AOpCode with Terminate 0x0/0x2/0x06")
                .rule("RFC 7306 §5.2.1", "EXT-10").needs(Need.ECHO).run(s -> {
                    Segment m = atomic(s.readMsn, 0x1, 0);
                    return Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m));
                });
        c.check("answers a FetchAdd at a TO that is not 8-aligned with Terminate 0x0/0x2/0x07")
                .rule("RFC 7306 §5.1, §8.2", "EXT-04", "EXT-14").needs(Need.ECHO).run(s -> {
                    Segment m = atomic(s.readMsn, 0x0, 3);
                    // An RFC 5040-only peer answers the opcode itself (0x0/0x2/0x06).
                    return Judge.terminates(s, m, Expect.of(cause(0, 2, 7), Headers.DDP, m).or(UNEXPECTED_OPCODE));
                });
        c.check("answers an Atomic Response nobody asked for with a Terminate").rule("RFC 7306 §5.2.2, RFC 5041 §7.1",
                "EXT-11", "DDP-28").run(s -> {
                    Segment m = Segment.untagged(Segment.ATOMIC_RESPONSE, Segment.QN_ATOMIC_RESPONSE, 1).payload(12);
                    return Judge.terminates(s, m, Expect.of(UNEXPECTED_OPCODE, Headers.DDP, m).or(cause(1, 2, 1))
                            .or(cause(1, 2, 2)).or(cause(1, 2, 3)));
                });
        c.check("sends no second Terminate for a second error").rule("RFC 5040 §5.4", "RDMAP-19").run(s -> {
            Segment a = Segment.tagged(Segment.WRITE, DdpChecks.UNKNOWN_STAG, 0).payload(16);
            Segment b = Segment.tagged(Segment.WRITE, DdpChecks.UNKNOWN_STAG + 1, 0).payload(16);
            s.wire.send(concat(List.of(s.wire.frame(a.toBytes(), FpduTamper.NONE), s.wire.frame(b.toBytes(),
                    FpduTamper.NONE))), "two RDMA Writes to unknown STags in one segment");
            return Judge.terminate(s, s.observe(), Expect.of(DdpChecks.invalidStag(), Headers.DDP, a)
                    .or(cause(1, 1, 2)));
        });
        c.check("acts on nothing that follows the error it terminated for").rule("RFC 5041 §7.1, RFC 5040 §5.4",
                "DDP-30", "RDMAP-19").needs(Need.ECHO).run(s -> {
                    Segment a = Segment.tagged(Segment.WRITE, DdpChecks.UNKNOWN_STAG, 0).payload(16);
                    s.wire.send(concat(List.of(s.wire.frame(a.toBytes(), FpduTamper.NONE),
                            s.wire.frame(Probes.zeroRead(s).toBytes(), FpduTamper.NONE))),
                            "RDMA Write to an unknown STag + zero-length Read Request in one segment");
                    Session.Observation o = s.observe();
                    for (DecodedFpdu f : o.fpdus()) {
                        if (Probes.isZeroReadResponse(SegmentView.parse(f.ulpdu()))) {
                            return Verdict.fail("a Terminate and no Read Response", "a Read Response to the request "
                                    + "that followed the error");
                        }
                    }
                    return Judge.terminate(s, o, Expect.of(DdpChecks.invalidStag(), Headers.DDP, a).or(cause(1, 1, 2)));
                });
        c.check("closes without answering when we Terminate (Local Catastrophic)").rule("RFC 5040 §4.8, §5.4",
                "RDMAP-19", "RDMAP-29").run(s -> theyClose(s, Segment.terminate(0, 0, 0, false, false, false,
                new byte[0])));
        c.check("closes without answering when we Terminate for a CRC error").rule("RFC 5040 §5.4, RFC 5044 §8",
                "RDMAP-19").run(s -> theyClose(s, Segment.terminate(2, 0, 2, false, false, false, new byte[0])));
        c.check("closes without answering a Terminate whose own RDMAP version is 0").rule("RFC 5040 §5.4",
                "RDMAP-19").run(s -> {
                    Verdict v = theyClose(s, Segment.terminate(0, 2, 7, false, false, false, new byte[0])
                            .rdmapVersion(0));
                    return Judge.explainedBy(v, v.actual().contains("(Terminate)"), "answers-bad-version-terminate");
                });
    }

    /** An Atomic Request (RFC 7306 §4.5) for the given AOpCode at our (unknown to the peer) STag 1, {@code to}. */
    static Segment atomic(int msn, int aopcode, long to) {
        ByteBuffer b = ByteBuffer.allocate(52);
        b.putInt(aopcode & 0xF).putInt(0x1).putInt(0).putLong(to).putLong(1).putLong(0).putLong(0).putLong(0);
        return Segment.untagged(Segment.ATOMIC_REQUEST, Segment.QN_READ_REQUEST, msn).payload(Arrays
                .copyOf(b.array(), 52));
    }

    private static Verdict readResponse(Session s) throws IOException {
        int size = Math.min(s.buffer.length(), 64);
        Segment m = Segment.readRequest(s.readMsn++, Probes.SINK_STAG, Probes.SINK_TO, size, s.buffer.stag(),
                s.buffer.to());
        s.wire.sendFpdu(m.toBytes(), "RDMA Read Request of " + size + " octets");
        String expected = "tagged Read Responses (opcode 0x2) to STag 0x5eed0200 from TO 0x10000 upwards, " + size
                + " octets in all, L=1 on the last only";
        long deadline = s.deadline();
        long next = Probes.SINK_TO;
        while (true) {
            Wire.Next n = s.wire.nextFpdu(deadline);
            if (!n.isFpdu()) {
                return Verdict.fail(expected, "after " + (next - Probes.SINK_TO) + " octets: "
                        + Session.endWords(n.end()));
            }
            SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
            if (!v.tagged() || v.opcode() != Segment.READ_RESPONSE) {
                if (v.isTerminate()) {
                    return Verdict.fail(expected, "a Terminate "
                            + v.terminate().reading(SegmentView.Terminate.Layout.RFC).cause());
                }
                continue; // the application's own messages
            }
            if (v.stag() != Probes.SINK_STAG || v.to() != next) {
                return Verdict.fail(expected, v.describe());
            }
            next += v.payload().length;
            if (next - Probes.SINK_TO > size) {
                return Verdict.fail(expected, "more than " + size + " octets: " + v.describe());
            }
            if (v.last()) {
                return next - Probes.SINK_TO == size ? Verdict.pass(expected, v.describe())
                        : Verdict.fail(expected, "L=1 after " + (next - Probes.SINK_TO) + " octets");
            }
        }
    }

    /** We send {@code terminate}; the peer sends nothing more (not even a Terminate) and closes. */
    /**
     * A Terminate of {@code cause} (its L/E/C words' prefix) for a message whose opcode does not fit its queue or
     * its T bit: the peer parsed it by its opcode alone (header layout, queue), so the copied header and segment
     * length are those of that reading.
     */
    private static Verdict byOpcode(Verdict v, String cause) {
        return Judge.explainedBy(v, v.actual().startsWith("Terminate " + cause), "opcode-decides-layout");
    }

    private static Verdict theyClose(Session s, Segment terminate) throws IOException {
        s.wire.sendFpdu(terminate.toBytes(), "our Terminate");
        Session.Observation o = s.observe();
        String expected = "no FPDU (a Terminate is not answered); the connection closed";
        if (!o.fpdus().isEmpty()) {
            return Verdict.fail(expected, o.fpdus().size() + " FPDU(s), the first "
                    + SegmentView.parse(o.fpdus().get(0).ulpdu()).describe());
        }
        return !o.end().closed() ? Verdict.fail(expected, "not closed after "
                + s.options.checkTimeoutMillis() + " ms")
                : Verdict.pass(expected, o.end() + " at " + o.endMillis() + " ms");
    }

    static byte[] concat(List<byte[]> parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        parts.forEach(b::put);
        return b.array();
    }
}
