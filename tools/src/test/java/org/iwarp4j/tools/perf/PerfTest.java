package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Smoke tests of {@code iwarp perf}: every test runs, its report has perftest's layout and sane values. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfTest {

    /** A bandwidth line: #bytes, #iterations, peak, average, MsgRate (perftest's REPORT_FMT or REPORT_FMT_EXT). */
    static final Pattern BW_LINE = Pattern.compile("^ (\\d+) +(\\d+) +(\\d+\\.\\d{2}(?:\\d{4})?) "
            + "+(\\d+\\.\\d{2}(?:\\d{4})?)(?: *\\t\\t +| +)(\\d+\\.\\d{6}) *$", Pattern.MULTILINE);
    /** A latency line: #bytes, #iterations and seven figures in microseconds (REPORT_FMT_LAT). */
    static final Pattern LAT_LINE = Pattern.compile("^ (\\d+) +(\\d+) +((?:\\d+\\.\\d{2}\\s+){6}\\d+\\.\\d{2})\\s*$",
            Pattern.MULTILINE);

    /** A CPU line: #bytes, end, GB moved, CPU[s], user[s], CPU[s/GB], user[s/GB] (n/a where unknown). */
    static final Pattern CPU_LINE = Pattern.compile("^ (\\d+) +(both|client|server) +(\\d+\\.\\d{6}) +(\\S+) +(\\S+) "
            + "+(\\S+) +(\\S+)$", Pattern.MULTILINE);

    /** A per-queue-pair line: #bytes, #qps, BW min, BW max, MsgRate min, MsgRate max. */
    static final Pattern QP_LINE = Pattern.compile("^ (\\d+) +(\\d+) +(\\d+\\.\\d{2}) +(\\d+\\.\\d{2}) "
            + "+(\\d+\\.\\d{6}) +(\\d+\\.\\d{6})$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    record QpLine(int bytes, int qps, double bwMin, double bwMax, double mppsMin, double mppsMax) {}

    static List<QpLine> qpLines(String out) {
        List<QpLine> lines = new ArrayList<>();
        Matcher m = QP_LINE.matcher(out);
        while (m.find()) {
            lines.add(new QpLine(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)),
                    Double.parseDouble(m.group(6))));
        }
        return lines;
    }

    record CpuLine(int bytes, String end, double gb, String cpu, String user, String cpuPerGb, String userPerGb) {}

    static List<CpuLine> cpuLines(String out) {
        List<CpuLine> lines = new ArrayList<>();
        Matcher m = CPU_LINE.matcher(out);
        while (m.find()) {
            lines.add(new CpuLine(Integer.parseInt(m.group(1)), m.group(2), Double.parseDouble(m.group(3)), m.group(4),
                    m.group(5), m.group(6), m.group(7)));
        }
        return lines;
    }

    record BwLine(int bytes, long iterations, double peak, double avg, double mpps) {}

    static List<BwLine> bwLines(String out) {
        List<BwLine> lines = new ArrayList<>();
        Matcher m = BW_LINE.matcher(out);
        while (m.find()) {
            lines.add(new BwLine(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5))));
        }
        return lines;
    }

    static List<double[]> latLines(String out) {
        List<double[]> lines = new ArrayList<>();
        Matcher m = LAT_LINE.matcher(out);
        while (m.find()) {
            String[] f = (m.group(1) + " " + m.group(2) + " " + m.group(3).trim()).split("\\s+");
            double[] v = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                v[i] = Double.parseDouble(f[i]);
            }
            lines.add(v);
        }
        return lines;
    }

    @ParameterizedTest
    @CsvSource({"write,4096", "read,4096", "send,4096", "atomic,8", "tcp,4096", "write,1", "send,1"})
    void bandwidthInLoopback(String verb, int size) {
        List<String> args = new ArrayList<>(List.of("perf", verb, "--loopback", "-n", "400", "-t", "16"));
        if (!verb.equals("atomic")) {
            args.addAll(List.of("-s", Integer.toString(size)));
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(PerfReport.RESULT_LINE + "\n" + PerfReport.BW_HEADER + "\n");
        List<BwLine> lines = bwLines(r.out());
        assertThat(lines).as(r.out()).hasSize(1);
        BwLine l = lines.get(0);
        assertThat(l.bytes()).isEqualTo(size);
        assertThat(l.iterations()).isEqualTo(400);
        assertThat(l.mpps()).isGreaterThan(0);
        assertThat(l.avg()).isLessThanOrEqualTo(l.peak() + 0.01);
        // MsgRate and the average describe the same run: avg MB/s = Mpps * size / 2^20 (to the 2 decimals printed).
        double expected = l.mpps() * 1e6 * size / (1 << 20);
        assertThat(l.avg()).isCloseTo(expected, Offset.offset(Math.max(0.006, expected * 0.01)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "send", "atomic", "tcp"})
    void latencyInLoopback(String verb) {
        List<String> args = new ArrayList<>(List.of("perf", verb, "--loopback", "--latency", "-n", "200"));
        if (!verb.equals("atomic")) {
            args.addAll(List.of("-s", "64"));
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(PerfReport.LAT_HEADER);
        List<double[]> lines = latLines(r.out());
        assertThat(lines).as(r.out()).hasSize(1);
        double[] v = lines.get(0);
        assertThat(v[0]).isEqualTo(verb.equals("atomic") ? 8 : 64);
        assertThat(v[1]).isEqualTo(200);
        double min = v[2];
        double max = v[3];
        double typical = v[4];
        double avg = v[5];
        double p99 = v[7];
        double p999 = v[8];
        assertThat(min).isGreaterThan(0);
        assertThat(typical).isBetween(min, max);
        assertThat(avg).isBetween(min, max);
        assertThat(p99).isBetween(typical, max);
        assertThat(p999).isBetween(p99, max);
    }

    @Test
    void everySizeAndJson() throws Exception {
        Path json = dir.resolve("write.json");
        ToolRun r = ToolRun.run("perf", "write", "--loopback", "-a", "-n", "5", "-t", "2", "--report_gbits",
                "--details-json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(PerfReport.BW_HEADER_G);
        List<BwLine> lines = bwLines(r.out());
        assertThat(lines).extracting(BwLine::bytes).containsExactlyElementsOf(
                IntStream.rangeClosed(1, 23).map(i -> 1 << i).boxed().toList());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        assertThat(doc).containsEntry("test", "RDMA_Write BW Test").containsEntry("mode", "bandwidth")
                .containsEntry("tx_depth", 2L).containsEntry("crc", true);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> results = (List<Map<String, Object>>) doc.get("results");
        assertThat(results).hasSize(23);
        for (int i = 0; i < 23; i++) {
            Map<String, Object> e = results.get(i);
            assertThat(e).containsEntry("bytes", (long) lines.get(i).bytes()).containsEntry("iterations", 5L);
            // The table (Gb/sec) and the JSON (both units) report the same average.
            double gbps = ((Number) e.get("bw_avg_Gbps")).doubleValue();
            assertThat(gbps).isCloseTo(lines.get(i).avg(), Offset.offset(0.006));
            double mbps = gbps * 1e9 / 8 / (1 << 20);
            assertThat(((Number) e.get("bw_avg_MBps")).doubleValue()).isCloseTo(mbps,
                    Offset.offset(Math.max(1e-4, mbps * 0.001))); // both rounded to 6 decimals
        }
    }

    /**
     * perftest's -D with its margin (-f, default -D / 4): the first margin runs unmeasured and -D minus twice the
     * margin is measured, for iWARP (thread and run to completion, bandwidth and latency) and the TCP baseline alike.
     * The measured span is read back from the JSON as iterations over the message rate.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "write -D 3 -f 1|1|1", "send --run-to-completion -D 3 -f 1|1|1", "tcp -D 3 -f 1|1|1",
            "read --latency --run-to-completion -D 3 -f 1|1|1", "send --latency -D 3 -f 1|1|1",
            "write --latency --run-to-completion -D 3 -f 1|1|1",
            "write -D 4|1|2"})
    void theMarginRunsUnmeasuredAndTheRestIsMeasured(String args, int margin, int measured) throws Exception {
        Path json = dir.resolve("margin.json");
        List<String> a = new ArrayList<>(List.of("perf"));
        a.addAll(List.of(args.split(" ")));
        a.addAll(List.of("--loopback", "-s", "64", "--details", "--details-json", json.toString()));
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(measured + " s measured after a margin of " + margin + " s (-f)");
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        assertThat(doc).containsEntry("margin_s", (long) margin);
        @SuppressWarnings("unchecked")
        Map<String, Object> result = ((List<Map<String, Object>>) doc.get("results")).get(0);
        double seconds = ((Number) result.get("iterations")).doubleValue()
                / (((Number) result.get("msg_rate_Mpps")).doubleValue() * 1e6);
        assertThat(seconds).as("the measured span of %s", args).isBetween(measured * 0.9, measured + 0.9);
    }

    /**
     * -f with -n (ours; perftest's -f goes with -D only): the margin's seconds run unmeasured, then exactly -n
     * operations are measured, on a thread, run to completion and over TCP.
     */
    @ParameterizedTest
    @ValueSource(strings = {"send --latency", "read --latency --run-to-completion", "tcp --latency", "write",
            "send --run-to-completion", "tcp"})
    void aMarginBeforeCountedIterationsWarmsUpAndMeasuresExactlyN(String args) throws Exception {
        Path json = dir.resolve("warm.json");
        List<String> a = new ArrayList<>(List.of("perf"));
        a.addAll(List.of(args.split(" ")));
        a.addAll(List.of("--loopback", "-s", "64", "-n", "3000", "-f", "1", "--details", "--details-json",
                json.toString()));
        long start = System.nanoTime();
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        long nanos = System.nanoTime() - start;
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Iterations      : 3000 per size").containsPattern("Warm-up         : [^\\n]*1 s");
        assertThat(nanos).as("%s ran its margin of 1 s", args).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        Map<String, Object> result = ((List<Map<String, Object>>) doc.get("results")).get(0);
        assertThat(result).as(args).containsEntry("iterations", 3000L);
        if (args.startsWith("tcp") || !args.contains("--latency")) {
            // the margin in runs that each begin as the measurement will (Rehearsals)
            assertThat(r.out()).as(args).containsPattern("Warm-up         : [^\\n]* runs of 250 ms");
        }
    }

    /** --busy-poll: both stacks' loops and perf tcp's never sleep, and the reports say so. */
    @ParameterizedTest
    @ValueSource(strings = {"send --latency --run-to-completion", "tcp --latency"})
    void busyPollingLoopsAreNamedInTheReport(String args) {
        List<String> a = new ArrayList<>(List.of("perf"));
        a.addAll(List.of(args.split(" ")));
        a.addAll(List.of("--loopback", "-s", "64", "-n", "2000", "--busy-poll", "--details"));
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).as(args).containsPattern(args.startsWith("tcp")
                ? "Transport type  : TCP \\(Netty \\w+, TCP_NODELAY, one event loop per end, busy polling, "
                        + "outbound buffer 256 KiB(, unsent limit 1 MiB)?\\)"
                : "Stack           : iwarp4j, Netty \\w+, busy polling, outbound buffer 256 KiB");
        assertThat(latLines(r.out())).hasSize(1);
    }

    /**
     * perf tcp's stream keeps at most -t writes waiting for the socket, as the iWARP tests' send queue: with one it
     * still refills after each write the socket took, through the warm-up and the measured run.
     */
    @Test
    void theTcpStreamKeepsAtMostTxDepthWritesInFlight() {
        ToolRun r = ToolRun.run("perf", "tcp", "--loopback", "-s", "64", "-n", "3000", "-t", "1", "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Mode            : stream of SIZE-octet writes, at most 1 not yet taken by the "
                + "socket (-t), flushed once per turn of the loop");
        assertThat(bwLines(r.out())).hasSize(1);
    }

    /**
     * --outbound-buffer reaches both ends' RNICs (the iWARP report reads it back from each RnicConfig) and perf tcp's
     * connections; a size the option does not take is a usage error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write", "tcp"})
    void theOutboundBufferIsEachStacksAndNamedInTheReport(String verb) {
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "-s", "4096", "-n", "2000", "--outbound-buffer",
                "65536", "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        if (verb.equals("tcp")) {
            assertThat(r.out()).contains("one event loop per end, outbound buffer 64 KiB");
        } else {
            assertThat(r.out()).containsPattern("Stack           : iwarp4j, Netty \\w+, outbound buffer 64 KiB")
                    .doesNotContain("outbound buffer 256 KiB");
        }
        ToolRun bad = ToolRun.run("perf", verb, "--loopback", "-s", "64", "--outbound-buffer", "0");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--outbound-buffer must be 1..67108864: 0");
    }

    /**
     * --notsent-lowat reaches the iWARP stacks and perf tcp's sockets and is named in the report where the transport
     * sets it (1 MiB by default; 0 leaves the kernel's and names nothing); a negative one is a usage error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write", "tcp"})
    void theUnsentLimitIsEachStacksAndNamedInTheReport(String verb) {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll not available");
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "-s", "4096", "-n", "2000", "--notsent-lowat", "262144",
                "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("outbound buffer 256 KiB, unsent limit 256 KiB").doesNotContain("1 MiB");
        ToolRun byDefault = ToolRun.run("perf", verb, "--loopback", "-s", "4096", "-n", "2000", "--details");
        assertThat(byDefault.out()).contains("outbound buffer 256 KiB, unsent limit 1 MiB");
        ToolRun off = ToolRun.run("perf", verb, "--loopback", "-s", "4096", "-n", "2000", "--notsent-lowat", "0",
                "--details");
        assertThat(off.exit()).as(off.toString()).isZero();
        assertThat(off.out()).contains("outbound buffer 256 KiB").doesNotContain("unsent limit");
        ToolRun nio = ToolRun.run("perf", verb, "--loopback", "-s", "4096", "-n", "2000", "--transport", "NIO",
                "--details");
        assertThat(nio.out()).as("NIO cannot set it").contains("outbound buffer 256 KiB").doesNotContain("unsent");
        ToolRun bad = ToolRun.run("perf", verb, "--loopback", "-s", "64", "--notsent-lowat", "-1");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--notsent-lowat must be 0 (the kernel's default) or more: -1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "send", "tcp"})
    void cpuPerGigabyteBesideBandwidth(String verb) throws Exception {
        Path json = dir.resolve(verb + ".json");
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "-s", "8192", "-n", "2000", "-t", "16", "--details",
                "--details-json", json.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(PerfReport.CPU_HEADER, "both = client and server in this process");
        // one process, both ends: one line, the octets the measured operations moved
        CpuLine line = cpuLines(r.out()).stream().reduce((a, b) -> {
            throw new AssertionError("more than one CPU line: " + r.out());
        }).orElseThrow(() -> new AssertionError("no CPU line: " + r.out()));
        assertThat(line.bytes()).isEqualTo(8192);
        assertThat(line.end()).isEqualTo("both");
        assertThat(line.gb()).isCloseTo(8192 * 2000 / 1e9, Offset.offset(1e-6));
        assertThat(Double.parseDouble(line.cpuPerGb())).isCloseTo(Double.parseDouble(line.cpu()) / line.gb(),
                Percentage.withPercentage(1));
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) TinyJson.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        Map<String, Object> result = ((List<Map<String, Object>>) doc.get("results")).get(0);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> cpu = (List<Map<String, Object>>) result.get("cpu");
        assertThat(cpu).singleElement().satisfies(c -> {
            assertThat(c).containsEntry("end", "both");
            double gb = ((Number) c.get("gb_moved")).doubleValue();
            double seconds = ((Number) c.get("cpu_s")).doubleValue();
            assertThat(gb).isCloseTo(8192 * 2000 / 1e9, Offset.offset(1e-6));
            assertThat(seconds).isPositive(); // the event loops moved 16 MB meanwhile
            assertThat(((Number) c.get("cpu_s_per_GB")).doubleValue()).isCloseTo(seconds / gb,
                    Percentage.withPercentage(0.1));
            if (c.get("user_s") != null) {
                assertThat(((Number) c.get("user_s")).doubleValue()).isBetween(0.0, seconds + 0.02);
            }
            // the JIT's compilations during the measurement, in this process (HotSpot monitors them)
            assertThat(((Number) c.get("jit_s")).doubleValue()).isGreaterThanOrEqualTo(0.0);
        });
        assertThat(r.out()).contains(" JIT compilation during the measurement at 8192 octets: ");
        // the machine's state beside the figures: a cross-CPU round trip before and after, or null if not measured
        assertThat(r.out()).contains(" Cross-CPU round trip: ");
        @SuppressWarnings("unchecked")
        Map<String, Object> xcpu = (Map<String, Object>) doc.get("cross_cpu_round_trip_ns");
        assertThat(xcpu).containsOnlyKeys("before", "after");
        for (Object ns : xcpu.values()) {
            if (ns != null) {
                assertThat(((Number) ns).doubleValue()).isPositive().isLessThan(CrossCpuProbe.LIMIT_NANOS);
            }
        }
    }

    @Test
    void theCrossCpuProbeMeasuresARoundTripOrSaysItCouldNot() {
        double ns = CrossCpuProbe.roundTripNanos();
        if (Runtime.getRuntime().availableProcessors() < 2) {
            assertThat(ns).as("one CPU: nothing to measure").isNaN();
            return;
        }
        // NaN: the other CPU was busy for half a second (a loaded machine); three tries
        for (int i = 0; i < 2 && Double.isNaN(ns); i++) {
            ns = CrossCpuProbe.roundTripNanos();
        }
        // a cache line between two cores takes tens to hundreds of ns; far more would be a hand-off by the scheduler
        assertThat(ns).isGreaterThan(1).isLessThan(100_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "send", "atomic", "tcp"})
    void queuePairsEachRunTheirIterations(String verb) {
        List<String> args = new ArrayList<>(List.of("perf", verb, "--loopback", "-q", "4", "-n", "200", "-t", "8",
                "--details"));
        if (!verb.equals("atomic")) {
            args.addAll(List.of("-s", "2048"));
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(verb.equals("tcp") ? "Connections     : 4" : "Number of qps   : 4");
        // -n per queue pair; the table sums them, and each queue pair ran its 200 over the whole run
        BwLine sum = bwLines(r.out()).get(0);
        assertThat(sum.iterations()).isEqualTo(800);
        assertThat(qpLines(r.out())).singleElement().satisfies(q -> {
            assertThat(q.qps()).isEqualTo(4);
            assertThat(q.mppsMin()).isEqualTo(q.mppsMax());
            assertThat(q.mppsMin() * 4).isCloseTo(sum.mpps(), Offset.offset(5e-6));
        });
    }

    /** The window kept full from a completion handler on the event loop: the same counts as the thread's loop. */
    @ParameterizedTest
    @CsvSource({"write,1", "read,1", "send,1", "atomic,1", "write,4", "send,4"})
    void runToCompletionRunsEveryIteration(String verb, int qps) {
        List<String> args = new ArrayList<>(List.of("perf", verb, "--loopback", "--run-to-completion", "-q",
                Integer.toString(qps), "-n", "3000", "-t", "16"));
        if (!verb.equals("atomic")) {
            args.addAll(List.of("-s", "64"));
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(bwLines(r.out()).get(0).iterations()).isEqualTo(3000L * qps);
    }

    /** --transport picks the Netty transport of both iWARP ends and of perf tcp, and the reports name it. */
    @ParameterizedTest
    @ValueSource(strings = {"write", "tcp"})
    void theTransportAskedForIsTheOneUsed(String verb) {
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "--transport", "NIO", "-s", "64", "-n", "500",
                "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(verb.equals("tcp") ? "TCP (Netty NIO" : "Stack           : iwarp4j, Netty NIO");
        assertThat(bwLines(r.out()).get(0).iterations()).isEqualTo(500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"read", "send", "atomic", "write"})
    void runToCompletionTimesEveryLatencyIteration(String verb) {
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "--latency", "--run-to-completion", "-n", "500");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).containsPattern("(?m)^ \\d+\\s+500\\s");
    }

    @Test
    void runToCompletionVerifiesEveryOctetOfItsReads() {
        // the handler takes completions through the same checks as the thread: every Read's octets compared
        ToolRun r = ToolRun.run("perf", "read", "--loopback", "--run-to-completion", "--verify", "-s", "4096", "-n",
                "2000", "-t", "8");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(bwLines(r.out()).get(0).iterations()).isEqualTo(2000);
    }

    @ParameterizedTest
    @CsvSource({"write,16", "write,64", "read,64", "send,16", "tcp,64"})
    void manyQueuePairsShareOneRun(String verb, int qps) {
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "-q", Integer.toString(qps), "-s", "65536", "-t", "4",
                "-D", "1", "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        BwLine sum = bwLines(r.out()).get(0);
        assertThat(sum.iterations()).isPositive();
        // the sum lies between qps times the slowest and qps times the fastest
        assertThat(qpLines(r.out())).singleElement().satisfies(q -> {
            assertThat(q.qps()).isEqualTo(qps);
            assertThat(q.mppsMin()).isLessThanOrEqualTo(q.mppsMax());
            assertThat(sum.mpps()).isBetween(q.mppsMin() * qps - 1e-4, q.mppsMax() * qps + 1e-4);
        });
    }

    @Test
    void theServerAcceptsEveryQueuePairOfARun() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "send", "--protocol", "iwarp4j",
                "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "send", "127.0.0.1", "--protocol", "iwarp4j",
                "-p", Integer.toString(port), "-q", "4", "-s",
                "1024", "-n", "500", "--details");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).contains("Number of qps   : 4");
        assertThat(bwLines(s.out())).singleElement().satisfies(l -> assertThat(l.iterations()).isEqualTo(2000));
        assertThat(cpuLines(client.out())).extracting(CpuLine::end).containsExactly("client", "server");
    }

    @Test
    void duringARunTheServerRefusesQueuePairsOfAnotherRun() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "write", "--protocol", "iwarp4j",
                "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try (Rnic rnic = Stacks.openRnic("perf-test-client")) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(64);
            MemoryRegion mr = pd.allocateRegion(64);
            PerfHello first = new PerfHello(PerfVerb.WRITE, false, false, false, 64, 1, mr.remoteBuffer(), 0, 2, 0, 1,
                    false);
            Function<PerfHello, CompletableFuture<Connection>> connect = h -> rnic.connect(at,
                    pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(4).maxRecvWr(4).maxSge(1).build()),
                    ConnectOptions.builder().privateData(h.encode()).build());
            Stacks.get(connect.apply(first), 30);
            // queue pair 1 of a run with another token (another client): busy
            PerfHello stranger = new PerfHello(PerfVerb.WRITE, false, false, false, 64, 1, mr.remoteBuffer(), 0, 2, 1,
                    2, false);
            assertThatThrownBy(() -> Stacks.get(connect.apply(stranger), 30)).satisfies(e -> {
                assertThat(e).isInstanceOf(ExecutionException.class);
                assertThat(e.getCause()).isInstanceOf(ConnectionRejectedException.class);
                assertThat(new String(((ConnectionRejectedException) e.getCause()).privateData(),
                        StandardCharsets.US_ASCII)).contains("busy");
            });
            // the run's own queue pair 1 is still accepted
            assertThat(Stacks.get(connect.apply(first.forQueuePair(1)), 30).parameters().peerPrivateData())
                    .hasSize(PerfWelcome.LENGTH);
        }
        // this client never sends its test's control messages: the server sees the connections end
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isEqualTo(1);
    }

    /**
     * A latency test has no CPU table (64 octets a round trip say nothing per GB), but names the JIT's compilations
     * during its measurement: a compiler thread that takes a core from a spinning loop is its tail's usual cause.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "--run-to-completion"})
    void latencyReportsTheJitButNoCpuTable(String mode) throws Exception {
        Path json = dir.resolve("lat.json");
        List<String> args = new ArrayList<>(List.of("perf", "write", "--loopback", "--latency", "-s", "64", "-n",
                "100", "--details", "--details-json", json.toString()));
        if (!mode.isEmpty()) {
            args.add(mode);
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).doesNotContain(PerfReport.CPU_HEADER)
                .contains(" JIT compilation during the measurement at 64 octets: ");
        @SuppressWarnings("unchecked")
        Map<String, Object> result = ((List<Map<String, Object>>) ((Map<String, Object>) TinyJson.parse(
                Files.readString(json))).get("results")).get(0);
        assertThat((List<?>) result.get("cpu")).singleElement().satisfies(c -> assertThat(
                ((Number) ((Map<?, ?>) c).get("jit_s")).doubleValue()).isGreaterThanOrEqualTo(0.0));
    }

    @Test
    void serverReportsItsOwnCpuToTheClient() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "write", "--protocol", "iwarp4j",
                "-p", Integer.toString(port),
                "--details");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "write", "127.0.0.1", "--protocol", "iwarp4j",
                "-p", Integer.toString(port), "-s", "4096", "-n",
                "3000", "--details");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        List<CpuLine> ours = cpuLines(client.out());
        assertThat(ours).extracting(CpuLine::end).containsExactly("client", "server");
        assertThat(client.out()).contains("client = this process, server = the server's");
        // the server printed the figure it sent: the same readings, the same octets
        assertThat(cpuLines(s.out())).containsExactly(ours.get(1));
        assertThat(s.out()).contains("server = this process");
    }

    @Test
    void tcpServerReportsItsCpuToTheClient() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "tcp", "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "tcp", "127.0.0.1", "-p", Integer.toString(port), "-s", "4096", "-n",
                "3000", "--details");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        List<CpuLine> lines = cpuLines(client.out());
        assertThat(lines).extracting(CpuLine::end).containsExactly("client", "server");
        assertThat(lines).allSatisfy(l -> assertThat(l.gb()).isCloseTo(4096 * 3000 / 1e9,
                Offset.offset(1e-6)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read"})
    void verifiedTransfersCheckEveryOctet(String verb) {
        ToolRun r = ToolRun.run("perf", verb, "--loopback", "--verify", "-s", "4096", "-n", "3000", "-t", "8",
                "--details");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Verify          : every octet");
        assertThat(bwLines(r.out())).extracting(BwLine::iterations).containsExactly(3000L);
    }

    @Test
    void durationModeRunsForItsSeconds() {
        long t0 = System.nanoTime();
        ToolRun r = ToolRun.run("perf", "read", "--loopback", "-s", "1024", "-D", "1", "--progress");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(ms).isGreaterThanOrEqualTo(1000);
        assertThat(bwLines(r.out())).singleElement().satisfies(l -> assertThat(l.iterations()).isGreaterThan(10));
    }

    @Test
    void serverAndClientApart() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "send", "--protocol", "iwarp4j",
                "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "send", "127.0.0.1", "--protocol", "iwarp4j",
                "-p", Integer.toString(port), "-s", "2048", "-n", "300");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).contains("Waiting for client to connect", "Send BW Test", PerfReport.BW_HEADER);
        BwLine c = bwLines(client.out()).get(0);
        BwLine sv = bwLines(s.out()).get(0);
        assertThat(sv.bytes()).isEqualTo(2048);
        assertThat(sv.iterations()).isEqualTo(c.iterations());
        assertThat(sv.avg()).isCloseTo(c.avg(), Percentage.withPercentage(2));
    }

    @Test
    void noServerIsAFailure() {
        ToolRun r = ToolRun.run("perf", "write", "127.0.0.1", "--protocol", "iwarp4j", "-p",
                Integer.toString(ToolRun.freePort()), "-n", "5");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("cannot connect");
    }

    @ParameterizedTest
    @ValueSource(strings = {"read 127.0.0.1 -D 2 --latency -a|-D runs one size over perftest's exchange",
            "write -D 2 -a|-D runs one size over perftest's exchange",
            "send 127.0.0.1 -f 1|-f without -D needs our own control exchange"})
    void whatPerftestsExchangeCannotCarryIsRefusedSayingWhy(String argsAndMessage) {
        String[] parts = argsAndMessage.split("\\|");
        List<String> a = new ArrayList<>(List.of("perf"));
        a.addAll(List.of(parts[0].split(" ")));
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains(parts[1]).contains("--protocol iwarp4j");
    }

    @ParameterizedTest
    @ValueSource(strings = {"write -s 0", "write -s 8388609", "write -n 3", "write -n 3 -D 1",
            "write --loopback 127.0.0.1",
            "atomic -s 16", "send --verify", "write --latency --verify", "atomic -A FOO", "write -a -s 64",
            "write -t 0",
            "write -p 70000", "bogus", "", "write --crc maybe", "write -q 0", "write -q 1025", "write --latency -q 2",
            "write --verify -q 2", "tcp -q 1024 -t 15000", "tcp --compare-tcp", "write --plot x.svg",
            "write --loopback --latency -a --plot x.svg", "write --loopback --compare-tcp --tcp-port 5000",
            "write 127.0.0.1 --compare-tcp --tcp-port 70000", "write 127.0.0.1 --tcp-port 5000",
            "write 127.0.0.1 -p 65535 --compare-tcp",
            "tcp --run-to-completion", "write --transport FOO", "write --protocol foo", "write 127.0.0.1 --verify",
            "write --persistent --protocol perftest", "read 127.0.0.1 -D 2 --latency -a", "write 127.0.0.1 -D 2 -a",
            "write 127.0.0.1 -D 4 -f 2", "send --latency -D 4 -f 2", "write --latency -D 0",
            "write 127.0.0.1 --compare-tcp",
            "write --loopback -f -1", "write 127.0.0.1 -f 1", "write --loopback -D 4 -f 2",
            "write --loopback -D 4 -f -1", "write --latency -b", "tcp -b", "write --loopback -b",
            "read 127.0.0.1 --protocol iwarp4j -b", "send --latency -b",
            "write --loopback --transport IO_URING --busy-poll"})
    void usageErrors(String args) {
        List<String> a = new ArrayList<>(List.of("perf"));
        if (!args.isEmpty()) {
            a.addAll(List.of(args.split(" ")));
        }
        ToolRun r = ToolRun.run(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("Usage: iwarp perf");
    }
}
