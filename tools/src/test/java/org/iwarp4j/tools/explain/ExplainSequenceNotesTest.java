package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.tools.explain.ExplainErrorTest.concat;
import static org.iwarp4j.tools.explain.ExplainTerminateWorthyTest.fpdu;
import static org.iwarp4j.tools.explain.ExplainTerminateWorthyTest.ulpdu;
import static org.iwarp4j.tools.explain.ExplainTerminateWorthyTest.with;
import static org.iwarp4j.tools.explain.ExplainTerminateWorthyTest.withInt;
import static org.iwarp4j.tools.explain.ExplainTerminateWorthyTest.withLong;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.PcapBuilder;
import org.iwarp4j.tools.pcap.TcpSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only the sequence of segments shows (MSN order, MO/TO continuity, L bits, responses against
 * requests, one Terminate): warnings in the FPDU's JSON {@code notes} and in the text, never errors —
 * the exit status stays 0 — and explanations for people ("segment k of a message").
 */
class ExplainSequenceNotesTest {

    private static final Endpoint CLIENT = new Endpoint(new byte[] {10, 1, 1, 1}, 40000);
    private static final Endpoint SERVER = new Endpoint(new byte[] {10, 1, 1, 2}, 7174);
    private static final long ISN_C = 0x10000000L;
    private static final long ISN_S = 0x20000000L;
    private static final int MSN_OFFSET = 10;
    private static final int MO_OFFSET = 14;
    private static final int TO_OFFSET = 6;

    @TempDir
    Path dir;

    private final GoldenVector seg1 = GoldenVectors.named("fpdu-rdma-write-seg1-of-2");
    private final GoldenVector seg2 = GoldenVectors.named("fpdu-rdma-write-seg2-of-2");

