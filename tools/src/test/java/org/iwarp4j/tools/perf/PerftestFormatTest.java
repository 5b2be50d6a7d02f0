package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * perftest's output, character for character: the golden texts below are perftest's format strings
 * (perftest_parameters.h, perftest_parameters.c ctx_print_test_info and write_test_info_to_file,
 * perftest_communication.h BASIC_ADDR_FMT/RDMA_FMT) filled in by hand with the numbers of each test.
 */
@Timeout(60)
class PerftestFormatTest {

    @TempDir
    Path dir;

    private static final String DASHES =
            "---------------------------------------------------------------------------------------\n";

    private static PerfConfig config(PerfVerb verb, boolean latency, boolean gbits, int duration, Path json,
                                     PerftestFormat.Style style) {
        return new PerfConfig(verb, latency, false, false, List.of(latency ? 2 : 65536), 5000, duration, 0,
                latency ? 1 : 128, 512, gbits, json, false, null, false, 1, false, StackSettings.DEFAULTS, false, null,
                style);
    }

    private static PerftestFormat.TestInfo writeInfo(boolean latency) {
        return new PerftestFormat.TestInfo(PerfVerb.WRITE, latency, false, true, 1, latency ? 1 : 128, 0, 1024, 1,
                "IW");
    }

    private static List<String> writeAddresses() {
        return List.of(PerftestFormat.address("local", PerfVerb.WRITE, 0x11, 1, 0x1234, 0xa00000L),
                PerftestFormat.address("remote", PerfVerb.WRITE, 0, 1, 0x5678, 0xb00000L));
    }

    private static String report(PerfConfig config, PerftestFormat.TestInfo info, PerfResult... results)
            throws Exception {
        StringWriter text = new StringWriter();
        PerfReport report = new PerfReport(new PrintWriter(text), config);
        report.header(info, writeAddresses(), List.of("MPA             : rev 1 (printed with --details only)"));
        for (PerfResult r : results) {
            report.line(r);
        }
        report.footer();
        return text.toString();
    }

    /** 65536 B, 5000 iterations, 1090.58 MB/s peak and 1090.35 average, 0.017446 Mpps. */
    private static final PerfResult BW = new PerfResult(65536, 5000, 1090.58 * (1 << 20), 1090.35 * (1 << 20),
            17446, null);

    @Test
    void bandwidthReportOfPerftest45() throws Exception {
        String out = report(config(PerfVerb.WRITE, false, false, 0, null, PerftestFormat.Style.V4_5),
                writeInfo(false), BW);
        assertThat(out).isEqualTo(DASHES
                + "                    RDMA_Write BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : iwarp4j\n"
                + " Number of qps   : 1\t\tTransport type : IW\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : OFF\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 1\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : ON\n"
                + " Data ex. method : rdma_cm\n"
                + DASHES
                + " local address: LID 0000 QPN 0x0011 PSN 000000 RKey 0x001234 VAddr 0x00000000a00000\n"
                + " remote address: LID 0000 QPN 000000 PSN 000000 RKey 0x005678 VAddr 0x00000000b00000\n"
                + DASHES
                + " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
                + " 65536      5000             1090.58            1090.35\t\t   0.017446\n"
                + DASHES);
    }

    @Test
    void bandwidthReportOfUpstream() throws Exception {
        String out = report(config(PerfVerb.WRITE, false, false, 0, null, PerftestFormat.Style.UPSTREAM),
                writeInfo(false), BW);
        assertThat(out).contains(" PCIe relax order: Unsupported\t\tLock-free\t: Unsupported\n"
                        + " ibv_wr* API     : OFF\t\tUsing Enhanced Reorder      : OFF\n",
                " CQ Moderation   : 1\n CQE Poll Batch  : 64\n Mtu             : 1024[B]\n")
                .endsWith(" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
                        + " 65536      5000             1090.58            1090.35\t\t     0.017446\n" + DASHES);
    }

