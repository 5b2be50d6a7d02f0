package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** {@code iwarp perf --plot} and {@code --compare-tcp}: the SVG documents, their labels, and the runs behind them. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PerfPlotTest {

    static final String SVG_NS = "http://www.w3.org/2000/svg";

    @TempDir
    Path dir;

    /** A parsed SVG document and the text of its text elements. */
    record Svg(Document doc, List<String> texts) {}

    /** Parses {@code xml} with the JDK's parser, refusing any DOCTYPE (nothing to fetch: the file stands alone). */
    static Svg parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        Document doc = f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
        Element root = doc.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo(SVG_NS);
        assertThat(Double.parseDouble(root.getAttribute("width"))).isPositive();
        assertThat(Double.parseDouble(root.getAttribute("height"))).isPositive();
        // self-contained: no element refers to anything outside the document
        NodeList all = doc.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            NamedNodeMap attrs = all.item(i).getAttributes();
            for (int j = 0; j < attrs.getLength(); j++) {
                String name = attrs.item(j).getNodeName();
                if (!name.startsWith("xmlns")) {
                    assertThat(attrs.item(j).getNodeValue()).as(name).doesNotContain("http:", "https:", "file:");
                }
            }
        }
        NodeList text = doc.getElementsByTagNameNS(SVG_NS, "text");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < text.getLength(); i++) {
            texts.add(text.item(i).getTextContent());
        }
        return new Svg(doc, texts);
    }

    static PerfResult bw(int size, double mbps) {
        double bytes = mbps * (1 << 20);
        return new PerfResult(size, 1000, bytes, bytes, bytes / size, null);
    }

    static int markers(Svg svg) {
        return svg.doc().getElementsByTagNameNS(SVG_NS, "path").getLength();
    }

    @Test
    void sizeSweepHasBothSeriesAndLabelledLogAxes() throws Exception {
        List<PerfResult> iwarp = new ArrayList<>();
        List<PerfResult> tcp = new ArrayList<>();
        for (int s = 2; s <= 1 << 23; s <<= 1) {
            iwarp.add(bw(s, Math.min(1500, s / 10.0)));
            tcp.add(bw(s, Math.min(1800, s / 4.0)));
        }
        String xml = PerfPlot.sizeSweepSvg("RDMA_Write BW Test vs TCP", "a subtitle", false,
                List.of(new PerfPlot.Series("iWARP RDMA_Write", iwarp), new PerfPlot.Series("TCP", tcp)));
        assertThat(xml).startsWith("<?xml").doesNotContain("<!DOCTYPE");
        Svg svg = parse(xml);
        assertThat(svg.texts()).contains("RDMA_Write BW Test vs TCP: bandwidth",
                "RDMA_Write BW Test vs TCP: message rate", "a subtitle", "iWARP RDMA_Write", "TCP", PerfPlot.SIZE_AXIS,
                PerfPlot.bandwidthAxis(false), PerfPlot.MESSAGE_RATE_AXIS);
        // log2 size ticks labelled in binary multiples, message rate ticks in decades
        assertThat(svg.texts()).contains("2", "512", "1K", "64K", "8M", "0.001", "0.1");
        // legends twice (one per chart), every data point a marker: more paths with more points
        String fewer = PerfPlot.sizeSweepSvg("t", "s", false, List.of(new PerfPlot.Series("iWARP RDMA_Write",
                iwarp.subList(0, 4)), new PerfPlot.Series("TCP", tcp.subList(0, 4))));
        assertThat(markers(svg)).isGreaterThan(markers(parse(fewer)) + 2 * 2 * 19 - 1);
        assertThat(PerfPlot.sizeSweepSvg("t", "s", true, List.of(new PerfPlot.Series("x", iwarp))))
                .contains(PerfPlot.bandwidthAxis(true));
    }

    @Test
    void percentilePlotLabelsItsTail() throws Exception {
        LatencyMeter a = new LatencyMeter(false);
        LatencyMeter b = new LatencyMeter(false);
        for (int i = 1; i <= 10_000; i++) {
            a.record(10_000 + i);          // 10..20 µs
            b.record(4_000 + i % 1000);    // 4..5 µs
        }
        a.record(2_000_000);               // one 2 ms outlier
        List<PerfPlot.Series> series = List.of(
                new PerfPlot.Series("iWARP RDMA_Write (1/2 round trip)", List.of(PerfResult.latency(64, a, 1_000_000))),
                new PerfPlot.Series("TCP (1/2 round trip)", List.of(PerfResult.latency(64, b, 1_000_000))));
        Svg svg = parse(PerfPlot.percentileSvg("RDMA_Write Latency Test vs TCP", "sub", series));
        assertThat(svg.texts()).contains("RDMA_Write Latency Test vs TCP: latency by percentile",
                "iWARP RDMA_Write (1/2 round trip)", "TCP (1/2 round trip)", PerfPlot.PERCENTILE_AXIS,
                PerfPlot.LATENCY_AXIS, "0%", "90%", "99%", "99.9%");
        // the y axis reaches the outlier: a tick at 1024 µs or above
        assertThat(svg.texts()).anySatisfy(t -> assertThat(t).matches("\\d+").satisfies(v ->
                assertThat(Long.parseLong(v)).isGreaterThanOrEqualTo(1024)));
    }

    @Test
    void theCurveRunsFromTheMinimumToTheMaximum() {
        LatencyMeter m = new LatencyMeter(true);
        for (int i = 1; i <= 1000; i++) {
            m.record(2_000L * i); // half: 1..1000 µs
        }
        LatencyMeter.PercentileCurve c = m.stats().curve();
        double[] p = c.percentiles();
        double[] us = c.micros();
        assertThat(p).hasSameSizeAs(us).hasSizeGreaterThan(10);
        assertThat(p[0]).isLessThan(1);
        assertThat(us[0]).isCloseTo(1, Offset.offset(0.01));
        for (int i = 1; i < p.length; i++) {
            assertThat(p[i]).isGreaterThan(p[i - 1]);
            assertThat(us[i]).isGreaterThanOrEqualTo(us[i - 1]);
        }
        // the maximum stands at one in a thousand
        assertThat(p[p.length - 1]).isCloseTo(99.9, Offset.offset(1e-9));
        assertThat(us[us.length - 1]).isCloseTo(1000, Percentage.withPercentage(0.1));
    }

    @Test
    void tickLabels() {
        assertThat(new PerfPlot.BinarySize().format(512)).isEqualTo("512");
        assertThat(new PerfPlot.BinarySize().format(65536)).isEqualTo("64K");
        assertThat(new PerfPlot.BinarySize().format(1 << 23)).isEqualTo("8M");
        assertThat(new PerfPlot.BinarySize().format(1536)).isEqualTo("1536");
        assertThat(new PerfPlot.Percentile().format(1)).isEqualTo("0%");
        assertThat(new PerfPlot.Percentile().format(10)).isEqualTo("90%");
        assertThat(new PerfPlot.Percentile().format(1000)).isEqualTo("99.9%");
        assertThat(new PerfPlot.Decimal().format(0.001)).isEqualTo("0.001");
        assertThat(new PerfPlot.Decimal().format(1000)).isEqualTo("1000");
        assertThat(new PerfPlot.Power(2, new PerfPlot.BinarySize()).format(16)).isEqualTo("64K");
    }

    @Test
    void sweepPlotRunsTcpAfterIwarpOverTheSameSizes() throws Exception {
        Path svg = dir.resolve("write.svg");
        Path json = dir.resolve("write.json");
        ToolRun r = ToolRun.run("perf", "write", "--loopback", "-a", "-n", "5", "-t", "2", "--plot", svg.toString(),
                "--details-json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("RDMA_Write BW Test", "TCP BW Test", "plot: " + svg);
        assertThat(r.out().indexOf("TCP BW Test")).isGreaterThan(r.out().indexOf("RDMA_Write BW Test"));
        // both tables over the same 23 sizes
        assertThat(PerfTest.bwLines(r.out())).hasSize(46);
        Svg doc = parse(Files.readString(svg));
        assertThat(doc.texts()).contains("iWARP RDMA_Write", "TCP", PerfPlot.SIZE_AXIS, PerfPlot.MESSAGE_RATE_AXIS,
                "8M");
        @SuppressWarnings("unchecked")
        Map<String, Object> d = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        assertThat(d).containsEntry("test", "RDMA_Write BW Test");
        @SuppressWarnings("unchecked")
        Map<String, Object> tcp = (Map<String, Object>) d.get("tcp_baseline");
        assertThat(tcp).containsEntry("test", "TCP BW Test").containsEntry("verb", "tcp");
        assertThat((List<?>) tcp.get("results")).hasSize(23);
    }

    @Test
    void latencyPlotOfSendBesideTcp() throws Exception {
        Path svg = dir.resolve("send.svg");
        ToolRun r = ToolRun.run("perf", "send", "--loopback", "--latency", "-s", "64", "-n", "300", "--plot",
                svg.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(PerfTest.latLines(r.out())).hasSize(2);
        assertThat(parse(Files.readString(svg)).texts()).contains("iWARP Send (1/2 round trip)",
                "TCP (1/2 round trip)", PerfPlot.LATENCY_AXIS, "90%");
    }

    @Test
    void tcpPlotsTheBaselineAlone() throws Exception {
        Path svg = dir.resolve("tcp.svg");
        ToolRun r = ToolRun.run("perf", "tcp", "--loopback", "-s", "1024", "-n", "200", "--plot", svg.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(PerfTest.bwLines(r.out())).hasSize(1);
        List<String> texts = parse(Files.readString(svg)).texts();
        assertThat(texts).contains("TCP BW Test: bandwidth").noneMatch(t -> t.startsWith("iWARP"));
    }

    @Test
    void compareTcpBetweenTwoProcesses() throws Exception {
        int port = ToolRun.freePort();
        int tcpPort = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "read", "--protocol", "iwarp4j",
                "-p", Integer.toString(port),
                "--compare-tcp", "--tcp-port", Integer.toString(tcpPort), "--details");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "read", "127.0.0.1", "--protocol", "iwarp4j",
                "-p", Integer.toString(port), "--compare-tcp",
                "--tcp-port", Integer.toString(tcpPort), "-s", "4096", "-n", "500", "--details");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(client.out()).contains("RDMA_Read BW Test", "TCP BW Test",
                "remote address  : /127.0.0.1:" + tcpPort);
        // each test reports the client's and the server's CPU
        assertThat(PerfTest.cpuLines(client.out())).extracting(PerfTest.CpuLine::end)
                .containsExactly("client", "server", "client", "server");
    }
}