    @Test
    void aWriteSplitInTwoIsShownAsOneMessage() {
        ExplainRun r = ExplainRun.json(dir, concat(seg1.bytes(), seg2.bytes()), "--fpdu");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).allSatisfy(e -> assertThat(e.get("notes")).isEqualTo(List.of()));
        long first = seg1.number("ddp.to");
        long length = seg1.number("ulp_payload_length") + seg2.number("ulp_payload_length");
        String stag = String.format("0x%08x", seg1.number("ddp.stag"));
        assertThat(ExplainRun.text(dir, concat(seg1.bytes(), seg2.bytes()), "--fpdu").out())
                .contains(String.format("Segment 1 of an RDMA Write to STag %s (L=0): %d octets at TO 0x%x, more "
                        + "follows", stag, seg1.number("ulp_payload_length"), first))
                .contains(String.format("Segment 2 of an RDMA Write to STag %s, TO 0x%x = first TO 0x%x + %d; the "
                        + "last: the message is %d octets, TO 0x%x..0x%x", stag, seg2.number("ddp.to"), first,
                        seg2.number("ddp.to") - first, length, first, first + length - 1));
    }

    /** A capture or hex dump may start inside a message: no warning for what is not there. */
    @Test
    void theLastSegmentAloneIsNotAnError() {
        ExplainRun r = ExplainRun.json(dir, seg2.bytes(), "--fpdu");
        assertThat(r.exit()).isZero();
        assertThat(r.entries()).singleElement().satisfies(e -> assertThat(e.get("notes")).isEqualTo(List.of()));
    }

    @Test
    void aTaggedOffsetThatDoesNotContinueTheMessageIsAWarning() {
        byte[] moved = fpdu(withLong(seg2.hex("ulpdu_hex"), TO_OFFSET, seg2.number("ddp.to") + 8));
        ExplainRun r = ExplainRun.json(dir, concat(seg1.bytes(), moved), "--fpdu");
        assertThat(r.exit()).isZero();
        assertThat(notes(r, 1)).singleElement().satisfies(n -> {
            assertThat(n).containsEntry("layer", "DDP").containsEntry("rfc", "RFC 5041 §5.2");
            assertThat((String) n.get("text")).contains("[DDP-17]")
                    .contains(String.format("expected 0x%x", seg2.number("ddp.to")));
        });
        assertThat(ExplainRun.text(dir, concat(seg1.bytes(), moved), "--fpdu").out())
                .contains("warning: TO 0x" + Long.toHexString(seg2.number("ddp.to") + 8));
    }

    @Test
    void anotherTaggedMessageBeforeTheLastSegmentIsAWarning() {
        ExplainRun r =
                ExplainRun.json(dir, concat(seg1.bytes(), GoldenVectors.named("fpdu-rdma-write").bytes()), "--fpdu");
        assertThat(r.exit()).isZero();
        assertThat(notes(r, 1)).singleElement().satisfies(n -> assertThat((String) n.get("text"))
                .contains("ended without its L=1 segment").contains("[DDP-03]"));
    }

    /** RFC 5041 §4.3: after the MPA Request the first message on each queue is MSN 1, then 2, 3, ... */
    @Test
    void msnsCountFromOnePerQueue() {
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes(); // C=1: the vectors' CRCs are checked
        byte[] send = GoldenVectors.named("fpdu-send").bytes();                              // QN 0 MSN 1
        byte[] withInvalidate = GoldenVectors.named("fpdu-send-with-invalidate").bytes();    // QN 0 MSN 2
        byte[] readRequest = GoldenVectors.named("fpdu-rdma-read-request").bytes();          // QN 1 MSN 1
        ExplainRun clean = ExplainRun.json(dir, concat(request, send, readRequest, withInvalidate));
        assertThat(clean.exit()).isZero();
        assertThat(clean.entries()).filteredOn(e -> e.get("type").equals("fpdu"))
                .allSatisfy(e -> assertThat(e.get("notes")).isEqualTo(List.of()));

        ExplainRun again = ExplainRun.json(dir, concat(request, send, send));
        assertThat(again.exit()).isZero();
        assertThat(notes(again, 2)).singleElement().satisfies(n -> assertThat((String) n.get("text"))
                .startsWith("MSN 1, expected 2").contains("[DDP-11]"));

        // The first message after the Request must be MSN 1; a hex dump that starts at an FPDU may start anywhere.
        ExplainRun late = ExplainRun.json(dir, concat(request, withInvalidate));
        assertThat(notes(late, 1)).singleElement()
                .satisfies(n -> assertThat((String) n.get("text")).startsWith("MSN 2, expected 1"));
        assertThat(notes(ExplainRun.json(dir, withInvalidate, "--fpdu"), 0)).isEmpty();
    }

    /** RFC 5041 §5.2: an untagged message in two segments, MO continuing; a wrong MO is a warning. */
    @Test
    void anUntaggedMessageInTwoSegments() {
        byte[] send = ulpdu("fpdu-send"); // 18-octet header + 12 octets, MSN 1
        byte[] first = with(Arrays.copyOf(send, 18 + 5), 0, 0x01);                     // L=0, MO 0, 5 octets
        byte[] second = withInt(concat(Arrays.copyOf(send, 18), Arrays.copyOfRange(send, 23, 30)), MO_OFFSET, 5);
        ExplainRun r = ExplainRun.json(dir, concat(fpdu(first), fpdu(second)), "--fpdu");
        assertThat(r.exit()).isZero();
        assertThat(notes(r, 0)).isEmpty();
        assertThat(notes(r, 1)).isEmpty();
        assertThat(ExplainRun.text(dir, concat(fpdu(first), fpdu(second)), "--fpdu").out())
                .contains("Segment 1 of message MSN 1 on QN 0 (L=0): 5 octets at MO 0, more follows")
                .contains("Segment 2 of message MSN 1 on QN 0, MO 5; the last: the message is 12 octets (MO + "
                        + "payload)");

        byte[] gap = withInt(second, MO_OFFSET, 6);
        assertThat(notes(ExplainRun.json(dir, concat(fpdu(first), fpdu(gap)), "--fpdu"), 1)).singleElement()
                .satisfies(n ->
                        assertThat((String) n.get("text")).startsWith("MO 6, but 5 octets of message MSN 1")
                        .contains("[DDP-16]"));

        byte[] next = withInt(ulpdu("fpdu-send"), MSN_OFFSET, 2);
        assertThat(notes(ExplainRun.json(dir, concat(fpdu(first), fpdu(next)), "--fpdu"), 1)).singleElement()
                .satisfies(n ->
                        assertThat((String) n.get("text"))
                        .contains("message MSN 1 on QN 0 ended without its L=1 segment"));
    }

    /** RFC 5040 §5.4 [RDMAP-19]: one Terminate per stream, MSN 1, and nothing after it. */
    @Test
    void oneTerminateAndNothingAfterIt() {
        byte[] terminate = GoldenVectors.named("fpdu-terminate-llp-crc").bytes();
        byte[] send = GoldenVectors.named("fpdu-send").bytes();
        ExplainRun r = ExplainRun.json(dir, concat(terminate, terminate, send), "--fpdu");
        assertThat(r.exit()).isZero();
        assertThat(notes(r, 0)).isEmpty();
        assertThat(notes(r, 1)).extracting(n -> (String) n.get("text"))
                .anySatisfy(t -> assertThat(t).startsWith("a second Terminate"))
                .allSatisfy(t -> assertThat(t).contains("[RDMAP-19]"));
        assertThat(notes(r, 2)).singleElement().satisfies(n -> assertThat((String) n.get("text"))
                .startsWith("sent after this direction's Terminate at input offset 0"));
        byte[] msn2 = fpdu(withInt(ulpdu("fpdu-terminate-llp-crc"), MSN_OFFSET, 2));
        assertThat(notes(ExplainRun.json(dir, msn2, "--fpdu"), 0)).singleElement()
                .satisfies(n ->
                        assertThat((String) n.get("text"))
                        .startsWith("MSN 2: the one Terminate of a stream is message 1"));
    }

    /** In a capture, Read Responses are matched with the other direction's Read Requests (RFC 5040 §4.5 [RDMAP-06]). */
    @Test
    void readResponsesAnswerTheOtherDirectionsReadRequests() {
        GoldenVector request = GoldenVectors.named("fpdu-rdma-read-request");
        GoldenVector response = GoldenVectors.named("fpdu-rdma-read-response");
        ExplainRun ok = capture(request.bytes(), response.bytes());
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.entries()).filteredOn(e -> e.get("type").equals("fpdu"))
                .allSatisfy(e -> assertThat(e.get("notes")).isEqualTo(List.of()));
        assertThat(captureText(request.bytes(), response.bytes()))
                .contains("Answers the RDMA Read Request at I2R offset 44 (pcap frame 6): MSN "
                        + request.number("ddp.msn") + ", "
                        + request.number("rr.rdma_read_message_size") + " octets into STag "
                        + String.format("0x%08x at TO 0x%x", request.number("rr.sink_stag"),
                                request.number("rr.sink_to")));

        byte[] otherStag = fpdu(withInt(response.hex("ulpdu_hex"), 2, 0x0a0b0c0e));
        assertThat(fpduNotes(capture(request.bytes(), otherStag), "R2I")).singleElement()
                .satisfies(n -> assertThat((String) n.get("text"))
                .startsWith("STag 0x0a0b0c0e, but the Read Request's Data Sink STag is 0x0a0b0c0d")
                .contains("[RDMAP-06]"));

        byte[] shorter = fpdu(Arrays.copyOf(response.hex("ulpdu_hex"), 14 + 60));
        assertThat(fpduNotes(capture(request.bytes(), shorter), "R2I")).singleElement()
                .satisfies(n -> assertThat((String) n.get("text"))
                .isEqualTo("the Read Response ends 40 octets short of the requested 100"));

        assertThat(fpduNotes(capture(GoldenVectors.named("fpdu-send").bytes(), response.bytes()), "R2I"))
                .singleElement()
                .satisfies(n ->
                        assertThat((String) n.get("text")).startsWith("no RDMA Read Request of the other direction"));
    }

    /** RFC 7306 §5.2.2: an Atomic Response echoes the Request Identifier of the oldest outstanding Atomic Request. */
    @Test
    void atomicResponsesEchoTheRequestIdentifier() {
        GoldenVector fetchAdd = GoldenVectors.named("fpdu-atomic-fetchadd-request");   // Request Identifier 1
        GoldenVector cmpSwap = GoldenVectors.named("fpdu-atomic-cmpswap-request");     // Request Identifier 2
        GoldenVector response = GoldenVectors.named("fpdu-atomic-response-1");         // Original Request Identifier 1
        assertThat(fetchAdd.number("atomic.request_id")).isEqualTo(response.number("atomic.orig_request_id"));
        assertThat(fpduNotes(capture(fetchAdd.bytes(), response.bytes()), "R2I")).isEmpty();
        assertThat(fpduNotes(capture(cmpSwap.bytes(), response.bytes()), "R2I")).singleElement()
                .satisfies(n -> assertThat((String) n.get("text"))
                .startsWith("Original Request Identifier 1, but the oldest outstanding Atomic Request"));
    }

    /** The golden Terminate answers the Read Request with the bad source STag: people are told which FPDU it copies. */
    @Test
    void aTerminateNamesTheFpduWhoseHeaderItCopies() {
        ConversationStream conv = GoldenVectors.stream("conv-rev1-crc-nomarkers");
        byte[] i2r = conv.bytes(ConversationStream.Direction.I2R);
        byte[] bad = GoldenVectors.named("fpdu-rdma-read-request-bad-stag").bytes();
        int offset = HexFormat.of().formatHex(i2r).indexOf(HexFormat.of().formatHex(bad)) / 2;
        assertThat(offset).isPositive();
        ExplainRun r = ExplainRun.run("explain", "--pcap",
                ExplainRun.writeBytes(dir, GoldenVectors.resource("iwarp-rev1-crc.pcap"), ".pcap").toString());
        assertThat(r.out())
                .contains("The copied DDP header is that of the FPDU at I2R offset " + offset + " (pcap frame ");
    }

    // ------------------------------------------------------------------ helpers

    /** The notes of the {@code index}-th entry. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> notes(ExplainRun r, int index) {
        return (List<Map<String, Object>>) r.entries().get(index).get("notes");
    }

    /** All notes of the FPDUs travelling {@code direction}. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> fpduNotes(ExplainRun r, String direction) {
        return r.entries().stream().filter(e -> e.get("type").equals("fpdu") && e.get("direction").equals(direction))
                .flatMap(e -> ((List<Map<String, Object>>) e.get("notes")).stream()).toList();
    }

    /** A connection: Request, Reply (both C=1), then {@code i2r} from the Initiator and {@code r2i} answering it. */
    private ExplainRun capture(byte[] i2r, byte[] r2i) {
        return ExplainRun.run("explain", "--json", "--pcap",
                ExplainRun.writeBytes(dir, pcap(i2r, r2i), ".pcap").toString());
    }

    private String captureText(byte[] i2r, byte[] r2i) {
        return ExplainRun.run("explain", "--pcap", ExplainRun.writeBytes(dir, pcap(i2r, r2i), ".pcap").toString())
                .out();
    }

    private static byte[] pcap(byte[] i2r, byte[] r2i) {
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();
        byte[] reply = GoldenVectors.named("mpa-rep-rev1-accept").bytes();
        return PcapBuilder.ethernet()
                .tcp(CLIENT, SERVER, ISN_C, TcpSegment.SYN, new byte[0])
                .tcp(SERVER, CLIENT, ISN_S, TcpSegment.SYN | TcpSegment.ACK, new byte[0])
                .tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, new byte[0])
                .tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request)
                .tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, reply)
                .tcp(CLIENT, SERVER, ISN_C + 1 + request.length, TcpSegment.ACK, i2r)
                .tcp(SERVER, CLIENT, ISN_S + 1 + reply.length, TcpSegment.ACK, r2i)
                .build();
    }
}
