package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.oracle.Segment;
import org.iwarp4j.oracle.SegmentView;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.StartupFrame.Enhanced;

/** Groups 1 and 2: MPA startup (RFC 5044 §7.1, RFC 6581 §5-§10), with the peer as Responder and as Initiator. */
final class MpaStartupChecks {

    private static final String REFUSE = "no accepting Reply; the connection closed (a Reply with R=1 first is "
            + "tolerated)";

    private MpaStartupChecks() {}

    // ================================================================== the peer as Responder

    static void responder(Catalog c) {
        c.group("MPA startup, the peer as Responder (RFC 5044 §7.1, RFC 6581)");
        c.check("accepts an ordinary Rev 2 Request with the enhanced block").rule("RFC 5044 §7.1.2, RFC 6581 §10",
                "MPA-24", "MPA-36", "MPA-64").role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, s.request(),
                r -> r.isReply() && !r.rejected() ? null : "a Reply with the Reply key and R=0 (" + r + ")"));
        c.check("answers with its Reply key and a revision we sent or below").rule("RFC 5044 §7.1.1, RFC 6581 §6",
                "MPA-24", "MPA-30", "MPA-62").role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, s.request(),
                r -> Arrays.equals(r.key(), StartupFrame.REPLY_KEY) && r.revision() >= 1 && r.revision() <= 2
                        ? null : "key \"MPA ID Rep Frame\" and Rev 1 or 2"));
        c.check("sends the reserved bits of its Reply as zero").rule("RFC 5044 §7.1.1", "MPA-29")
                .role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, s.request(),
                        r -> r.reservedBits() == 0 ? null : "Res = 0"));
        c.check("ignores reserved bits set in our Request (and still sends its own as zero)")
                .rule("RFC 5044 §7.1.1", "MPA-29").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    Verdict v = replyOk(s, s.request().reservedBits(0x7),
                            r -> r.reservedBits() == 0 ? null : "Res = 0 in the Reply");
                    return v.status() == Verdict.Status.FAILED && v.actual().contains("Res")
                            ? Verdict.fail(v.expected(), v.actual(), "reply-echoes-reserved-bits") : v;
                });
        c.check("answers an S=1 Request with an S=1 Reply carrying the 4-octet IRD/ORD block")
                .rule("RFC 6581 §7, §10", "MPA-61", "MPA-64").role(Role.RESPONDER).ownStartup()
                .run(s -> replyOk(s, s.request(), r -> r.enhancedFlag() && r.revision() == 2 && r.pdLength() >= 4
                        ? null : "Rev 2, S=1, PD_Length >= 4"));
        c.check("sets its ORD no higher than our IRD").rule("RFC 6581 §9.1", "MPA-68").role(Role.RESPONDER)
                .ownStartup().run(s -> replyOk(s, s.request(), r -> ordAtMost(r, s.options.ird())));
        c.check("answers IRD = ORD = 0 with ORD 0").rule("RFC 6581 §9.1", "MPA-68").role(Role.RESPONDER).ownStartup()
                .run(s -> replyOk(s, s.request().enhanced(new Enhanced(false, false, 0, false, false, 0)),
                        r -> ordAtMost(r, 0)));
        c.check("answers IRD = ORD = 0x3FFF (no automatic negotiation) with 0x3FFF both ways")
                .rule("RFC 6581 §9.1", "MPA-70").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    Verdict v = replyOk(s, s.request().enhanced(new Enhanced(false, false, 0x3FFF, false, false,
                            0x3FFF)), r -> r.enhanced() != null && r.enhanced().ird() == 0x3FFF
                            && r.enhanced().ord() == 0x3FFF ? null : "IRD = ORD = 0x3FFF in the Reply");
                    // the rule's words are the verdict's expected text; the Reply's own reads "ird=128, ... ord=128"
                    return v.status() == Verdict.Status.FAILED && v.expected().startsWith("IRD")
                            && v.actual().contains("ird=128,") && v.actual().contains("ord=128]")
                            ? Verdict.fail(v.expected(), v.actual(), "ird-ord-3fff-clamped") : v;
                });
        c.check("accepts a Rev 1 Request and answers Rev 1 without the enhanced block")
                .rule("RFC 6581 §6, §10", "MPA-62", "MPA-64").role(Role.RESPONDER).ownStartup()
                .run(s -> replyOk(s, StartupFrame.request().revision(1).crc(s.options.crc()),
                        r -> r.revision() == 1 && !r.enhancedFlag() ? null : "Rev 1, S=0"));
        c.check("answers a Rev 2 Request without S with an unenhanced Reply").rule("RFC 6581 §10", "MPA-64")
                .role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, StartupFrame.request().revision(2)
                        .crc(s.options.crc()), r -> !r.enhancedFlag() ? null : "S=0"));
        c.check("accepts 16 octets of ULP private data after the enhanced block").rule("RFC 6581 §7", "MPA-61")
                .role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, s.request().privateData(
                        "iwarp conformance".substring(0, 16).getBytes(StandardCharsets.US_ASCII)),
                        r -> r.enhanced() != null ? null : "an enhanced block in the Reply"));
        c.check("answers a Request with 512 octets of private data (the limit) with a Reply")
                .rule("RFC 5044 §7.1.1, RFC 6581 §7", "MPA-33", "MPA-36", "MPA-63").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    Verdict v = answers(s, s.request().privateData(new byte[508]));
                    return v.status() == Verdict.Status.FAILED ? Verdict.fail(v.expected(), v.actual(),
                            "private-data-limit-256") : v;
                });
        c.check("refuses a Request with 513 octets of private data (over the limit)")
                .rule("RFC 5044 §7.1.1", "MPA-33", "MPA-34").role(Role.RESPONDER).ownStartup()
                .run(s -> refuses(s, s.request().privateData(new byte[509]).toBytes(), s.options.checkTimeoutMillis()));
        c.check("refuses a Request whose key is the Reply key").rule("RFC 5044 §7.1.1, §7.1.2 r5", "MPA-28")
                .role(Role.RESPONDER).ownStartup().run(s -> refuses(s, s.request().key(StartupFrame.REPLY_KEY)
                        .toBytes(), s.options.checkTimeoutMillis()));
        c.check("refuses a Request with an unknown key").rule("RFC 5044 §7.1.1", "MPA-28").role(Role.RESPONDER)
                .ownStartup().run(s -> refuses(s, s.request().key("MPA ID Xyz Frame"
                        .getBytes(StandardCharsets.US_ASCII)).toBytes(), s.options.checkTimeoutMillis()));
        c.check("refuses a Request with Rev 3").rule("RFC 5044 §7.1.1", "MPA-30").role(Role.RESPONDER).ownStartup()
                .run(s -> refuses(s, s.request().revision(3).toBytes(), s.options.checkTimeoutMillis()));
        c.check("refuses a Request with Rev 0").rule("RFC 5044 §7.1.1", "MPA-30").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    Verdict v = refuses(s, s.request().revision(0).toBytes(), s.options.checkTimeoutMillis());
                    return v.status() == Verdict.Status.FAILED && v.actual().startsWith("an accepting Reply")
                            ? Verdict.fail(v.expected(), v.actual(), "accepts-rev-0") : v;
                });
        c.check("closes a Request cut short by a FIN without a Reply").rule("RFC 5044 §7.1.2 r2", "MPA-36")
                .role(Role.RESPONDER).ownStartup().run(s -> {
                    s.wire.send(Arrays.copyOf(s.request().toBytes(), 10), "10 octets of an MPA Request");
                    s.wire.shutdownOutput();
                    return refusesAfterSend(s, s.options.checkTimeoutMillis());
                });
        c.check("times out a Request whose private data never arrives").rule("RFC 5044 §7.1.2 r9, r10", "MPA-32",
                "MPA-39").role(Role.RESPONDER).ownStartup().caution("waits up to the startup timeout")
                .run(s -> {
                    byte[] r = s.request().pdLengthField(8).toBytes();
                    s.wire.send(Arrays.copyOf(r, StartupFrame.HEADER_LENGTH + 4), "MPA Request, PD_Length 8, 4 sent");
                    return refusesAfterSend(s, s.options.startupTimeoutMillis());
                });
        c.check("times out a connection on which no Request arrives").rule("RFC 5044 §7.1.2 r8, r10", "MPA-31",
                "MPA-39").role(Role.RESPONDER).ownStartup().caution("waits up to the startup timeout")
                .run(s -> refusesAfterSend(s, s.options.startupTimeoutMillis()));
        c.check("does not enter Full Operation on octets that follow the Request before its Reply")
                .rule("RFC 5044 §7.1.2 r2, r4", "MPA-36", "MPA-42").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    byte[] r = s.request().toBytes();
                    byte[] both = Arrays.copyOf(r, r.length + 4);
                    s.wire.send(both, "MPA Request + 4 stray octets in one segment");
                    Wire.End end = s.wire.awaitEnd(Session.deadline(s.options.checkTimeoutMillis()));
                    return !end.closed() ? Verdict.fail("the connection closed", "still open after "
                            + s.options.checkTimeoutMillis() + " ms")
                            : Verdict.pass("the connection closed", end.name());
                });
        c.check("sends no FPDU after its Reply until it received one").rule("RFC 5044 §7.1.2 r4", "MPA-38")
                .role(Role.RESPONDER).ownStartup().run(s -> {
                    StartupFrame r = s.exchange(s.request());
                    if (r == null || r.rejected()) {
                        return Verdict.fail("an accepting Reply", String.valueOf(r));
                    }
                    s.enterFullOperation();
                    Wire.Next n = s.wire.nextFpdu(Session.deadline(Math.min(1000, s.options.checkTimeoutMillis())));
                    return n.isFpdu() ? Verdict.fail("nothing for 1 s", "an FPDU: "
                            + SegmentView.parse(n.fpdu().ulpdu()).describe(), "responder-sends-first")
                            : Verdict.pass("nothing for 1 s", n.end() == Wire.End.TIMEOUT ? "nothing" : n.end().name());
                });
        c.check("turns CRCs on when we ask (C=1): its FPDUs carry a valid CRC32c").rule("RFC 5044 §4.4, §7.1.1",
                "MPA-12", "MPA-26", "MPA-09").role(Role.RESPONDER).ownStartup()
                .run(s -> afterStartup(s, s.request().crc(true), Probes::echo));
        c.check("runs without CRCs when neither side asks (C=0), ignoring our CRC field").rule("RFC 5044 §4.1, §4.4",
                "MPA-07", "MPA-26").role(Role.RESPONDER).ownStartup()
                .run(s -> afterStartup(s, s.request().crc(false), t -> t.crcOn()
                        ? Verdict.skip("the peer turned CRCs on (C=1 in its Reply): allowed, nothing to check")
                        : Probes.echo(t, Probes.zeroRead(t), FpduTamper.BAD_CRC, "zero-length Read Request, "
                        + "CRC field 0xdeadbeef")));
        c.check("asked for markers (M=1), rejects or sends correct markers").rule("RFC 5044 §4.3, §7.1.1",
                "MPA-16", "MPA-25", "MPA-17").role(Role.RESPONDER).ownStartup()
                .run(s -> {
                    StartupFrame r = s.exchange(s.request().markers(true));
                    if (r != null && r.rejected()) {
                        return Verdict.pass("R=1, or markers every 512 octets", "rejected (R=1)");
                    }
                    if (r == null) {
                        return Verdict.fail("a Reply", "none (" + Session.endWords(s.wire.ended()) + ")");
                    }
                    s.enterFullOperation();
                    s.wire.sendFpdu(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), "zero-length RDMA Write");
                    return Probes.echo(s);
                });
        c.check("peer-to-peer: echoes A=1 and picks an RTR we offered (Write), then takes it")
                .rule("RFC 6581 §9.2, §9.3", "MPA-72", "MPA-74").role(Role.RESPONDER).ownStartup()
                .run(s -> peerToPeer(s, false, true, false));
        c.check("peer-to-peer: echoes A=1 and picks an RTR we offered (Read), then takes it")
                .rule("RFC 6581 §9.2, §9.3", "MPA-72", "MPA-74").role(Role.RESPONDER).ownStartup()
                .run(s -> peerToPeer(s, false, false, true));
        c.check("peer-to-peer: with Send, Write and Read offered, picks at least one").rule("RFC 6581 §9.2", "MPA-72")
                .role(Role.RESPONDER).ownStartup().run(s -> peerToPeer(s, true, true, true));
        c.check("client-server: answers A=0 with A=0 and no RTR flags").rule("RFC 6581 §9.2", "MPA-73")
                .role(Role.RESPONDER).ownStartup().run(s -> replyOk(s, s.request().enhanced(new Enhanced(false, true,
                        s.options.ird(), true, true, s.options.ord())), r -> r.enhanced() != null
                        && !r.enhanced().peerToPeer() && !r.enhanced().sendRtr() && !r.enhanced().writeRtr()
                        && !r.enhanced().readRtr() ? null : "A=B=C=D=0 in the Reply"));
    }

    /** Sends {@code request}; the Reply must satisfy {@code rule} (null = fine, else what was expected). */
    private static Verdict replyOk(Session s, StartupFrame.Builder request, Function<StartupFrame, String> rule)
            throws IOException {
        StartupFrame r = s.exchange(request);
        if (r == null) {
            return Verdict.fail("an MPA Reply", "no Reply (" + Session.endWords(s.wire.ended()) + ")");
        }
        String wrong = rule.apply(r);
        return wrong == null ? Verdict.pass("a Reply as RFC 5044/6581 say", r.toString())
                : Verdict.fail(wrong, r.toString());
    }

    private static String ordAtMost(StartupFrame r, int ird) {
        if (r.enhanced() == null) {
            return "an enhanced block in the Reply";
        }
        return r.enhanced().ord() <= ird || r.rejected() ? null : "Reply ORD <= our IRD " + ird;
    }

    /** A Reply, accepting or not, must come (no silent close). */
    private static Verdict answers(Session s, StartupFrame.Builder request) throws IOException {
        StartupFrame r = s.exchange(request);
        return r != null ? Verdict.pass("a Reply (accepting or R=1)", r.toString())
                : Verdict.fail("a Reply (accepting or R=1)", "none (" + Session.endWords(s.wire.ended()) + ")");
    }

    /** Sends {@code octets} (a bad Request); no accepting Reply may come and the connection must close. */
    private static Verdict refuses(Session s, byte[] octets, long waitMillis) throws IOException {
        s.wire.send(octets, "MPA Request (malformed)");
        return refusesAfterSend(s, waitMillis);
    }

    private static Verdict refusesAfterSend(Session s, long waitMillis) throws IOException {
        long deadline = Session.deadline(waitMillis);
        StartupFrame r = s.wire.readFrame(deadline);
        if (r != null && !r.rejected()) {
            return Verdict.fail(REFUSE, "an accepting Reply: " + r);
        }
        Wire.End end = s.wire.awaitEnd(deadline);
        String got = (r != null ? "a Reply with R=1, then " : "no Reply, ") + switch (end) {
            case FIN -> "FIN";
            case RST -> "RST";
            case TIMEOUT -> "the connection still open after " + waitMillis + " ms";
            case FLOOD -> "a flood of octets";
        } + " at " + s.wire.millis() + " ms";
        return !end.closed() ? Verdict.fail(REFUSE, got) : Verdict.pass(REFUSE, got);
    }

    /** Runs {@code then} in Full Operation after an accepting exchange of {@code request}. */
    private static Verdict afterStartup(Session s, StartupFrame.Builder request, Check.Body then) throws Exception {
        StartupFrame r = s.exchange(request);
        if (r == null || r.rejected()) {
            return Verdict.fail("an accepting Reply", r == null ? "none (" + Session.endWords(s.wire.ended()) + ")"
                    : r.toString());
        }
        s.enterFullOperation();
        Session.pause(s.options.firstFpduDelayMillis());
        if (s.peerIrd() == 0) {
            return Verdict.skip("the peer's IRD is 0: it answers no Read Request, so nothing shows it took an FPDU");
        }
        return then.run(s);
    }

    private static Verdict peerToPeer(Session s, boolean send, boolean write, boolean read) throws IOException {
        StartupFrame r = s.exchange(s.request().enhanced(new Enhanced(true, send, Math.max(1, s.options.ird()), write,
                read, Math.max(1, s.options.ord()))));
        String expected = "A=1 and at least one RTR flag we offered, then the RTR taken without a Terminate";
        if (r == null) {
            return Verdict.fail(expected, "no Reply (" + Session.endWords(s.wire.ended()) + ")");
        }
        if (r.rejected()) {
            return Verdict.skip("the peer rejected the peer-to-peer Request (R=1): " + r);
        }
        Enhanced e = r.enhanced();
        if (e == null || !e.peerToPeer()) {
            return Verdict.fail(expected, "A=0 or no enhanced block: " + r);
        }
        boolean picksWrite = e.writeRtr() && write;
        boolean picksRead = e.readRtr() && read;
        boolean picksSend = e.sendRtr() && send;
        if (!picksWrite && !picksRead && !picksSend) {
            return Verdict.fail(expected, "no RTR flag we offered: " + r, "rtr-not-offered");
        }
        s.enterFullOperation();
        Session.pause(s.options.firstFpduDelayMillis());
        if (picksRead) {
            // RFC 6581 §9.3: the Read RTR is a zero-length Read Request, answered by a zero-length Read Response.
            return Probes.echo(s, Probes.zeroRead(s), FpduTamper.NONE, "Read RTR (zero-length Read Request)");
        }
        if (picksWrite) {
            s.wire.sendFpdu(Segment.tagged(Segment.WRITE, 1, 0).toBytes(), "Write RTR (zero-length Write, STag 1)");
        } else {
            s.wire.sendFpdu(Segment.send(s.sendMsn++, new byte[0]).toBytes(), "Send RTR (zero-length Send)");
        }
        if (s.peerIrd() == 0) {
            Wire.Next n = s.wire.nextFpdu(Session.deadline(1000));
            return n.isFpdu() && SegmentView.parse(n.fpdu().ulpdu()).isTerminate()
                    ? Verdict.fail(expected, "a Terminate after our RTR") : Verdict.pass(expected, r.toString());
        }
        return Probes.echo(s);
    }

    // ================================================================== the peer as Initiator

    static void initiator(Catalog c) {
        c.group("MPA startup, the peer as Initiator (RFC 5044 §7.1, RFC 6581)");
        c.check("sends a Request with the Request key").rule("RFC 5044 §7.1.1", "MPA-24", "MPA-35")
                .role(Role.INITIATOR).ownStartup().run(s -> request(s, q -> Arrays.equals(q.key(),
                        StartupFrame.REQUEST_KEY) ? null : "the key \"MPA ID Req Frame\""));
        c.check("sends Rev 1 or 2, and Rev 2 when it uses the enhanced block").rule("RFC 5044 §7.1.1, RFC 6581 §6",
                "MPA-30", "MPA-62").role(Role.INITIATOR).ownStartup().run(s -> request(s, q ->
                (q.revision() == 1 && !q.enhancedFlag()) || q.revision() == 2 ? null : "Rev 1, or Rev 2 if S=1"));
        c.check("sends the reserved bits of its Request as zero").rule("RFC 5044 §7.1.1", "MPA-29")
                .role(Role.INITIATOR).ownStartup().run(s -> request(s, q -> q.reservedBits() == 0 ? null : "Res = 0"));
        c.check("sends at most 512 octets of private data").rule("RFC 5044 §7.1.1, RFC 6581 §7", "MPA-33", "MPA-63")
                .role(Role.INITIATOR).ownStartup().run(s -> request(s, q -> q.pdLength() <= 512 ? null
                        : "PD_Length <= 512"));
        c.check("with S=1, starts its private data with the IRD/ORD block, consistent A/B/C/D")
                .rule("RFC 6581 §7, §9.2", "MPA-61", "MPA-71", "MPA-73").role(Role.INITIATOR).ownStartup()
                .run(s -> request(s, q -> {
                    if (!q.enhancedFlag()) {
                        return null;
                    }
                    Enhanced e = q.enhanced();
                    if (e == null) {
                        return "a 4-octet block when S=1";
                    }
                    boolean any = e.sendRtr() || e.writeRtr() || e.readRtr();
                    return e.peerToPeer() ? (any ? null : "A=1 with at least one of B/C/D")
                            : (any ? "A=0 with B=C=D=0" : null);
                }));
        c.check("asks for CRCs (C=1), the RFC's default").rule("RFC 5044 §4.4", "MPA-10", "MPA-11")
                .role(Role.INITIATOR).ownStartup().run(s -> {
                    Verdict v = request(s, q -> q.crc() ? null : "C=1");
                    return v.status() == Verdict.Status.FAILED ? Verdict.fail(v.expected(), v.actual(),
                            "request-without-crc") : v;
                });
        c.check("after an accepting Reply sends a valid first FPDU (its RTR in peer-to-peer mode)")
                .rule("RFC 5044 §4.1, §4.4, RFC 6581 §9.3", "MPA-05", "MPA-06", "MPA-09", "MPA-74")
                .role(Role.INITIATOR).ownStartup().run(s -> firstFpdu(s, q -> s.reply(q), true));
        c.check("turns CRCs on when our Reply says C=1").rule("RFC 5044 §4.4, §7.1.1", "MPA-12", "MPA-26")
                .role(Role.INITIATOR).ownStartup().run(s -> firstFpdu(s, q -> s.reply(q).crc(true), true));
        c.check("sends no FPDU after a Reply with R=1").rule("RFC 5044 §7.1.2 r3", "MPA-37").role(Role.INITIATOR)
                .ownStartup().run(s -> noFpduAfter(s, q -> s.reply(q).rejected(true), false));
        c.check("closes on a Reply with the Request key").rule("RFC 5044 §7.1.1, §7.1.2 r5", "MPA-28")
                .role(Role.INITIATOR).ownStartup()
                .run(s -> noFpduAfter(s, q -> s.reply(q).key(StartupFrame.REQUEST_KEY), true));
        c.check("closes on a Reply with Rev 3").rule("RFC 5044 §7.1.1", "MPA-30").role(Role.INITIATOR).ownStartup()
                .run(s -> noFpduAfter(s, q -> s.reply(q).revision(3), true));
        c.check("closes on a Reply with 513 octets of private data").rule("RFC 5044 §7.1.1", "MPA-33")
                .role(Role.INITIATOR).ownStartup().run(s -> silent(noFpduAfter(s, q -> s.reply(q).privateData(
                        new byte[q.enhancedFlag() ? 509 : 513]), true)));
        c.check("accepts a Reply with 512 octets of private data").rule("RFC 5044 §7.1.1", "MPA-33")
                .role(Role.INITIATOR).ownStartup().run(s -> silent(firstFpdu(s, q -> s.reply(q).privateData(
                        new byte[q.enhancedFlag() ? 508 : 512]), false)));
        c.check("times out a Reply whose private data never arrives").rule("RFC 5044 §7.1.2 r10", "MPA-32", "MPA-39")
                .role(Role.INITIATOR).ownStartup().caution("waits up to the startup timeout").run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    byte[] r = s.reply(q).pdLengthField(q.enhancedFlag() ? 12 : 8).toBytes();
                    s.wire.send(Arrays.copyOf(r, StartupFrame.HEADER_LENGTH + 4), "MPA Reply cut short");
                    return closes(s, s.options.startupTimeoutMillis());
                });
        c.check("times out when no Reply comes").rule("RFC 5044 §7.1.2 r10", "MPA-39").role(Role.INITIATOR)
                .ownStartup().caution("waits up to the startup timeout").run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    return closes(s, s.options.startupTimeoutMillis());
                });
        c.check("answers a Reply ORD it cannot serve (0x3FFE) with Terminate 0x2/0x0/0x06, or raises its IRD")
                .rule("RFC 6581 §9.1", "MPA-69").role(Role.INITIATOR).ownStartup().run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    if (q.enhanced() == null) {
                        return Verdict.skip("the Request has no IRD/ORD block (Rev 1 or S=0): " + q);
                    }
                    Enhanced e = q.enhanced();
                    s.sendReply(s.reply(q).enhanced(new Enhanced(e.peerToPeer(), false, e.ord(), e.peerToPeer()
                            && e.writeRtr(), e.peerToPeer() && !e.writeRtr() && e.readRtr(), 0x3FFE)));
                    s.enterFullOperation();
                    Session.Observation o = s.observe(Math.min(2000, s.options.checkTimeoutMillis()));
                    if (o.firstTerminate() == null && o.end() == Wire.End.TIMEOUT && !o.fpdus().isEmpty()) {
                        // MPA-69 lets the Initiator raise its IRD to the Responder's ORD.
                        return Verdict.pass("Terminate 0x2/0x0/0x06, or going on with its IRD raised to 16382",
                                "it went on: " + SegmentView.parse(o.fpdus().get(0).ulpdu()).describe());
                    }
                    return Judge.terminate(s, o, Judge.Expect.of(Judge.cause(2, 0, 6), Judge.Headers.NONE, null));
                });
        c.check("asked for markers in our Reply (M=1), sends correct markers or closes")
                .rule("RFC 5044 §4.3, §7.1.1", "MPA-16", "MPA-25").role(Role.INITIATOR).ownStartup()
                .run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    s.sendReply(s.reply(q).markers(true));
                    s.enterFullOperation();
                    Wire.Next n = s.wire.nextFpdu(s.deadline());
                    String expected = "a first FPDU with valid markers (MPA-16: every sender can insert them)";
                    if (!n.isFpdu()) {
                        return Verdict.fail(expected, "no FPDU: " + Session.endWords(n.end()),
                                n.end().closed() ? "no-markers" : null);
                    }
                    return n.fpdu().markersValid() && n.fpdu().problems().isEmpty()
                            ? Verdict.pass(expected, SegmentView.parse(n.fpdu().ulpdu()).describe())
                            : Verdict.fail(expected, String.join("; ", n.fpdu().problems()));
                });
        c.check("peer-to-peer: sends the RTR our Reply picked as its first FPDU").rule("RFC 6581 §9.2, §9.3",
                "MPA-74", "MPA-75").role(Role.INITIATOR).ownStartup().run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    if (q.enhanced() == null || !q.enhanced().peerToPeer()) {
                        return Verdict.skip("the peer asked for client-server mode (A=0): run it in peer-to-peer mode");
                    }
                    StartupFrame.Builder reply = s.reply(q);
                    s.sendReply(reply);
                    s.enterFullOperation();
                    Enhanced ours = s.ours.enhanced();
                    Wire.Next n = s.wire.nextFpdu(s.deadline());
                    String expected = "its first FPDU is a zero-length " + (ours.writeRtr() ? "RDMA Write"
                            : ours.readRtr() ? "Read Request" : "Send");
                    if (!n.isFpdu()) {
                        return Verdict.fail(expected, Session.endWords(n.end()));
                    }
                    SegmentView v = SegmentView.parse(n.fpdu().ulpdu());
                    boolean ok = ours.writeRtr() ? v.tagged() && v.opcode() == Segment.WRITE && v.payload().length == 0
                            : ours.readRtr() ? v.readRequest() != null && v.readRequest().size() == 0
                            : !v.tagged() && v.opcode() == Segment.SEND && v.payload().length == 0;
                    return ok ? Verdict.pass(expected, v.describe()) : Verdict.fail(expected, v.describe());
                });
        c.check("peer-to-peer: Terminates 0x2/0x0/0x07 when our Reply picks an RTR it did not offer")
                .rule("RFC 6581 §9.2, §9.3", "MPA-74").role(Role.INITIATOR).ownStartup().run(s -> {
                    StartupFrame q = s.awaitRequest(s.deadline());
                    if (q == null) {
                        return noRequest(s);
                    }
                    Enhanced e = q.enhanced();
                    if (e == null || !e.peerToPeer()) {
                        return Verdict.skip("the peer asked for client-server mode (A=0): run it in peer-to-peer mode");
                    }
                    if (e.sendRtr() && e.writeRtr() && e.readRtr()) {
                        return Verdict.skip("the peer offered every RTR type");
                    }
                    boolean send = !e.sendRtr();
                    boolean write = !send && !e.writeRtr();
                    boolean read = !send && !write;
                    s.sendReply(s.reply(q).enhanced(new Enhanced(true, send, Math.max(1, e.ord()), write, read,
                            Math.min(s.options.ord(), e.ird()))));
                    s.enterFullOperation();
                    return Judge.terminate(s, s.observe(), Judge.Expect.of(Judge.cause(2, 0, 7), Judge.Headers.NONE,
                            null));
                });
    }

    /** The verdict when the peer's Request did not come: how the connection ended instead. */
    private static Verdict noRequest(Session s) {
        return Verdict.fail("an MPA Request", "none (" + Session.endWords(s.wire.ended()) + ")");
    }

    /** Waits for the peer's Request and judges it; the connection is then accepted in the ordinary way. */
    private static Verdict request(Session s, Function<StartupFrame, String> rule) throws IOException {
        StartupFrame q = s.awaitRequest(s.deadline());
        if (q == null) {
            return Verdict.fail("an MPA Request", "none (" + Session.endWords(s.wire.ended()) + "): "
                    + Hex.of(s.wire.unreadOctets()));
        }
        String wrong = rule.apply(q);
        return wrong == null ? Verdict.pass("a Request as RFC 5044/6581 say", q.toString())
                : Verdict.fail(wrong, q.toString());
    }

    /** Replies with {@code reply} and judges the peer's first FPDU (valid; with a valid CRC if CRCs are on). */
    private static Verdict firstFpdu(Session s, Function<StartupFrame, StartupFrame.Builder> reply, boolean rtr)
            throws IOException {
        StartupFrame q = s.awaitRequest(s.deadline());
        if (q == null) {
            return noRequest(s);
        }
        s.sendReply(reply.apply(q));
        s.enterFullOperation();
        Wire.Next n = s.wire.nextFpdu(s.deadline());
        String expected = "a valid first FPDU" + (s.crcOn() ? " with a valid CRC32c" : "");
        if (!n.isFpdu()) {
            return Verdict.fail(expected, "no FPDU: " + Session.endWords(n.end()));
        }
        DecodedFpdu f = n.fpdu();
        SegmentView v = SegmentView.parse(f.ulpdu());
        if (!f.problems().isEmpty() && (s.crcOn() || !f.crcValid() && f.problems().size() > 1)) {
            return Verdict.fail(expected, String.join("; ", f.problems()) + ": " + v.describe());
        }
        if (v.isTerminate()) {
            return Verdict.fail(expected, "a Terminate: " + v.terminate().reading(SegmentView.Terminate.Layout.RFC)
                    .cause());
        }
        return Verdict.pass(expected, v.describe());
    }

    /** Replies with {@code reply}; the peer sends no FPDU and, if {@code mustClose}, closes. */
    private static Verdict noFpduAfter(Session s, Function<StartupFrame, StartupFrame.Builder> reply,
                                       boolean mustClose) throws IOException {
        StartupFrame q = s.awaitRequest(s.deadline());
        if (q == null) {
            return noRequest(s);
        }
        StartupFrame.Builder b = reply.apply(q);
        s.ours = b.build();
        s.wire.send(b.toBytes(), "MPA Reply (to be refused)");
        long wait = mustClose ? s.options.checkTimeoutMillis() : Math.min(2000, s.options.checkTimeoutMillis());
        Wire.End end = s.wire.awaitEnd(Session.deadline(wait));
        byte[] extra = s.wire.unreadOctets();
        String expected = mustClose ? "no FPDU; the connection closed" : "no FPDU (closing is up to its application)";
        if (extra.length > 0) {
            String terminate = terminateIn(extra);
            return terminate != null ? Verdict.fail(expected, terminate, "terminates-bad-reply")
                    : Verdict.fail(expected, extra.length + " octets: " + Hex.of(extra));
        }
        if (mustClose && !end.closed()) {
            return Verdict.fail(expected, "still open after " + wait + " ms");
        }
        return Verdict.pass(expected, end == Wire.End.TIMEOUT ? "nothing for " + wait + " ms" : end.name());
    }

    /**
     * {@code octets} read as one FPDU (ULPDU_Length, ULPDU, PAD, CRC) carrying a Terminate: its description with both
     * readings of the control word; null if they are something else. Before Full Operation no FPDU may be sent at
     * all (RFC 5044 §7.1.2: a bad frame is reported locally and the connection closed).
     */
    static String terminateIn(byte[] octets) {
        FpduStreamDecoder decoder = new FpduStreamDecoder(new FpduFraming(false, false, 0));
        List<DecodedFpdu> fpdus = decoder.feed(octets);
        if (fpdus.size() != 1 || decoder.pendingOctets() != 0) {
            return null;
        }
        SegmentView v = SegmentView.parse(fpdus.get(0).ulpdu());
        if (!v.isTerminate()) {
            return null;
        }
        SegmentView.Terminate t = v.terminate();
        return "a Terminate FPDU before Full Operation: " + Hex.of(octets) + " (read bit-mirrored "
                + t.reading(SegmentView.Terminate.Layout.MIRRORED).cause() + ", read as RFC 5040 §4.8 lays it out "
                + t.reading(SegmentView.Terminate.Layout.RFC).cause() + ")";
    }

    /**
     * {@code v}, with a failure because the peer neither sent nor closed after a Reply with much private data tagged
     * as siw's known hang (it takes at most 256 octets and then waits, FINDINGS M25).
     */
    private static Verdict silent(Verdict v) {
        boolean quiet = v.status() == Verdict.Status.FAILED && v.actual() != null
                && (v.actual().startsWith("still open") || v.actual().equals("no FPDU: nothing came in time"));
        return quiet ? Verdict.fail(v.expected(), v.actual(), "reply-private-data-hangs") : v;
    }

    /** The peer must close within {@code waitMillis} (having sent nothing more). */
    private static Verdict closes(Session s, long waitMillis) throws IOException {
        Wire.End end = s.wire.awaitEnd(Session.deadline(waitMillis));
        String expected = "the connection closed within " + waitMillis + " ms";
        return !end.closed() ? Verdict.fail(expected, "still open or flooding")
                : Verdict.pass(expected, end + " at " + s.wire.millis() + " ms");
    }
}
