package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.tools.cli.PageChecks;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.PcapBuilder;
import org.iwarp4j.tools.pcap.TcpSegment;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code explain --pcap FILE --html OUT}: the ladder page, read back with jsoup (in Chromium: ExplainBrowserTest). */
class ExplainHtmlTest {

    static final String SIW = "/org/iwarp4j/tools/explain/siw/";
    static final String FUZZ = "/org/iwarp4j/tools/explain/ExplainFuzzTestInputs/anyCaptureIsExplainedOrRefused/";

    @TempDir
    Path dir;

    /** A Send, a Read Request, and the Terminate siw answers it with (base or bounds violation). */
    @Test
    void theTerminateCaptureHasOneArrowPerMessageAndTheTerminateInRed() {
        Document page = page(FUZZ + "siw-term-read-bounds.pcap", 0);
        Elements arrows = page.select("svg.ladder .arrow");
        assertThat(arrows).extracting(a -> a.attr("data-direction") + " " + a.selectFirst("text.label").text())
                .containsExactly(
                        "I2R MPA Request Rev 2 M=0 C=0 R=0 IRD 1 ORD 1",
                        "R2I MPA Reply Rev 2 M=0 C=0 R=0 IRD 1 ORD 1",
                        "I2R Send MSN 1 16 octets",
                        "R2I RDMA Read Request MSN 1 src STag 0x1e915d00 TO 0x00005654a53c3598 64 octets",
                        "I2R Terminate MSN 1",
                        "I2R TCP FIN",
                        "R2I TCP FIN");
        Element terminate = arrows.get(4);
        assertThat(terminate.classNames()).contains("arrow", "terminate");
        assertThat(terminate.selectFirst("line").attr("stroke")).isEqualTo("#c62828");
        assertThat(terminate.selectFirst("text.label").attr("fill")).isEqualTo("#c62828");
        assertThat(terminate.selectFirst("text.detail").text())
                .contains("Base or bounds violation", "#5", "pcap frame 10");
        assertThat(arrows.subList(0, 4)).allSatisfy(a -> assertThat(a.selectFirst("line").attr("stroke"))
                .isNotEqualTo("#c62828"));
        // Every arrow but the FINs opens its panel: #fN, N the entry's number in the text output.
        arrows = page.select("svg.ladder a.arrow");
        assertThat(arrows).extracting(a -> a.attr("href")).containsExactly("#f1", "#f2", "#f3", "#f4", "#f5");
        for (Element a : arrows) {
            assertThat(page.getElementById(a.attr("href").substring(1))).as(a.attr("href")).isNotNull();
        }
    }

    /** The panel of an FPDU: RDMAP, then DDP, then MPA, then TCP, with explain's field views and RFC sections. */
    @Test
    void aPanelShowsTheLayersTopDownWithTheirRfcSections() {
        Document page = page(FUZZ + "siw-term-read-bounds.pcap", 0);
        Element panel = page.getElementById("f5");
        assertThat(panel.classNames()).contains("layers", "terminate");
        Elements layers = panel.select(".part > .layer");
        assertThat(layers).extracting(l -> l.classNames().stream().filter(c -> !c.equals("layer")).findFirst()
                        .orElse(""))
                .containsExactly("rdmap", "ddp", "mpa", "tcp");
        assertThat(layers.get(0).selectFirst(".heading").text()).isEqualTo("RDMAP Terminate (RFC 5040 §4.8)");
        assertThat(layers.get(0).text()).contains("Error Code", "Base or bounds violation", "Terminated DDP Header");
        assertThat(layers.get(1).selectFirst(".heading").text()).startsWith("DDP untagged");
        assertThat(layers.get(1).text()).contains("QN", "RFC 5041 §4.3").doesNotContain("RDMAP Terminate");
        assertThat(layers.get(2).selectFirst(".heading").text()).startsWith("FPDU I2R offset 64, 76 octets");
        assertThat(layers.get(2).text()).contains("ULPDU_Length", "RFC 5044 §4.1").doesNotContain("DDP untagged");
        assertThat(layers.get(3).selectFirst(".heading").text()).startsWith("TCP I2R offset 64, 76 octets");
        assertThat(layers.get(3).selectFirst("pre").text()).startsWith("0000  00 46 41 47");
        // The same rows as the text output, row for row.
        Path capture = resource(FUZZ + "siw-term-read-bounds.pcap");
        String text = ExplainRun.run("explain", "--pcap", capture.toString()).out();
        for (Element th : panel.select("table.fields th")) {
            if (!layers.get(3).select("th").contains(th)) {
                assertThat(text).contains(th.text());
            }
        }
    }

