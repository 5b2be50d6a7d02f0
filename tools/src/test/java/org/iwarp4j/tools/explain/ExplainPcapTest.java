package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.TcpConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code explain --pcap} on the golden captures and on real siw captures. */
class ExplainPcapTest {

    private static final List<String> GOLDEN =
            List.of("iwarp-rev1-crc.pcap", "iwarp-rev2-enhanced.pcap", "iwarp-markers.pcap");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"iwarp-rev1-crc.pcap", "iwarp-rev2-enhanced.pcap", "iwarp-markers.pcap"})
    void goldenCapturesDecodeCompletelyWithValidCrcs(String pcap) {
        ExplainRun r = pcap(GoldenVectors.resource(pcap));
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> entries = r.entries();
        assertThat(entries).isNotEmpty();
        assertThat(entries).extracting(e -> e.get("type")).doesNotContain("error");
        for (Map<String, Object> e : entries) {
            assertThat(e).containsKeys("connection", "direction", "tcpSeq", "frames");
            assertThat((List<?>) e.get("frames")).isNotEmpty();
            if (e.get("type").equals("fpdu")) {
                assertThat(e.get("crcValid")).as(e.toString()).isEqualTo(true);
                assertThat(e).as(e.toString()).containsKeys("ddp", "rdmap");
                assertThat(e.get("notes")).as("the conversation keeps every sequence rule: " + e).isEqualTo(List.of());
            }
        }
    }

    /**
     * Every FPDU of the golden captures that is also a golden vector decodes, in its conversation, to the vector's
     * fields.
     */
    @Test
    void goldenCapturesHoldTheVectorsWithTheirUpperLayerFields() {
        List<GoldenVector> vectors = GoldenVectors.ofKind("fpdu", "fpdu-markers");
        int matched = 0;
        for (String pcap : GOLDEN) {
            for (Map<String, Object> e : pcap(GoldenVectors.resource(pcap)).entries()) {
                if (!e.get("type").equals("fpdu")) {
                    continue;
                }
                for (GoldenVector v : vectors) {
                    if (v.field("ulpdu_hex").trim().equals(e.get("ulpdu"))) {
                        VectorUpperLayers.assertMatches(v, e);
                        matched++;
                        break;
                    }
                }
            }
        }
        assertThat(matched).as("FPDUs of the captures found among the vectors").isGreaterThanOrEqualTo(30);
    }

    @Test
    void theRejectedConnectionHasR1AndNoFpdus() {
        List<Map<String, Object>> entries = pcap(GoldenVectors.resource("iwarp-rev1-crc.pcap")).entries();
        List<Map<String, Object>> rejected = entries.stream()
                .filter(e -> e.get("connection").equals("127.0.0.1:40002-127.0.0.2:50001")).toList();
        assertThat(rejected).extracting(e -> e.get("type"), e -> e.get("direction"), e -> e.get("r"))
                .containsExactly(Tuple.tuple("mpa-request", "I2R", false),
                        Tuple.tuple("mpa-reply", "R2I", true));
        assertThat(entries.stream().filter(e -> e.get("connection").equals("127.0.0.1:40001-127.0.0.2:50001")
                && e.get("type").equals("fpdu"))).isNotEmpty();
    }

    /** Each marker-stream vector sits in iwarp-markers.pcap at stream offset + 20 (the 20-octet Request/Reply). */
    @Test
    void theMarkersCaptureShowsEveryVectorsFpduptrs() {
        List<Map<String, Object>> entries = pcap(GoldenVectors.resource("iwarp-markers.pcap")).entries();
        List<GoldenVector> vectors = GoldenVectors.ofKind("fpdu-markers").stream()
                .filter(v -> v.name().startsWith("mstream-") || v.name().equals("rfc5044-fig5")).toList();
        assertThat(vectors).hasSize(11);
        for (GoldenVector v : vectors) {
            String connection = v.name().equals("rfc5044-fig5") ? "127.0.0.1:40022-127.0.0.2:50021"
                    : "127.0.0.1:40021-127.0.0.2:50021";
            String direction = v.name().startsWith("mstream-r-") ? "R2I" : "I2R";
            long offset = v.number("stream_offset") + 20;
            Map<String, Object> e = entries.stream()
                    .filter(x -> x.get("connection").equals(connection) && x.get("direction").equals(direction)
                            && x.get("offset").equals(offset))
                    .findFirst().orElseThrow(() -> new AssertionError("no entry for " + v));
            Map<String, Object> expected = ExplainGoldenVectorTest.expectedFpdu(v, true);
            expected.put("offset", offset);
            assertThat(e).as(v.name()).containsAllEntriesOf(expected);
            VectorUpperLayers.assertMatches(v, e);
        }
    }

    /** The decode of every golden capture tiles each direction of each conversation stream, octet for octet. */
    @Test
    void conversationStreamsMatchThePcapDecodeByteForByte() {
        List<Map<String, Object>> all = new ArrayList<>();
        for (String pcap : GOLDEN) {
            all.addAll(pcap(GoldenVectors.resource(pcap)).entries());
        }
        List<ConversationStream> streams = GoldenVectors.streams();
        assertThat(streams).hasSize(8);
        for (ConversationStream s : streams) {
            long isnI = s.segments(ConversationStream.Direction.I2R).get(0).tcpSeq();
            String connection = all.stream()
                    .filter(e ->
                            e.get("direction").equals("I2R") && e.get("offset").equals(0L)
                            && e.get("tcpSeq").equals(isnI))
                    .map(e -> (String) e.get("connection")).findFirst()
                    .orElseThrow(() -> new AssertionError("no connection for " + s.name()));
            for (ConversationStream.Direction d : ConversationStream.Direction.values()) {
                List<Map<String, Object>> entries = all.stream()
                        .filter(e -> e.get("connection").equals(connection) && e.get("direction").equals(d.name()))
                        .sorted(Comparator.comparingLong(e -> (Long) e.get("offset"))).toList();
                assertTiles(s.name() + " " + d, entries, s.bytes(d), s.segments(d));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rping-siw-guest-local.pcap", "rping-siw-guest-local-crc.pcap",
            "ib_read_bw-siw-guest-local.pcap",
            "ib_send_bw-siw-guest-local.pcap", "ib_write_bw-siw-guest-local.pcap", "rping-client-to-host-accept.pcap",
            "rping-client-to-host-reject.pcap", "host-client-to-rping-server.pcap"})
    void siwCapturesDecodeWithoutErrorsAndTileEveryStream(String name) throws Exception {
        byte[] pcap = siwCapture(name);
        ExplainRun r = pcap(pcap);
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> entries = r.entries();
        assertThat(entries).extracting(e -> e.get("type")).contains("mpa-request", "mpa-reply").doesNotContain("error");
        // siw sets C=1 only when mpa_crc_required=Y: then every CRC checks, otherwise none is checked.
        Object crcValid = name.contains("-crc") ? (Object) true : null;
        assertThat(entries.stream().filter(e -> e.get("type").equals("fpdu")))
                .allSatisfy(e -> assertThat(e.get("crcValid")).isEqualTo(crcValid))
                .allSatisfy(e -> assertThat(e).containsKeys("ddp", "rdmap").containsEntry("notes", List.of()));
        for (TcpConnection c : Capture.read(pcap).connections()) {
            for (HalfStream h : List.of(c.first(), c.second())) {
                String i2r = h.source() + "-" + h.destination();
                String r2i = h.destination() + "-" + h.source();
                String dirName = entries.stream().map(e -> (String) e.get("connection"))
                        .filter(x -> x.equals(i2r) || x.equals(r2i)).findFirst().orElseThrow();
                String direction = dirName.equals(i2r) ? "I2R" : "R2I";
                List<Map<String, Object>> mine = entries.stream()
                        .filter(e -> e.get("connection").equals(dirName) && e.get("direction").equals(direction))
                        .sorted(Comparator.comparingLong(e -> (Long) e.get("offset"))).toList();
                assertTiles(name + " " + dirName + " " + direction, mine, h.bytes(), List.of());
            }
        }
        if (name.contains("reject")) {
            assertThat(entries).extracting(e -> e.get("type")).containsExactly("mpa-request", "mpa-reply");
            assertThat(entries.get(1).get("r")).isEqualTo(true);
        }
    }

    @Test
    void humanOutputIntroducesEachConnectionAndOrdersBothDirectionsByFrame() {
        ExplainRun r = ExplainRun.run("explain", "--pcap",
                ExplainRun.writeBytes(dir, GoldenVectors.resource("iwarp-rev1-crc.pcap"), ".pcap").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("32 packets (link type ETHERNET), 2 TCP connections")
                .contains("Connection 1: 127.0.0.1:40001 <-> 127.0.0.2:50001, pcap frames 1..24")
                .contains("Initiator 127.0.0.1:40001: its stream starts with the MPA Request key")
                .contains("\n    I2R CRC on (Request C=1, Reply C=1), no markers (Reply M=0)\n    R2I CRC on (Reply "
                        + "C=1, Request C=1), no markers (Request M=0)\n")
                .contains("Rejected by the Responder (Reply R=1)")
                .contains("#1  MPA Request  I2R offset 0, 44 octets, tcp seq 0x0a000001, pcap frame 4")
                .contains("#2  MPA Reply  R2I offset 0, 28 octets, tcp seq 0x0b000001, pcap frame 5")
                .contains("#3  FPDU  I2R offset 44, 40 octets, tcp seq 0x0a00002d, pcap frame 6");
        int[] frames = r.out().lines().filter(l -> l.matches("#\\d+ .*pcap frames? \\d+.*"))
                .mapToInt(l -> Integer.parseInt(l.replaceAll(".*pcap frames? (\\d+).*", "$1"))).toArray();
        int[] sorted = frames.clone();
        Arrays.sort(sorted);
        assertThat(frames).isEqualTo(sorted);
    }

    /**
     * Checks that {@code entries} cover {@code stream} exactly, one after the other, and that what each
     * entry says (key, private data, ULPDU_Length, markers, ULPDU, CRC, TCP sequence number) is what the
     * octets hold. Wire lengths follow from the fields: 20 + PD_Length, 2 + ULPDU_Length + PAD + 4 + 4 per marker.
     */
    static void assertTiles(String what, List<Map<String, Object>> entries, byte[] stream,
            List<ConversationStream.Segment> segments) {
        long at = 0;
        for (Map<String, Object> e : entries) {
            assertThat(e.get("offset")).as(what + ": entry " + e).isEqualTo(at);
            int off = (int) at;
            int length;
            if (e.get("type").equals("fpdu")) {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> markers = (List<Map<String, Object>>) e.get("markers");
                int ulpduLength = ((Long) e.get("ulpduLength")).intValue();
                length = 2 + ulpduLength + ((Long) e.get("padLength")).intValue() + 4 + 4 * markers.size();
                byte[] wire = Arrays.copyOfRange(stream, off, off + length);
                ByteArrayOutputStream plain = new ByteArrayOutputStream();
                int next = 0;
                for (Map<String, Object> m : markers) {
                    int mo = ((Long) m.get("offset")).intValue();
                    assertThat(((wire[mo + 2] & 0xff) << 8) | (wire[mo + 3] & 0xff)).as(what)
                            .isEqualTo(((Long) m.get("fpduPtr")).intValue());
                    plain.write(wire, next, mo - next);
                    next = mo + 4;
                }
                plain.write(wire, next, wire.length - next);
                byte[] p = plain.toByteArray();
                assertThat(((p[0] & 0xff) << 8) | (p[1] & 0xff)).as(what).isEqualTo(ulpduLength);
                assertThat(HexFormat.of().formatHex(p, 2, 2 + ulpduLength)).as(what).isEqualTo(e.get("ulpdu"));
                long crc = Integer.toUnsignedLong(
                        ByteBuffer.wrap(wire, length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
                assertThat(e.get("crc")).as(what).isEqualTo(String.format("0x%08x", crc));
            } else {
                length = 20 + ((Long) e.get("pdLength")).intValue();
                String key = e.get("type").equals("mpa-request") ? "MPA ID Req Frame" : "MPA ID Rep Frame";
                assertThat(new String(stream, off, 16, StandardCharsets.US_ASCII)).as(what).isEqualTo(key);
                int ulpStart = off + 20 + (e.containsKey("ird") ? 4 : 0);
                assertThat(HexFormat.of().formatHex(stream, ulpStart, off + length)).as(what)
                        .isEqualTo(e.get("privateData"));
            }
            for (ConversationStream.Segment s : segments) {
                if (s.offset() <= at && at < s.offset() + s.payload().length) {
                    assertThat(e.get("tcpSeq")).as(what).isEqualTo((s.tcpSeq() + at - s.offset()) & 0xffffffffL);
                }
            }
            at += length;
        }
        assertThat(at).as(what + ": entries end where the stream ends").isEqualTo(stream.length);
    }

    private ExplainRun pcap(byte[] pcap) {
        return ExplainRun.run("explain", "--json", "--pcap", ExplainRun.writeBytes(dir, pcap, ".pcap").toString());
    }

    static byte[] siwCapture(String name) throws IOException {
        try (InputStream in = ExplainPcapTest.class.getResourceAsStream("siw/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
