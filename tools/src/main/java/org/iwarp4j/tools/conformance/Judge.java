package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.oracle.SegmentView.Terminate;
import org.iwarp4j.oracle.SegmentView.Terminate.Layout;
import org.iwarp4j.tools.conformance.Verdict.Problem;
import org.iwarp4j.tools.explain.SegmentCheck;

/**
 * The judgements the checks share, written from the RFC rules they cite: a Terminate with its cause, layout
 * and copied headers (RFC 5040 §4.8, §5.4), a close without a Terminate, an FPDU that shows the peer went on.
 */
final class Judge {

    private Judge() {}

    /** Which headers a Terminate of a given cause carries (RFC 5040 §4.8 Figure 10 and §7.1). */
    enum Headers {
        /** LLP errors and Local Catastrophic errors: D=0, R=0, nothing after the control word. */
        NONE,
        /** DDP errors and RDMAP Remote Operation errors: M=D=1, the segment length and our DDP header. */
        DDP,
        /** RDMAP Remote Protection errors on a Read Request: M=D=R=1, our DDP header and our Read Request header. */
        DDP_AND_READ
    }

    /** Terminate causes, L/E/C: each an int 0xLEcc. */
    static int cause(int layer, int etype, int code) {
        return layer << 12 | etype << 8 | code;
    }

    static String causeWords(int c) {
        return String.format("0x%x/0x%x/0x%02x", c >> 12, (c >> 8) & 0xF, c & 0xFF);
    }

    /**
     * What a Terminate must look like.
     *
     * @param causes       the causes the RFC allows for this error (first = the one the RFC names)
     * @param deviations   further causes a known stack sends instead, each with the deviation tag it earns
     * @param headers      which headers it carries
     * @param offending    our segment that caused it (null: the copied header is not judged)
     */
    record Expect(List<Integer> causes, Map<Integer, String> deviations, Headers headers, Segment offending) {

        static Expect of(int cause, Headers headers, Segment offending) {
            return new Expect(List.of(cause), Map.of(), headers, offending);
        }

        Expect or(int cause) {
            List<Integer> c = new ArrayList<>(causes);
            c.add(cause);
            return new Expect(c, deviations, headers, offending);
        }

        Expect orKnown(int cause, String deviation) {
            Map<Integer, String> d = new LinkedHashMap<>(deviations);
            d.put(cause, deviation);
            return new Expect(causes, d, headers, offending);
        }

        String words() {
            StringBuilder b = new StringBuilder("Terminate ");
            for (int i = 0; i < causes.size(); i++) {
                b.append(i == 0 ? "" : " or ").append(causeWords(causes.get(i)));
            }
            b.append(switch (headers) {
                case NONE -> " (no headers)";
                case DDP -> " with M=D=1, the segment length and our DDP header";
                case DDP_AND_READ -> " with M=D=R=1, our DDP header and our Read Request header";
            });
            return b.append(", nothing after it, then the connection closed").toString();
        }
    }

    /**
     * Sends {@code offending} (framed correctly) and judges the Terminate that must answer it. When the octets
     * alone decide the error, the expectation also says what {@code iwarp explain} finds in them (the verdict
     * iwarp4j's own receiver gives), so a reader sees the rule and the cause side by side.
     */
    static Verdict terminates(Session s, Segment offending, Expect e) throws IOException {
        s.wire.sendFpdu(offending.toBytes(), "offending FPDU");
        Verdict v = terminate(s, s.observe(), e);
        SegmentView ours = SegmentView.parse(offending.toBytes());
        boolean rfc7306 = ours.opcode() >= Segment.IMMEDIATE_DATA && ours.opcode() <= Segment.ATOMIC_RESPONSE;
        String explained = SegmentCheck.verdict(offending.toBytes())
                .map(x -> " (explain on our segment" + (rfc7306 ? ", for a receiver with RFC 7306" : "") + ": "
                        + x.found() + ", " + causeWords(cause(x.layer(), x.errorType(),
                        x.errorCode())) + ", " + x.rfc() + ")").orElse("");
        return explained.isEmpty() ? v : new Verdict(v.status(), v.expected() + explained, v.actual(), v.problems(),
                v.transcript(), v.millis());
    }

