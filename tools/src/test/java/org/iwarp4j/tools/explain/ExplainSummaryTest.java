package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.IwarpCommand;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --pcap FILE --summary}: one object per connection, judged against what siw put on the wire in the
 * lab's recorded captures, as the fixtures (decoded independently when they were recorded) and interop/FINDINGS.md
 * state it.
 */
class ExplainSummaryTest {

    private static Path capture(String name) {
        return ExplainSiwLabTest.lab().resolve("../../../../../interop/captures").normalize().resolve(name + ".pcap");
    }

    private static Map<String, Object> only(String name) {
        ExplainRun r = ExplainRun.run("explain", "--summary", "--pcap", capture(name).toString());
        assertThat(r.exit()).as(r.toString()).isIn(0, 1);
        List<Map<String, Object>> connections = r.entries();
        assertThat(connections).as(r.toString()).hasSize(1);
        return connections.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Map<String, Object> m, String key) {
        return (Map<String, Object>) m.get(key);
    }

    /** The value of {@code key} in a fixture ({@code key: value} lines). */
    private static String vec(String fixture, String key) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + ": (.*)$")
                .matcher(Files.readString(ExplainSiwLabTest.lab().resolve(fixture + ".vec")));
        assertThat(m.find()).as(fixture + " has " + key).isTrue();
        return m.group(1).trim();
    }

    @Test
    void aCrcErrorAndSiwsTerminateForIt() {
        Map<String, Object> c = only("term-crc");
        assertThat(c).containsEntry("mpa", "accept").containsEntry("crc", true)
                .containsEntry("initiator", "10.77.0.1:36380").containsEntry("responder", "10.77.0.2:7174");
        Map<String, Object> ours = obj(c, "initiatorSent");
        assertThat(ours).containsEntry("ops", List.of("SEND")).containsEntry("crcErrors", 1L)
                .containsEntry("terminates", 0L).containsEntry("close", "FIN");
        Map<String, Object> siw = obj(c, "responderSent");
        assertThat(siw).containsEntry("ops", List.of("TERMINATE")).containsEntry("crcErrors", 0L)
                .containsEntry("terminates", 1L).containsEntry("close", "FIN");
        assertThat(obj(siw, "terminate")).containsEntry("layer", 2L).containsEntry("etype", 0L)
                .containsEntry("code", 2L).containsEntry("layout", "siw-mirrored")
                .containsEntry("controlWord", "02020000");
        // FINDINGS F2 (i): the octets siw sent
        assertThat(obj(siw, "first")).containsEntry("op", "TERMINATE")
                .containsEntry("octets", "00164147000000000000000200000001000000000202000075d367ed");
    }

    @Test
    void aRejectCarriesNoFpdus() {
        Map<String, Object> c = only("mpa-rep-markers");
        assertThat(c).containsEntry("mpa", "reject").containsEntry("crc", false);
        assertThat(obj(c, "request")).containsEntry("m", true)
                .containsEntry("octets", "4d504120494420526571204672616d659002000400010001");
        // FINDINGS M8: R=1, M cleared, an all-zero block
        assertThat(obj(c, "reply")).containsEntry("r", true).containsEntry("m", false).containsEntry("ird", 0L)
                .containsEntry("octets", "4d504120494420526570204672616d653002000400000000");
        for (String side : List.of("initiatorSent", "responderSent")) {
            assertThat(obj(c, side)).containsEntry("fpdus", 0L).containsEntry("ops", List.of())
                    .containsEntry("first", null).containsEntry("close", "FIN");
        }
    }

    @Test
    void siwsFirstFpduIsTheFixturesOctets() throws IOException {
        Path pcap = ExplainSiwLabTest.lab().resolve("pcap/probe-rping-client.pcap");
        ExplainRun r = ExplainRun.run("explain", "--summary", "--pcap", pcap.toString());
        Map<String, Object> siw = obj(r.entries().get(0), "responderSent");
        assertThat(obj(siw, "first")).containsEntry("op", "RDMA_READ_REQUEST")
                .containsEntry("octets", vec("siw-fpdu-read-request", "hex"));
        assertThat(obj(r.entries().get(0), "reply")).containsEntry("octets",
                "4d504120494420526570204672616d651002000400010001");
    }

    @Test
    void siwsFpduSizesFollowTheMss() {
        // FINDINGS C3: a 4096-octet RDMA Write leaves siw as ULPDU_Length 1442, 1442, 1254
        Map<String, Object> siw = obj(only("fpdu-mss-write-4096"), "responderSent");
        assertThat(siw).containsEntry("ulpduLengths", List.of(46L, 34L, 1442L, 1442L, 1254L, 34L))
                .containsEntry("ops", List.of("RDMA_READ_REQUEST", "SEND", "RDMA_WRITE", "RDMA_WRITE", "RDMA_WRITE",
                        "SEND"))
                .containsEntry("opCounts", Map.of("RDMA_READ_REQUEST", 1L, "SEND", 2L, "RDMA_WRITE", 3L));
    }

    @Test
    void nonZeroPadOctetsAreCounted() throws IOException {
        // FINDINGS C1 and fixture siw-fpdu-write-pad-nonzero: siw's 26-octet Writes carry a PAD that is not zero;
        // ours (the probe's Read Responses of the same size) carry zeros
        assertThat(vec("siw-fpdu-write-pad-nonzero", "pad_hex")).isNotEqualTo("0000");
        Map<String, Object> c = only("fpdu-pad-s26");
        assertThat(obj(c, "responderSent")).containsEntry("nonZeroPads", 2L);
        assertThat(obj(c, "initiatorSent")).containsEntry("nonZeroPads", 0L);
    }

    @Test
    void zeroLengthWritesAreCounted() {
        // FINDINGS M6: with A=1 and C picked, our first FPDU is the zero-length Write RTR
        Map<String, Object> c = only("mpa-rep-p2p-BCD");
        assertThat(obj(c, "initiatorSent")).containsEntry("zeroLengthWrites", 1L);
        assertThat(obj(obj(c, "initiatorSent"), "first")).containsEntry("op", "RDMA_WRITE");
        assertThat(obj(c, "responderSent")).containsEntry("zeroLengthWrites", 0L);
        assertThat(obj(c, "request")).containsEntry("rtr", List.of("send", "write", "read"));
    }

    @Test
    void summaryNeedsACaptureAndStandsAlone() {
        ExplainRun hex = ExplainRun.run("explain", "--summary", "--hex", "-");
        assertThat(hex.exit()).isEqualTo(IwarpCommand.EXIT_USAGE);
        assertThat(hex.err()).contains("--summary needs --pcap");
        ExplainRun both = ExplainRun.run("explain", "--summary", "--json", "--pcap", capture("term-crc").toString());
        assertThat(both.exit()).isEqualTo(IwarpCommand.EXIT_USAGE);
        assertThat(both.out()).isEmpty();
    }
}