    @Test
    void gigabitsAndTheirExtraAccuracy() {
        PerfConfig g = config(PerfVerb.WRITE, false, true, 0, null, PerftestFormat.Style.V4_5);
        // 1090.35 MiB/s = 9.146 Gb/s: REPORT_FMT; under 0.1 Gb/s print_full_bw_report takes REPORT_FMT_EXT
        assertThat(PerfReport.format(BW, g))
                .isEqualTo(" 65536      5000             9.15               9.15   \t\t   0.017446");
        PerfResult slow = new PerfResult(2, 5000, 5e6, 4e6, 2e6, null);
        assertThat(PerfReport.format(slow, g))
                .isEqualTo(" 2          5000           0.040000            0.032000            2.000000");
        assertThat(PerftestFormat.bwHeader(true, PerftestFormat.Style.UPSTREAM))
                .isEqualTo(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]");
    }

    @Test
    void latencyReport() throws Exception {
        LatencyMeter.LatencyStats s = new LatencyMeter.LatencyStats(1000, 0.96, 5.13, 0.99, 1.00, 0.08, 1.06, 5.13);
        PerfResult r = new PerfResult(2, 1000, 0, 0, 0, s);
        String out = report(config(PerfVerb.WRITE, true, false, 0, null, PerftestFormat.Style.V4_5), writeInfo(true),
                r);
        assertThat(out).contains("                    RDMA_Write Latency Test\n", " TX depth        : 1\n"
                        + " Mtu             : 1024[B]\n")
                .doesNotContain("CQ Moderation")
                .endsWith(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
                        + "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
                        + " 2       1000          0.96           5.13         0.99     \t       1.00        \t0.08   "
                        + "\t\t1.06    \t\t5.13   \n" + DASHES);
        // -D: RESULT_FMT_LAT_DUR and REPORT_FMT_LAT_DUR
        PerfConfig d = config(PerfVerb.WRITE, true, false, 2, null, PerftestFormat.Style.V4_5);
        assertThat(PerfReport.columns(d)).isEqualTo(" #bytes        #iterations       t_avg[usec]    tps average");
        assertThat(PerfReport.format(new PerfResult(2, 1000, 0, 0, 500000, s), d))
                .isEqualTo(" 2             1000            1.00           500000.00");
    }

    @Test
    void addressLinesOfEachTest() {
        assertThat(PerftestFormat.address("local", PerfVerb.READ, 0x2a, 16, 0x102, 0x7f0012345000L))
                .isEqualTo(" local address: LID 0000 QPN 0x002a PSN 000000 OUT 0x10 RKey 0x000102 "
                        + "VAddr 0x007f0012345000");
        assertThat(PerftestFormat.address("remote", PerfVerb.SEND, 3, 1, 9, 9))
                .isEqualTo(" remote address: LID 0000 QPN 0x0003 PSN 000000");
        assertThat(PerftestFormat.address("local", PerfVerb.ATOMIC, 0x123456, 1, 9, 9))
                .isEqualTo(" local address: LID 0000 QPN 0x123456 PSN 000000");
    }

