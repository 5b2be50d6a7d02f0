package org.iwarp4j.tools.conformance;

import java.util.Arrays;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.oracle.StartupFrame;

/** Group 3: FPDU framing in Full Operation (RFC 5044 §4-§6). */
final class FramingChecks {

    private FramingChecks() {}

    static void add(Catalog c) {
        c.group("FPDU framing (RFC 5044 §4, §5, §6)");
        c.check("closes without a Terminate when our first FPDU has a bad CRC").rule("RFC 5044 §4.4, §7.1.2 r4",
                "MPA-13", "MPA-38").role(Role.RESPONDER).run(s -> {
                    if (!s.crcOn()) {
                        return Verdict.skip("CRCs are off on this connection (run with CRCs on)");
                    }
                    s.wire.sendFpdu(Probes.zeroRead(s).toBytes(), FpduTamper.BAD_CRC, "first FPDU, CRC bit flipped");
                    Verdict v = Judge.closesQuietly(s, s.observe(), "no FPDU (it has validated none of ours, so it "
                            + "may send nothing, not even a Terminate); the connection closed");
                    return Judge.explainedBy(v,
                            v.actual().startsWith("1 FPDU(s)") && v.actual().contains("(Terminate)"),
                            "terminates-bad-first-fpdu");
                });
        c.check("answers an FPDU with a bad CRC with Terminate 0x2/0x0/0x02").rule("RFC 5044 §4.4, §6, §8",
                "MPA-13", "MPA-43", "MPA-44").needs(Check.Need.ECHO).run(s -> {
                    if (!s.crcOn()) {
                        return Verdict.skip("CRCs are off on this connection (run with CRCs on)");
                    }
                    Verdict first = firstValid(s);
                    if (first != null) {
                        return first;
                    }
                    Segment bad = Segment.tagged(Segment.WRITE, 0x1, 0);
                    s.wire.sendFpdu(bad.toBytes(), FpduTamper.BAD_CRC, "zero-length Write, CRC bit flipped");
                    return Judge.terminate(s, s.observe(), Judge.Expect.of(Judge.cause(2, 0, 2), Judge.Headers.NONE,
                            null));
                });
        c.check("answers an FPDU whose CRC field is zero with Terminate 0x2/0x0/0x02").rule("RFC 5044 §4.4",
                "MPA-13").needs(Check.Need.ECHO).run(s -> {
                    if (!s.crcOn()) {
                        return Verdict.skip("CRCs are off on this connection (run with CRCs on)");
                    }
                    Verdict first = firstValid(s);
                    if (first != null) {
                        return first;
                    }
                    s.wire.send(Probes.zeroCrc(s.wire.frame(Segment.tagged(Segment.WRITE, 1, 0).toBytes(),
                            FpduTamper.NONE)), "zero-length Write, CRC field 00000000");
                    return Judge.terminate(s, s.observe(), Judge.Expect.of(Judge.cause(2, 0, 2), Judge.Headers.NONE,
                            null));
                });
        c.check("answers a PAD that is not covered by the CRC with Terminate 0x2/0x0/0x02")
                .rule("RFC 5044 §4.1, §4.4", "MPA-09").needs(Check.Need.ECHO).run(s -> {
                    if (!s.crcOn()) {
                        return Verdict.skip("CRCs are off on this connection (run with CRCs on)");
                    }
                    Verdict first = firstValid(s);
                    if (first != null) {
                        return first;
                    }
                    s.wire.sendFpdu(Segment.send(s.sendMsn, new byte[1]).toBytes(), FpduTamper.NONZERO_PAD_UNCOVERED,
                            "Send of 1 octet, PAD 0xff not in the CRC");
                    return Judge.terminate(s, s.observe(), Judge.Expect.of(Judge.cause(2, 0, 2), Judge.Headers.NONE,
                            null));
                });
        c.check("ignores the contents of PAD octets").rule("RFC 5044 §4.1", "MPA-06")
                .needs(Check.Need.ECHO, Check.Need.WRITABLE_STAG).caution("writes 1 octet into the peer's buffer")
                .run(s -> {
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, s.buffer.stag(), s.buffer.to())
                            .payload(new byte[] {1}).toBytes(), FpduTamper.NONZERO_PAD,
                            "RDMA Write of 1 octet (3 PAD octets), PAD 0xff");
                    return Probes.echo(s);
                });
        c.check("takes an FPDU that arrives one octet per TCP segment").rule("RFC 5044 §5.1, Appendix A.4", "MPA-23")
                .needs(Check.Need.ECHO).run(s -> {
                    s.wire.sendInPieces(s.wire.frame(Probes.zeroRead(s).toBytes(), FpduTamper.NONE), 1,
                            "zero-length Read Request");
                    return splitCrc(Probes.zeroReadAnswered(s));
                });
        c.check("takes two FPDUs in one TCP segment").rule("RFC 5044 §5.1", "MPA-22", "MPA-23")
                .needs(Check.Need.ECHO).run(s -> {
                    byte[] a = s.wire.frame(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), FpduTamper.NONE);
                    byte[] b = s.wire.frame(Probes.zeroRead(s).toBytes(), FpduTamper.NONE);
                    byte[] both = Arrays.copyOf(a, a.length + b.length);
                    System.arraycopy(b, 0, both, a.length, b.length);
                    s.wire.send(both, "zero-length Write + zero-length Read Request in one segment");
                    return Probes.zeroReadAnswered(s);
                });
        c.check("takes an FPDU split across two TCP segments at its CRC").rule("RFC 5044 §5.1", "MPA-23")
                .needs(Check.Need.ECHO).run(s -> {
                    byte[] f = s.wire.frame(Probes.zeroRead(s).toBytes(), FpduTamper.NONE);
                    s.wire.send(Arrays.copyOf(f, f.length - 2), "zero-length Read Request, all but 2 octets");
                    Session.pause(50);
                    s.wire.send(Arrays.copyOfRange(f, f.length - 2, f.length), "its last 2 octets");
                    return splitCrc(Probes.zeroReadAnswered(s));
                });
        c.check("rejects an FPDU whose ULPDU is shorter than any DDP header").rule("RFC 5041 §4.4, RFC 5044 §4.1",
                "DDP-13").run(s -> {
                    s.wire.sendFpdu(new byte[] {0x41, 0x43}, "FPDU with a 2-octet ULPDU");
                    return stalls(rejects(s));
                });
        c.check("rejects an empty FPDU (ULPDU_Length 0)").rule("RFC 5041 §4.4, RFC 5044 §4.1", "DDP-13")
                .run(s -> {
                    s.wire.sendFpdu(new byte[0], "FPDU with ULPDU_Length 0");
                    return stalls(rejects(s));
                });
        c.check("frames its own FPDUs correctly: length, PAD, CRC").rule("RFC 5044 §4.1, §4.4", "MPA-05", "MPA-06",
                "MPA-09").needs(Check.Need.ECHO).run(s -> {
                    s.wire.sendFpdu(Probes.zeroRead(s).toBytes(), "zero-length Read Request");
                    Wire.Next n = s.wire.nextFpdu(s.deadline());
                    String expected = "a well-framed FPDU" + (s.crcOn() ? " with a valid CRC32c" : "");
                    if (!n.isFpdu()) {
                        return Verdict.fail(expected, Session.endWords(n.end()));
                    }
                    DecodedFpdu f = n.fpdu();
                    boolean ok = f.problems().isEmpty() || (!s.crcOn() && f.problems().stream()
                            .allMatch(p -> p.contains("CRC")));
                    return ok ? Verdict.pass(expected, SegmentView.parse(f.ulpdu()).describe())
                            : Verdict.fail(expected, String.join("; ", f.problems()));
                });
        c.check("with markers negotiated, answers a marker that points wrong with Terminate 0x2/0x0/0x03")
                .rule("RFC 5044 §4.3, §8", "MPA-15", "MPA-18", "MPA-43").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    StartupFrame r = s.exchange(s.request().markers(true));
                    if (r == null || r.rejected()) {
                        return Verdict.skip("the peer does not accept markers (it rejected M=1)");
                    }
                    if (!r.markers()) {
                        return Verdict.skip("the peer sends markers but wants none from us (M=0 in its Reply)");
                    }
                    s.enterFullOperation();
                    Session.pause(s.options.firstFpduDelayMillis());
                    // The first FPDU starts at stream offset 0: its leading marker is the one we bend.
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), "zero-length Write");
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, 1, 0).payload(600).toBytes(),
                            FpduTamper.BAD_MARKER_FPDUPTR, "Write spanning a marker that points 4 octets too far");
                    return Judge.terminate(s, s.observe(), Judge.Expect.of(Judge.cause(2, 0, 3), Judge.Headers.NONE,
                            null).or(Judge.cause(2, 0, 2)));
                });
    }

    /** A Terminate for a CRC error (0x2/0x0/0x02 bit-mirrored reads 0x0/0x2/0x02) for an FPDU we split. */
    static Verdict splitCrc(Verdict v) {
        return Judge.explainedBy(v, v.actual().startsWith("Terminate 0x0/0x2/0x02")
                || v.actual().startsWith("Terminate 0x2/0x0/0x02"), "split-fpdu-crc-error");
    }

    /** Neither a Terminate nor a close for a segment too short to parse: the peer waits for more octets. */
    static Verdict stalls(Verdict v) {
        return Judge.explainedBy(v, v.actual().startsWith("no Terminate and no close"), "short-segment-stalls");
    }

    /** Responder role: a valid first FPDU and its answer before the defect (so the peer may send a Terminate). */
    static Verdict firstValid(Session s) throws Exception {
        if (s.role == Role.INITIATOR) {
            return null;
        }
        Verdict v = Probes.echo(s);
        return v.status() == Verdict.Status.PASSED ? null
                : Verdict.fail("a valid first exchange (" + Probes.ZERO_READ_ANSWER + ")", v.actual());
    }

    /**
     * A segment the receiver cannot even parse: any Terminate (the RFCs name no cause for it) or a close, and
     * nothing that shows it was taken.
     */
    static Verdict rejects(Session s) throws Exception {
        Session.Observation o = s.observe();
        SegmentView t = o.firstTerminate();
        String expected = "a Terminate (any cause: the RFCs name none for this) or a close";
        if (t == null) {
            return !o.end().closed() ? Verdict.fail(expected, "no Terminate and no close within "
                    + s.options.checkTimeoutMillis() + " ms") : Verdict.pass(expected, "closed (" + o.end() + ")");
        }
        var r = t.terminate().reading(SegmentView.Terminate.Layout.RFC);
        return !o.end().closed() ? Verdict.fail(expected, "Terminate " + r.cause() + " but no close")
                : Verdict.pass(expected, "Terminate " + r.cause() + " " + r.flags() + ", then " + o.end());
    }
}