    /** Judges what {@code o} found against {@code e}. */
    static Verdict terminate(Session s, Session.Observation o, Expect e) {
        List<Problem> problems = new ArrayList<>();
        int index = -1;
        for (int i = 0; i < o.fpdus().size(); i++) {
            if (SegmentView.parse(o.fpdus().get(i).ulpdu()).isTerminate()) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            String what = switch (o.end()) {
                case FIN, RST -> "no Terminate; the connection was closed (" + o.end() + ")" + others(o.fpdus());
                case TIMEOUT -> "no Terminate and no close within " + s.options.checkTimeoutMillis() + " ms"
                        + others(o.fpdus());
                case FLOOD -> "no Terminate; more than " + Wire.MAX_RECEIVED + " octets instead" + others(o.fpdus());
            };
            return Verdict.fail(e.words(), what, List.of(new Problem(what,
                    o.end().closed() ? "close-without-terminate" : null)));
        }
        DecodedFpdu fpdu = o.fpdus().get(index);
        SegmentView seg = SegmentView.parse(fpdu.ulpdu());
        Terminate t = seg.terminate();
        if (s.crcOn() && !fpdu.crcValid()) {
            problems.add(new Problem(String.format("its CRC field 0x%08x is not the CRC32c of the FPDU (RFC 5044 §4.4)",
                    fpdu.crcField()), fpdu.crcField() == 0 ? "terminate-crc-zero" : null));
        }
        if (seg.qn() != Segment.QN_TERMINATE || !seg.last() || seg.mo() != 0) {
            problems.add(Problem.of("the Terminate is not a whole untagged message on QN 2 (RFC 5040 §4.8): "
                    + seg.describe()));
        }
        Terminate.Reading rfc = t.reading(Layout.RFC);
        Terminate.Reading mirrored = t.reading(Layout.MIRRORED);
        Layout evident = t.evidentLayout();
        Terminate.Reading r = rfc;
        boolean rfcFits = fits(e, rfc);
        boolean mirroredFits = fits(e, mirrored);
        if (evident == Layout.MIRRORED || (evident == null && !rfcFits && mirroredFits)) {
            r = mirrored;
            problems.add(new Problem("the control word is bit-mirrored (octet 0 = EType<<4 | Layer, flags in 0x07 of "
                    + "octet 2): read as RFC 5040 §4.8 lays it out it says " + rfc.cause() + " " + rfc.flags(),
                    "mirrored-control-word"));
        }
        int got = cause(r.layer(), r.etype(), r.code());
        if (!e.causes().contains(got)) {
            String dev = e.deviations().get(got);
            problems.add(new Problem("cause " + r.cause() + " instead of " + causeList(e.causes()), dev));
        }
        if (r.reservedBits() != 0) {
            problems.add(new Problem(String.format("reserved bits 0x%04x set in the control word (RDMAP-08)",
                    r.reservedBits()), null));
        }
        headers(e, r, problems);
        int after = o.fpdus().size() - index - 1;
        if (after > 0) {
            problems.add(Problem.of(after + " FPDU(s) after the Terminate (RDMAP-19: nothing is sent after it): "
                    + SegmentView.parse(o.fpdus().get(index + 1).ulpdu()).describe()));
        }
        if (!o.end().closed()) {
            problems.add(Problem.of("the connection stayed open " + s.options.closeWaitMillis()
                    + " ms after the Terminate (RFC 5040 §5.4, RDMAP-29: the stream ends with it)"));
        }
        String actual = "Terminate " + r.cause() + " " + r.flags() + (r.segmentLength() >= 0 ? ", segment length "
                + r.segmentLength() : "")
                + (r.ddpHeader() != null ? ", copied DDP header " + Hex.of(r.ddpHeader()) : "")
                + (r.rdmaHeader() != null ? ", copied RDMA header " + Hex.of(r.rdmaHeader()) : "")
                + (index > 0 ? " (after " + index + " other FPDU(s))" : "") + ", then " + o.end();
        return problems.isEmpty() ? Verdict.pass(e.words(), actual) : Verdict.fail(e.words(), actual, problems);
    }