    @Test
    void jsonOfUpstreamCharacterForCharacter() throws Exception {
        Path json = dir.resolve("perftest_out.json");
        report(config(PerfVerb.WRITE, false, false, 0, json, PerftestFormat.Style.V4_5), writeInfo(false), BW);
        assertThat(Files.readString(json)).isEqualTo("{\n"
                + "\"test_info\": {\n"
                + "\"test\": \"RDMA_Write_BW_Test\",\n"
                + "\"Dual_port\": \"OFF\",\n"
                + "\"Device\": \"iwarp4j\",\n"
                + "\"Number_of_qps\": 1,\n"
                + "\"Transport_type\": \"IW\",\n"
                + "\"Connection_type\": \"RC\",\n"
                + "\"Using_SRQ\": \"OFF\",\n"
                + " \"PCIe_relax_order\": \"Unsupported\",\n"
                + "\"ibv_wr_API\": \"OFF\",\n"
                + "\"TX_depth\": 128,\n"
                + "\"CQ_Moderation\": 1,\n"
                + "\"Mtu\": 1024,\n"
                + "\"Link_type\": \"Ethernet\",\n"
                + "\"Max_inline_data\": 0,\n"
                + "\"rdma_cm_QPs\": \"ON\",\n"
                + "\"Use_ROCm_memory\": \"OFF\",\n"
                + "\"Use_MUSA_memory\": \"OFF\",\n"
                + "\"Data_ex_method\": \"rdma_cm\"\n"
                + "},\n"
                + "\"results\": {\n"
                + "\"MsgSize\": 65536,\n"
                + "\"n_iterations\": 5000,\n"
                + "\"BW_peak\": 1090.58,\n"
                + "\"BW_average\": 1090.35,\n"
                + "\"MsgRate\": 0.017446\n"
                + "}\n"
                + "}\n");
        TinyJson.parse(Files.readString(json)); // and it is JSON (4.5's was not)
    }