    /** The siw rping capture: 35 single-segment messages, both FINs; no warnings, nothing red. */
    @Test
    void everyMessageOfAnRpingCaptureIsAnArrowAndTheFinsAreMarked() {
        Document page = page(SIW + "rping-siw-guest-local.pcap", 0);
        assertThat(page.select("svg.ladder a.arrow.message")).hasSize(35);
        assertThat(page.select("svg.ladder a.arrow.mpa")).hasSize(2);
        assertThat(page.select("svg.ladder .arrow.terminate, svg.ladder .arrow.error")).isEmpty();
        Elements fins = page.select("svg.ladder g.arrow.fin");
        assertThat(fins).isNotEmpty();
        assertThat(fins).allSatisfy(f -> assertThat(f.text()).contains("TCP FIN", "pcap frame"));
        assertThat(page.select("section.layers")).hasSize(37);
        // The arrows follow the capture: pcap frames never go back.
        List<Element> all = page.select("svg.ladder .arrow");
        int last = 0;
        for (Element a : all) {
            String detail = a.selectFirst("text.detail").text();
            int frame = Integer.parseInt(detail.replaceAll(".*pcap frames? (\\d+).*", "$1"));
            assertThat(frame).isGreaterThanOrEqualTo(last);
            last = frame;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {SIW + "rping-client-to-host-reject.pcap", SIW + "ib_read_bw-siw-guest-local.pcap",
            FUZZ + "iwarp-rev1-crc.pcap", FUZZ + "iwarp-markers.pcap", FUZZ + "siw-term-ddp-version-tagged.pcap"})
    void everyPageIsSelfContainedValidHtml(String capture) throws IOException {
        Path out = dir.resolve("page.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", resource(capture).toString(), "--html", out.toString());
        assertThat(r.err()).as(r.toString()).isEmpty();
        String html = Files.readString(out);
        PageChecks.assertSelfContained(html);
    }

    /** The Reply of a rejected connection is red; no FPDU follows it. */
    @Test
    void aRejectedConnectionEndsWithARedReply() {
        Document page = page(SIW + "rping-client-to-host-reject.pcap", 0);
        Element reply = page.selectFirst("svg.ladder a.arrow.reject");
        assertThat(reply).isNotNull();
        assertThat(reply.selectFirst("text.label").text()).contains("MPA Reply", "R=1", "rejected");
        assertThat(reply.selectFirst("line").attr("stroke")).isEqualTo("#c62828");
        assertThat(page.select("svg.ladder a.arrow.message")).isEmpty();
    }

    /** Whatever a capture carries is text on the page: an MPA key of "&lt;script&gt;alert(1)" is escaped. */
    @Test
    void octetsFromTheCaptureAreEscaped() throws IOException {
        Endpoint client = new Endpoint(new byte[] {10, 1, 1, 1}, 40000);
        Endpoint server = new Endpoint(new byte[] {10, 1, 1, 2}, 7174);
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();
        byte[] key = "<script>alert(1)".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(key, 0, request, 0, 16);
        PcapBuilder p = PcapBuilder.ethernet()
                .tcp(client, server, 1000, TcpSegment.SYN, new byte[0])
                .tcp(server, client, 5000, TcpSegment.SYN | TcpSegment.ACK, new byte[0])
                .tcp(client, server, 1001, TcpSegment.ACK, request)
                .tcp(client, server, 1001 + request.length, TcpSegment.RST, new byte[0]);
        Path out = dir.resolve("escaped.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", ExplainRun.writeBytes(dir, p.build(), ".pcap").toString(),
                "--html", out.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        String html = Files.readString(out);
        PageChecks.assertSelfContained(html);
        assertThat(html).doesNotContain("<script>alert").contains("&lt;script&gt;alert(1)");
        Document page = Jsoup.parse(html);
        assertThat(page.select("script")).hasSize(1);
        // The bad key is an error where it occurs (the first octets of I2R), in red; the RST is marked.
        Element error = page.selectFirst("svg.ladder a.arrow.error");
        assertThat(error).isNotNull();
        assertThat(error.selectFirst("line").attr("stroke")).isEqualTo("#c62828");
        assertThat(page.getElementById(error.attr("data-panel")).text()).contains("<script>alert(1)");
        assertThat(page.select("svg.ladder g.arrow.rst").text()).contains("TCP RST");
    }

    /** Not a pcap at all: the page says why, where the connections would be; exit status 2 as without --html. */
    @Test
    void aFileThatIsNotAPcapGivesAPageWithTheError() throws IOException {
        byte[] text = "this is not a capture at all, just text\n".getBytes(StandardCharsets.UTF_8);
        Path bad = ExplainRun.writeBytes(dir, text, ".pcap");
        Path out = dir.resolve("bad.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", bad.toString(), "--html", out.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("not a pcap file: magic number").doesNotContain("Exception", "\tat ");
        String html = Files.readString(out);
        PageChecks.assertSelfContained(html);
        Element fatal = Jsoup.parse(html).selectFirst("div.fatal[role=alert]");
        assertThat(fatal).isNotNull();
        assertThat(fatal.text()).contains(bad.toString(), "not a pcap file: magic number");
        assertThat(html).doesNotContain("Exception", "\tat org.");
    }

    /** A capture cut short inside a packet: the page warns, and the connection's ladder ends at the cut. */
    @Test
    void aCaptureCutShortShowsTheWarningAndTheErrorWhereTheStreamEnds() throws IOException {
        byte[] whole = bytes(SIW + "rping-siw-guest-local.pcap");
        Path cut = ExplainRun.writeBytes(dir, Arrays.copyOf(whole, whole.length * 2 / 5), ".pcap");
        Path out = dir.resolve("cut.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", cut.toString(), "--html", out.toString());
        assertThat(r.err()).as(r.toString()).isEmpty();
        String html = Files.readString(out);
        PageChecks.assertSelfContained(html);
        Document page = Jsoup.parse(html);
        assertThat(page.select("ul.warnings li").text()).contains("file cut short");
        assertThat(page.select("svg.ladder a.arrow.message")).isNotEmpty().hasSizeLessThan(35);
    }

    @Test
    void htmlNeedsACapture() {
        ExplainRun r = ExplainRun.run("explain", "--hex", ExplainRun.write(dir, "00").toString(), "--html",
                dir.resolve("x.html").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--html needs --pcap");
        assertThat(dir.resolve("x.html")).doesNotExist();
    }

    @Test
    void stdoutNamesThePageAndTheSummary() {
        Path out = dir.resolve("p.html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", resource(SIW + "rping-siw-guest-local.pcap").toString(),
                "--html", out.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(out + ": 37 frames (1 MPA Request, 1 MPA Reply, 35 FPDUs), no errors.\n");
    }

    private Document page(String capture, int exit) {
        Path out = dir.resolve("page-" + System.nanoTime() + ".html");
        ExplainRun r = ExplainRun.run("explain", "--pcap", resource(capture).toString(), "--html", out.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
        try {
            String html = Files.readString(out);
            PageChecks.assertSelfContained(html);
            return Jsoup.parse(html);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A test resource copied to a file (the tools read files). */
    Path resource(String name) {
        return ExplainRun.writeBytes(dir, bytes(name), ".pcap");
    }

    static byte[] bytes(String name) {
        try (InputStream in = ExplainHtmlTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