    private static boolean fits(Expect e, Terminate.Reading r) {
        int c = cause(r.layer(), r.etype(), r.code());
        return e.causes().contains(c) || e.deviations().containsKey(c);
    }

    private static String causeList(List<Integer> causes) {
        StringBuilder b = new StringBuilder();
        for (int c : causes) {
            b.append(b.length() == 0 ? "" : " or ").append(causeWords(c));
        }
        return b.toString();
    }

    private static void headers(Expect e, Terminate.Reading r, List<Problem> problems) {
        if (r.truncated()) {
            problems.add(Problem.of("the Terminate ends inside the headers its flags announce (RDMAP-09..11)"));
            return;
        }
        switch (e.headers()) {
            case NONE -> {
                if (r.d() || r.r() || r.m()) {
                    problems.add(Problem.of("flags " + r.flags() + " on an error that carries no headers (RFC 5040 "
                            + "§4.8 Figure 10, RDMAP-12)"));
                }
            }
            case DDP, DDP_AND_READ -> {
                if (!r.d() || !r.m()) {
                    problems.add(new Problem("flags " + r.flags() + ": no copied DDP header (RFC 5040 §4.8 Figure 10, "
                            + "RDMAP-12: M and D set for this error)", "no-header-copied"));
                    return;
                }
                if (e.offending() != null) {
                    judgeCopiedDdp(e.offending(), r, problems);
                }
                if (e.headers() == Headers.DDP_AND_READ) {
                    if (!r.r()) {
                        problems.add(Problem.of("R=0: the Read Request header is not copied (RDMAP-11, Figure 10)"));
                    } else if (e.offending() != null) {
                        byte[] ours = Arrays.copyOfRange(e.offending().toBytes(), Segment.UNTAGGED_HEADER,
                                Segment.UNTAGGED_HEADER + Segment.READ_REQUEST_HEADER);
                        if (!Arrays.equals(ours, r.rdmaHeader())) {
                            problems.add(Problem.of("the copied Read Request header " + Hex.of(r.rdmaHeader())
                                    + " is not ours " + Hex.of(ours) + " (RDMAP-11)"));
                        }
                    }
                } else if (r.r()) {
                    problems.add(Problem.of("R=1 on an error that is not about a Read Request (RDMAP-11)"));
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private static void judgeCopiedDdp(Segment offending, Terminate.Reading r, List<Problem> problems) {
        byte[] ours = offending.header();
        byte[] copied = r.ddpHeader();
        int ulpdu = offending.toBytes().length;
        int payload = ulpdu - offending.headerLength();
        // a Read Request's payload is its RDMAP header: a stack that counts only data octets says 0
        boolean readRequest = !offending.isTagged() && (offending.toBytes()[1] & 0xF) == Segment.READ_REQUEST;
        boolean payloadOnly = r.segmentLength() == payload || (readRequest && r.segmentLength() == 0);
        if (r.segmentLength() != ulpdu) {
            problems.add(new Problem("DDP Segment Length " + r.segmentLength() + " where our segment had " + ulpdu
                    + " octets (RFC 5040 §4.8: the length DDP handed up" + (payloadOnly
                    ? "; this is the payload length without the DDP header)" : ")"),
                    payloadOnly ? "segment-length-is-payload" : null));
        }
        if (!Arrays.equals(ours, copied)) {
            boolean onlyMsn = ours.length == copied.length && !offending.isTagged()
                    && Arrays.equals(ours, 0, 10, copied, 0, 10) && Arrays.equals(ours, 14, 18, copied, 14, 18);
            problems.add(new Problem("the copied DDP header " + Hex.of(copied) + " is not ours " + Hex.of(ours)
                    + " (RDMAP-10)" + (onlyMsn ? ": only its MSN differs" : ""),
                    onlyMsn ? "copied-msn-differs" : null));
        }
    }

    /**
     * {@code v} with its untagged problems put down to {@code deviation}, when {@code when} holds: for a check
     * whose failure, in that shape, is the one documented departure of a known stack (see {@link Profile}).
     */
    static Verdict explainedBy(Verdict v, boolean when, String deviation) {
        if (v.status() != Verdict.Status.FAILED || !when) {
            return v;
        }
        List<Problem> p = new ArrayList<>();
        for (Problem q : v.problems()) {
            p.add(q.deviation() == null ? new Problem(q.text(), deviation) : q);
        }
        return Verdict.fail(v.expected(), v.actual(), p);
    }

    private static String others(List<DecodedFpdu> fpdus) {
        if (fpdus.isEmpty()) {
            return "";
        }
        return " after " + fpdus.size() + " other FPDU(s), the first "
                + SegmentView.parse(fpdus.get(0).ulpdu()).describe();
    }

    /**
     * The peer must close the connection without sending any FPDU (an invalid startup frame: RFC 5044 §7.1.2,
     * MPA-28/30/32/33/36; a bad first FPDU: rule 4). A Terminate instead is judged as {@code deviation}.
     */
    static Verdict closesQuietly(Session s, Session.Observation o, String expected) {
        if (!o.end().closed()) {
            return Verdict.fail(expected, "the connection stayed open for " + s.options.checkTimeoutMillis() + " ms"
                    + others(o.fpdus()));
        }
        if (!o.fpdus().isEmpty()) {
            return Verdict.fail(expected, o.fpdus().size() + " FPDU(s) before the close" + others(o.fpdus()));
        }
        return Verdict.pass(expected, "closed (" + o.end() + ") at " + o.endMillis() + " ms, no FPDU");
    }

    /**
     * The peer must go on: the FPDU that shows it accepted ours arrives (a Read Response for a Read Request,
     * the application's next message), and no Terminate.
     */
    static Verdict proceeds(Session s, String expected, Predicate<SegmentView> answer)
            throws IOException {
        return proceeds(s, expected, answer, v -> null);
    }

    /**
     * As {@link #proceeds(Session, String, Predicate)}; {@code wrong} names an FPDU that is a wrong answer (a
     * failed check at once, the problem carrying its deviation tag) or returns null.
     */
    static Verdict proceeds(Session s, String expected, Predicate<SegmentView> answer,
                            Function<SegmentView, Verdict.Problem> wrong) throws IOException {
        long deadline = s.deadline();
        List<DecodedFpdu> got = new ArrayList<>();
        while (true) {
            Wire.Next n = s.wire.nextFpdu(deadline);
            if (!n.isFpdu()) {
                return Verdict.fail(expected, (n.end() == Wire.End.TIMEOUT ? "no answer within "
                        + s.options.checkTimeoutMillis() + " ms" : "the connection was closed (" + n.end() + ")")
                        + others(got));
            }
            got.add(n.fpdu());
            SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
            if (v.isTerminate()) {
                Terminate.Reading r = v.terminate().reading(v.terminate().evidentLayout() == Layout.MIRRORED
                        ? Layout.MIRRORED : Layout.RFC);
                return Verdict.fail(expected, "Terminate " + r.cause() + " " + r.flags());
            }
            if (s.crcOn() && !n.fpdu().crcValid()) {
                return Verdict.fail(expected, "an FPDU with a bad CRC: " + v.describe());
            }
            if (answer.test(v)) {
                return Verdict.pass(expected, v.describe());
            }
            Verdict.Problem p = wrong.apply(v);
            if (p != null) {
                return Verdict.fail(expected, p.text() + others(got.subList(0, got.size() - 1)), p.deviation());
            }
        }
    }
}