    @Test
    void latencyJsonKeys() throws Exception {
        Path json = dir.resolve("lat.json");
        LatencyMeter.LatencyStats s = new LatencyMeter.LatencyStats(1000, 0.96, 5.13, 0.99, 1.00, 0.08, 1.06, 5.13);
        report(config(PerfVerb.WRITE, true, false, 0, json, PerftestFormat.Style.V4_5), writeInfo(true),
                new PerfResult(2, 1000, 0, 0, 0, s));
        String text = Files.readString(json);
        assertThat(text).contains("\"test\": \"RDMA_Write_Latency_Test\",\n", "\"TX_depth\": 1,\n\"Mtu\": 1024,\n")
                .endsWith("\"results\": {\n\"MsgSize\": 2,\n\"n_iterations\": 1000,\n\"t_min\": 0.96,\n"
                        + "\"t_max\": 5.13,\n\"t_typical\": 0.99,\n\"t_avg\": 1.00,\n\"t_stdev\": 0.08,\n"
                        + "\"percentile_99\": 1.06,\n\"percentile_99.9\": 5.13\n}\n}\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(text);
        assertThat(doc).containsOnlyKeys("test_info", "results");
    }

    @Test
    void bidirectionalHeaderAndJsonAsPerftest() throws Exception {
        // ctx_print_test_info and write_test_info_to_file with duplex: "Bidirectional" in the name, the TX depth at
        // both ends (the server sends too), the Send test's RX depth at both
        PerftestFormat.TestInfo server = new PerftestFormat.TestInfo(PerfVerb.WRITE, false, false, false, 1, 128, 0,
                1024, 1, "IW", true);
        assertThat(PerftestFormat.testInfo(server, PerftestFormat.Style.V4_5)).startsWith(
                " ".repeat(20) + "RDMA_Write Bidirectional BW Test").contains(" TX depth        : 128")
                .doesNotContain(" RX depth        : 0");
        PerftestFormat.TestInfo send = new PerftestFormat.TestInfo(PerfVerb.SEND, false, false, true, 1, 128, 512,
                1024, 1, "IW", true);
        assertThat(PerftestFormat.testInfo(send, PerftestFormat.Style.V4_5)).contains(" TX depth        : 128",
                " RX depth        : 512");
        PerftestFormat.TestInfo atomic = new PerftestFormat.TestInfo(PerfVerb.ATOMIC, false, false, true, 1, 128, 0,
                1024, 16, "IW", true);
        assertThat(atomic.nameWords()).containsExactly("Atomic", "FETCH_AND_ADD", "Bidirectional", "BW", "Test");
        Path json = dir.resolve("bidi.json");
        report(config(PerfVerb.WRITE, false, false, 0, json, PerftestFormat.Style.V4_5), server, BW);
        assertThat(Files.readString(json)).contains("\"test\": \"RDMA_Write_Bidirectional_BW_Test\",\n",
                "\"ibv_wr_API\": \"OFF\",\n\"TX_depth\": 128,\n\"CQ_Moderation\": 1,\n");
        // -b does not apply to the latency tests: no "Bidirectional" there
        assertThat(new PerftestFormat.TestInfo(PerfVerb.SEND, true, false, true, 1, 1, 512, 1024, 1, "IW", true)
                .nameWords()).containsExactly("Send", "Latency", "Test");
    }

    /** A measured span of exactly one second, without margins. */
    private static MeasuredSpan oneSecond() {
        MeasuredSpan span = MeasuredSpan.perftest(0, 1);
        span.begin(0);
        assertThat(span.advance(1_000_000_000L, 0)).isEqualTo(MeasuredSpan.Phase.OVER);
        return span;
    }

    @Test
    void durationLatencyLineAsPrintReportLatDuration() throws Exception {
        // print_report_lat_duration: t_avg is the measured span over the count, halved for the ping-pong tests
        // (Write, Send), whole for Read and Atomic; tps is the count over the span; REPORT_FMT_LAT_DUR
        PerfResult pingPong = PerftestTraffic.durationLatencyResult(oneSecond(), 64, 250_000, true,
                new LatencyMeter(true));
        PerfResult oneSided = PerftestTraffic.durationLatencyResult(oneSecond(), 64, 250_000, false,
                new LatencyMeter(false));
        PerfConfig d = config(PerfVerb.WRITE, true, false, 3, null, PerftestFormat.Style.V4_5);
        assertThat(PerfReport.format(pingPong, d))
                .isEqualTo(" 64     " + " ".repeat(7) + "250000" + " ".repeat(12) + "2.00   " + " ".repeat(8)
                        + "250000.00");
        assertThat(PerfReport.format(oneSided, d))
                .isEqualTo(" 64     " + " ".repeat(7) + "250000" + " ".repeat(12) + "4.00   " + " ".repeat(8)
                        + "250000.00");
        assertThat(pingPong.iterations()).isEqualTo(250_000);
        assertThat(pingPong.messagesPerSecond()).isEqualTo(250_000.0);
        // a count of more than 7 digits and a latency of more than 7 characters push the columns, as %-7 does
        PerfResult slow = PerftestTraffic.durationLatencyResult(oneSecond(), 1048576, 12_345_678, false,
                new LatencyMeter(false));
        assertThat(PerfReport.format(slow, d)).isEqualTo(" 1048576       12345678            0.08   "
                + "        12345678.00");
        String out = report(d, writeInfo(true), pingPong);
        assertThat(out).doesNotContain("CQ Moderation").endsWith(DASHES
                + " #bytes        #iterations       t_avg[usec]    tps average\n"
                + " 64            250000            2.00           250000.00\n" + DASHES);
    }

    @Test
    void durationLatencyJsonKeysAndLayout() throws Exception {
        // write_report_lat_duration_to_file with REPORT_FMT_LAT_DUR_JSON and REPORT_EXT_JSON, upstream's quoting
        Path json = dir.resolve("lat-dur.json");
        PerfResult r = PerftestTraffic.durationLatencyResult(oneSecond(), 64, 250_000, true, new LatencyMeter(true));
        report(config(PerfVerb.WRITE, true, false, 3, json, PerftestFormat.Style.V4_5), writeInfo(true), r);
        String text = Files.readString(json);
        assertThat(text).startsWith("{\n\"test_info\": {\n\"test\": \"RDMA_Write_Latency_Test\",\n")
                .contains("\"TX_depth\": 1,\n\"Mtu\": 1024,\n")
                .endsWith("\"Data_ex_method\": \"rdma_cm\"\n},\n\"results\": {\n\"MsgSize\": 64,\n"
                        + "\"n_iterations\": 250000,\n\"t_avg\": 2.00,\n\"tps_average\": 250000.00\n}\n}\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(text);
        @SuppressWarnings("unchecked")
        Map<String, Object> res = (Map<String, Object>) doc.get("results");
        assertThat(res).containsOnlyKeys("MsgSize", "n_iterations", "t_avg", "tps_average");
    }

    // --------------------------------------------------------------- a real run, read as perftest's output

    /** The regex people run over ib_write_bw's output: a line of five numbers after the "#bytes" header. */
    private static final Pattern PERFTEST_ROW = Pattern.compile(
            "^\\s*(\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s*$", Pattern.MULTILINE);

    @Test
    void aRealRunReadsAsPerftestsTextAndJson() throws Exception {
        Path json = dir.resolve("out.json");
        ToolRun r = ToolRun.run("perf", "write", "--loopback", "-s", "4096", "-n", "2000", "-t", "16", "-R", "-F",
                "-x", "3", "--out_json", "--out_json_file=" + json);
        assertThat(r.exit()).as(r.toString()).isZero();
        String out = r.out();
        // perftest-style parsing: the header, then rows until the dashed line; the report ends with it
        List<String> lines = out.lines().toList();
        int header = lines.indexOf(PerfReport.BW_HEADER);
        assertThat(header).as(out).isPositive();
        assertThat(lines.get(lines.size() - 1)).isEqualTo(PerfReport.RESULT_LINE);
        assertThat(lines.get(header + 2)).isEqualTo(PerfReport.RESULT_LINE);
        List<String[]> rows = new ArrayList<>();
        Matcher m = PERFTEST_ROW.matcher(out);
        while (m.find()) {
            rows.add(new String[] {m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)});
        }
        assertThat(rows).as(out).hasSize(1);
        String[] row = rows.get(0);
        assertThat(lines.get(header + 1).split("\\s+")).containsExactly("", row[0], row[1], row[2], row[3], row[4]);
        assertThat(row[0]).isEqualTo("4096");
        assertThat(row[1]).isEqualTo("2000");
        // "tail -2 | head -1", another way scripts take the result
        assertThat(lines.get(lines.size() - 2)).isEqualTo(lines.get(header + 1));
        // the JSON carries the same figures, in perftest's keys
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        Map<String, Object> info = (Map<String, Object>) doc.get("test_info");
        @SuppressWarnings("unchecked")
        Map<String, Object> res = (Map<String, Object>) doc.get("results");
        assertThat(info).containsEntry("test", "RDMA_Write_BW_Test").containsEntry("Transport_type", "IW")
                .containsEntry("TX_depth", 16L).containsEntry("Number_of_qps", 1L);
        assertThat(res).containsOnlyKeys("MsgSize", "n_iterations", "BW_peak", "BW_average", "MsgRate")
                .containsEntry("MsgSize", 4096L).containsEntry("n_iterations", 2000L);
        assertThat(((Number) res.get("BW_peak")).doubleValue()).isEqualTo(Double.parseDouble(row[2]));
        assertThat(((Number) res.get("BW_average")).doubleValue()).isEqualTo(Double.parseDouble(row[3]));
        assertThat(((Number) res.get("MsgRate")).doubleValue()).isEqualTo(Double.parseDouble(row[4]));
        // MB/sec = 2^20 octets per second, MsgRate in millions: avg = size * rate / 2^20
        assertThat(Double.parseDouble(row[3])).isCloseTo(4096 * Double.parseDouble(row[4]) * 1e6 / (1 << 20),
                offset(0.01 + Double.parseDouble(row[3]) * 1e-4));
    }

    @Test
    void outJsonTakesNoFileAsPerftests() {
        ToolRun r = ToolRun.run("perf", "write", "--loopback", "--out_json", "x.json");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--out_json takes no file", "--out_json_file x.json");
    }
}
