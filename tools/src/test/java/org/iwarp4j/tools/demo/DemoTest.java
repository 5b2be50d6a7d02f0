package org.iwarp4j.tools.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.PageChecks;
import org.iwarp4j.tools.cli.ToolRun;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code iwarp demo}: every operation verified, the report's structure, and the capture it decodes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoTest {

    /** The RDMAP messages of the seven operations, in order, with the 4000-octet Read Response in 3 segments. */
    static final List<String> MESSAGES = List.of("I2R RDMA_WRITE", "I2R RDMA_READ_REQUEST", "R2I RDMA_READ_RESPONSE",
            "R2I RDMA_READ_RESPONSE", "R2I RDMA_READ_RESPONSE", "I2R SEND", "I2R SEND_WITH_INVALIDATE",
            "I2R RDMA_WRITE",
            "I2R IMMEDIATE_DATA", "I2R ATOMIC_REQUEST", "R2I ATOMIC_RESPONSE", "I2R ATOMIC_REQUEST",
            "R2I ATOMIC_RESPONSE");

    @TempDir
    Path dir;

    @Test
    void everyOperationIsVerifiedAndFollowedDownTheLayers() {
        Path pcap = dir.resolve("demo.pcap");
        ToolRun r = ToolRun.run("demo", "--pcap", pcap.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
        String out = r.out();
        assertThat(out).contains("MPA negotiated", "revision 2, CRC32c on", "IRD/ORD: client 4/4, server 4/4");
        List<String> titles = List.of("1. RDMA Write", "2. RDMA Read", "3. Send", "4. Send with Invalidate",
                "5. RDMA Write with Immediate", "6. Atomic FetchAdd", "7. Atomic CmpSwap");
        int at = 0;
        for (String title : titles) {
            int i = out.indexOf("\n" + title + ":", at);
            assertThat(i).as(title).isGreaterThan(at);
            at = i;
        }
        assertThat(out).doesNotContain("MISMATCH").contains("7 operations, 16 of 16 checks passed; 11 RDMAP messages "
                + "in 13 FPDUs").contains("0 decode errors").endsWith("Result: every check passed.\n");
        // Each layer appears for each FPDU, top down.
        assertThat(out.split("\n  DDP ", -1)).hasSize(14);
        assertThat(out.split("\n  MPA ", -1)).hasSize(14);
        assertThat(out.split("\n  TCP ", -1)).hasSize(14);
        assertThat(out).contains("client.qp.postSend(RdmaWrite.of(1, data.sge(0, 302), sink.remoteBuffer(16, 302)))",
                "-> client send CQ: wrId 1 RDMA_WRITE SUCCESS, 302 octets",
                "ULPDU_Length 316  PAD 2  CRC", "(valid)", "RDMA Read Response (RFC 5040 §4.5), 3 DDP segments",
                "Payload 4000 octets", "invalidated STag", "immediate data 0x1122334455667788",
                "original value 100", "the server's word is now 0xcafe");

        // The capture decodes without errors into exactly these messages, every CRC valid.
        List<Map<String, Object>> e = ToolRun.explain(pcap);
        assertThat(e.get(0)).containsEntry("type", "mpa-request").containsEntry("c", true);
        assertThat(e.get(1)).containsEntry("type", "mpa-reply");
        List<Map<String, Object>> fpdus = e.subList(2, e.size());
        assertThat(fpdus).extracting(DemoTest::directionAndMessage).containsExactlyElementsOf(MESSAGES);
        assertThat(fpdus).allSatisfy(f -> assertThat(f).containsEntry("crcValid", true));
        // MSS 1460: no FPDU is longer (RFC 5044 §4.5, siw-interop §A).
        assertThat(fpdus).allSatisfy(f -> assertThat((Long) f.get("ulpduLength")).isLessThanOrEqualTo(1460 - 6));
    }

    /** {@code --html}: the capture's ladder, one arrow per RDMAP message (the Read Response's 3 segments one arrow). */
    @Test
    void theHtmlPageDrawsEveryMessageOfTheCapture() throws Exception {
        Path page = dir.resolve("demo.html");
        ToolRun r = ToolRun.run("demo", "--html", page.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Page: " + page);
        String html = Files.readString(page);
        PageChecks.assertSelfContained(html);
        Document doc = Jsoup.parse(html);
        assertThat(doc.select("p.intro").text()).contains("1. RDMA Write:", "7. Atomic CmpSwap:", "checks passed");
        assertThat(doc.select("svg.ladder a.arrow.mpa")).hasSize(2);
        assertThat(doc.select("svg.ladder a.arrow.message")).extracting(a -> a.selectFirst("text.label").text()
                .replaceFirst(" (MSN|STag) .*", "")).containsExactly("RDMA Write", "RDMA Read Request",
                "RDMA Read Response", "Send", "Send with Invalidate", "RDMA Write", "Immediate Data", "Atomic Request",
                "Atomic Response", "Atomic Request", "Atomic Response");
        Element response = doc.select("svg.ladder a.arrow.message").get(2);
        assertThat(response.attr("data-direction")).isEqualTo("R2I");
        assertThat(response.text()).contains("4000 octets", "3 DDP segments");
        assertThat(doc.getElementById(response.attr("data-panel")).select("h4")).extracting(Element::text)
                .containsExactly("DDP segment 1 of 3 (#5)", "DDP segment 2 of 3 (#6)", "DDP segment 3 of 3 (#7)");
        assertThat(doc.select("svg.ladder .arrow.terminate, svg.ladder .arrow.error")).isEmpty();
    }

    @Test
    void crcOffAndMarkers() {
        Path pcap = dir.resolve("markers.pcap");
        ToolRun r = ToolRun.run("demo", "--crc", "off", "--markers", "--mss", "0", "--pcap", pcap.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("CRC32c off", "markers client->server on, server->client on",
                "Marker FPDUPTR 0 at FPDU+0", "(not checked)", "16 of 16 checks passed");
        List<Map<String, Object>> e = ToolRun.explain(pcap);
        List<Map<String, Object>> fpdus = e.subList(2, e.size());
        // One Read Response segment at the connection's own MSS.
        assertThat(fpdus).hasSize(MESSAGES.size() - 2);
        assertThat(fpdus).allSatisfy(f -> assertThat(f.get("crcValid")).isNull());
        assertThat(fpdus.get(0).get("markers")).asList().isNotEmpty();
    }

    @Test
    void withoutPcapTheCaptureIsTemporary() throws Exception {
        long before;
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            before = s.filter(p -> p.getFileName().toString().startsWith("iwarp-demo-")).count();
        }
        ToolRun r = ToolRun.run("demo", "--fields");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Run with --pcap FILE to keep the capture")
                // --fields: explain's field-by-field view of every frame
                .contains("ULPDU_Length  0x013c (316)", "RFC 5041 §4.2", "Data Source STag");
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(s.filter(p -> p.getFileName().toString().startsWith("iwarp-demo-")).count()).isEqualTo(before);
        }
    }

    /** The README starts with the two set-up commands: the demo (main job) and the test suite. */
    @Test
    void theReadmeStartsWithTheDemoAndTheTests() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        assertThat(lines.get(2)).isEqualTo("```sh");
        assertThat(lines.get(3)).startsWith("./iwarp demo ");
        assertThat(lines.get(4)).startsWith("mvn -B verify ");
        assertThat(ToolRun.run("demo", "--help").exit()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--mss 5", "--crc maybe", "--bogus", "--mss"})
    void usageErrors(String args) {
        ToolRun r = ToolRun.run(("demo " + args).split(" "));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("Usage: iwarp demo");
    }

    @SuppressWarnings("unchecked")
    static String directionAndMessage(Map<String, Object> fpdu) {
        return fpdu.get("direction") + " " + ((Map<String, Object>) fpdu.get("rdmap")).get("opcode");
    }
}
