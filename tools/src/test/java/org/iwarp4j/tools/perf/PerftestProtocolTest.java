package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Percentage;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.ToolRun;
import org.iwarp4j.tools.report.TinyJson;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code iwarp perf} over perftest 4.5+0.17's control exchange ({@code --protocol perftest}): our client and our
 * server pair with each other (in the lab they pair with perftest itself, interop/cells.table {@code perftest-*}),
 * both print the same figures where perftest's server prints the client's, and a peer that speaks another version
 * or sends a message of the wrong length is refused with a message, not a hang.
 */
class PerftestProtocolTest {

    /** The numbers of the first result line after the table header. */
    private static String resultLine(String out) {
        List<String> lines = out.lines().toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith(" #bytes")) {
                return lines.get(i + 1).trim();
            }
        }
        return "";
    }

    @ParameterizedTest
    @ValueSource(strings = {"write -s 4096", "read -s 4096", "send -s 4096", "atomic", "write -a -n 5 -t 2",
            "send -a -n 5 -t 2", "read --latency -s 64", "atomic --latency", "write -q 3 -s 1024",
            "send -q 2 -s 1024", "atomic -A CMP_AND_SWAP", "write --latency -s 64", "send --latency -s 64",
            "write --latency -a -n 5", "send --latency -a -n 5"})
    void loopbackOverPerftestsExchange(String test) {
        List<String> args = new ArrayList<>(List.of("perf", "--loopback", "--protocol", "perftest"));
        args.addAll(1, List.of(test.split(" ")));
        if (!test.contains("-n")) {
            args.addAll(List.of("-n", "200"));
        }
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Data ex. method : rdma_cm").contains("Transport type : IW");
        assertThat(resultLine(r.out())).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read"})
    void theServerPrintsTheClientsFiguresAsTheClientDoes(String verb) throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", verb, "-p", Integer.toString(port),
                "-s", "2048", "-n", "300");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", verb, "127.0.0.1", "-p", Integer.toString(port), "-s", "2048", "-n",
                "300");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(resultLine(client.out())).startsWith("2048").contains(" 300 ");
        assertThat(resultLine(s.out())).isEqualTo(resultLine(client.out()));
        assertThat(s.out()).contains("remote address").contains("Waiting for client to connect");
    }

    @Test
    void sendBothEndsMeasureTheSameSends() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "send", "-p", Integer.toString(port),
                "-s", "1024", "-n", "500");
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("perf", "send", "127.0.0.1", "-p", Integer.toString(port), "-s", "1024", "-n",
                "500");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(resultLine(client.out())).startsWith("1024       500 ");
        assertThat(resultLine(s.out())).startsWith("1024       500 ");
        assertThat(s.out()).contains("RX depth        : 500");
    }

    /** The figures of a bandwidth result line: #bytes, #iterations, BW peak, BW average, MsgRate[Mpps]. */
    /** Both ends of one test: the client's run, the server's, and how long the client took. */
    private record Pair(ToolRun client, ToolRun server, double clientSeconds) {}

    /**
     * {@code iwarp perf VERB COMMON} as the server, then {@code iwarp perf VERB 127.0.0.1 CLIENT_ONLY COMMON}
     * against it; both must exit 0. {@code common} holds the {@code -p} of {@code port}.
     */
    private static Pair pair(String verb, int port, List<String> common, String... clientOnly) throws Exception {
        List<String> serverArgs = new ArrayList<>(List.of("perf", verb));
        serverArgs.addAll(common);
        CompletableFuture<ToolRun> server = ToolRun.background(serverArgs.toArray(String[]::new));
        ToolRun.awaitListening(port, server);
        List<String> clientArgs = new ArrayList<>(List.of("perf", verb, "127.0.0.1"));
        clientArgs.addAll(List.of(clientOnly));
        clientArgs.addAll(common);
        long t0 = System.nanoTime();
        ToolRun client = ToolRun.run(clientArgs.toArray(String[]::new));
        double took = (System.nanoTime() - t0) / 1e9;
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        return new Pair(client, s, took);
    }

    private static double[] figures(String line) {
        String[] f = line.trim().split("\\s+");
        assertThat(f).as(line).hasSize(5);
        double[] v = new double[5];
        for (int i = 0; i < 5; i++) {
            v[i] = Double.parseDouble(f[i]);
        }
        return v;
    }

    /**
     * perftest's duration mode over its exchange, both of our roles at once: {@code -D 3 -f 1} runs a margin, one
     * measured second and a margin (so the client takes the whole 3 s), reports no peak (perftest's noPeak: 0.00),
     * and the iterations it counted over its message rate are the measured second; the Write and Read servers print
     * the client's line, the Send server its own count of the same Sends.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "send"})
    void durationModeMeasuresTheSpanBetweenTheMargins(String verb) throws Exception {
        int port = ToolRun.freePort();
        String[] common = {"-p", Integer.toString(port), "-s", "4096", "-D", "3", "-f", "1"};
        Pair run = pair(verb, port, List.of(common), "--details");
        ToolRun client = run.client();
        ToolRun s = run.server();
        double took = run.clientSeconds();
        assertThat(took).as("the client runs both margins and the span").isGreaterThanOrEqualTo(3.0);
        double[] c = figures(resultLine(client.out()));
        assertThat(c[0]).isEqualTo(4096);
        assertThat(c[1]).as("iterations counted in the span").isGreaterThan(100);
        assertThat(c[2]).as("no peak in duration mode, as perftest").isZero();
        double span = c[1] / (c[4] * 1e6);
        assertThat(span).as("iterations / message rate: the measured second").isBetween(0.95, 1.3);
        assertThat(c[3]).as("BW average from the counted iterations")
                .isCloseTo(c[1] * 4096 / span / (1 << 20), Percentage.withPercentage(2));
        assertThat(client.out()).contains("TX depth        : 128")
                .contains("Duration        : 3 s, 1 s measured between margins of 1 s (-f)");
        if (verb.equals("send")) {
            double[] r = figures(resultLine(s.out()));
            assertThat(r[2]).isZero();
            assertThat(r[1]).as("the server counts the same Sends in its own span")
                    .isCloseTo(c[1], Percentage.withPercentage(25));
            assertThat(r[1] / (r[4] * 1e6)).isBetween(0.95, 1.3);
            assertThat(s.out()).contains("RX depth        : 512");
        } else {
            assertThat(resultLine(s.out())).isEqualTo(resultLine(client.out()));
        }
    }

    @Test
    void durationModeWithoutMarginsMeasuresItAll() {
        long t0 = System.nanoTime();
        ToolRun r = ToolRun.run("perf", "write", "--loopback", "--protocol", "perftest", "-s", "1024", "-D", "1");
        double took = (System.nanoTime() - t0) / 1e9;
        assertThat(r.exit()).as(r.toString()).isZero();
        double[] c = figures(resultLine(r.out()));
        assertThat(c[1] / (c[4] * 1e6)).as("-D 1: the default margin, 1 / 4 rounded down, is 0").isBetween(0.95, 1.3);
        assertThat(took).isGreaterThanOrEqualTo(1.0);
    }

    /** The figures of a duration-latency result line: #bytes, #iterations, t_avg[usec], tps average. */
    private static double[] latencyFigures(String out) {
        assertThat(out).contains(PerftestFormat.LAT_DUR_HEADER);
        String line = resultLine(out);
        String[] f = line.split("\\s+");
        assertThat(f).as(line).hasSize(4);
        double[] v = new double[4];
        for (int i = 0; i < 4; i++) {
            v[i] = Double.parseDouble(f[i]);
        }
        return v;
    }

    /**
     * Checks one end's duration-latency line: round trips (or operations) counted in the measured second, their
     * count over tps the measured span, t_avg the span over the count (halved for a ping-pong), as perftest's
     * print_report_lat_duration; returns the count.
     */
    private static double checkDurationLatency(String out, int size, boolean pingPong) {
        double[] f = latencyFigures(out);
        assertThat(f[0]).isEqualTo(size);
        assertThat(f[1]).as("operations counted in the measured span").isGreaterThan(20);
        double span = f[1] / f[3];
        assertThat(span).as("#iterations / tps: the measured second between the margins").isBetween(0.95, 1.3);
        assertThat(f[2]).as("t_avg = span / count" + (pingPong ? " / 2" : ""))
                .isCloseTo(span * 1e6 / (pingPong ? 2 : 1) / f[1], Percentage.withPercentage(2));
        return f[1];
    }

    /**
     * The latency tests' duration mode over perftest's exchange, both of our roles at once (perftest's client with
     * our server and ours with perftest's server are the lab's): {@code -D 3 -f 1} runs a margin, one measured
     * second and a margin; the client takes the whole 3 s; each ping-pong end (Write, Send) prints its own count of
     * round trips, which agree, and the Read and Atomic servers print no table, as ib_read_lat's and ib_atomic_lat's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "send", "atomic"})
    void latencyDurationModeMeasuresTheSpanBetweenTheMargins(String verb) throws Exception {
        int port = ToolRun.freePort();
        int size = verb.equals("atomic") ? 8 : 64;
        Path json = Files.createTempFile("perftest-lat-dur", ".json");
        try {
            List<String> common = new ArrayList<>(List.of("-p", Integer.toString(port), "--latency", "-D", "3",
                    "-f", "1"));
            if (!verb.equals("atomic")) {
                common.addAll(List.of("-s", "64"));
            }
            Pair run = pair(verb, port, common, "--out_json", "--out_json_file=" + json);
            ToolRun client = run.client();
            ToolRun s = run.server();
            double took = run.clientSeconds();
            assertThat(took).as("the client runs both margins and the span").isGreaterThanOrEqualTo(3.0);
            boolean pingPong = verb.equals("write") || verb.equals("send");
            double count = checkDurationLatency(client.out(), size, pingPong);
            assertThat(client.out()).contains("TX depth        : 1").doesNotContain(PerftestFormat.LAT_HEADER);
            if (pingPong) {
                double theirs = checkDurationLatency(s.out(), size, true);
                assertThat(theirs).as("both ends count the same round trips in their own spans")
                        .isCloseTo(count, Percentage.withPercentage(25));
            } else {
                assertThat(s.out()).doesNotContain(" #bytes").contains("remote address");
            }
            if (verb.equals("send")) {
                assertThat(s.out()).contains("RX depth        : 512"); // duration mode: not capped by -n
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> res = (Map<String, Object>) ((Map<String, Object>) TinyJson.parse(
                    Files.readString(json))).get("results");
            double[] line = latencyFigures(client.out());
            assertThat(res).containsOnlyKeys("MsgSize", "n_iterations", "t_avg", "tps_average")
                    .containsEntry("MsgSize", (long) size).containsEntry("n_iterations", (long) line[1]);
            assertThat(((Number) res.get("t_avg")).doubleValue()).isEqualTo(line[2]);
            assertThat(((Number) res.get("tps_average")).doubleValue()).isEqualTo(line[3]);
        } finally {
            Files.deleteIfExists(json);
        }
    }

    /**
     * {@code -D 1} alone: the default margin, a quarter of 1 rounded down, is 0, so the whole second is measured;
     * {@code -n} with {@code -D} is ignored with a note, as perftest ignores it (duration mode counts instead).
     */
    @Test
    void latencyDurationWithoutMarginsIgnoresTheIterationCount() {
        long t0 = System.nanoTime();
        ToolRun r = ToolRun.run("perf", "send", "--latency", "--loopback", "--protocol", "perftest", "-s", "32",
                "-D", "1", "-n", "100");
        double took = (System.nanoTime() - t0) / 1e9;
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).contains("-n is ignored with -D");
        assertThat(took).isGreaterThanOrEqualTo(1.0);
        String[] lines = r.out().lines().filter(l -> l.startsWith(" 32 ")).toArray(String[]::new);
        assertThat(lines).as(r.out()).hasSize(1); // the client's: --loopback's server is quiet
        double count = checkDurationLatency(PerftestFormat.LAT_DUR_HEADER + "\n" + lines[0], 32, true);
        assertThat(count).as("not the -n 100").isNotEqualTo(100);
    }

    /**
     * perftest's {@code -b} over its exchange, both of our roles at once: both ends run the sender's loop together,
     * exchange their reports and print their own size and count with the sums of both ends' figures
     * ({@code print_full_bw_report} with the peer's report), so with {@code -n} the two lines are the same.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write -s 4096 -n 2000", "read -s 4096 -n 2000", "atomic -n 2000",
            "write -q 2 -s 1024 -n 500", "read -a -n 20 -t 4", "send -s 4096 -n 2000", "send -q 2 -s 1024 -n 500",
            "send -a -n 20 -t 4"})
    void bidirectionalEndsPrintTheSumOfBothDirections(String test) throws Exception {
        int port = ToolRun.freePort();
        List<String> common = new ArrayList<>(List.of("-b", "-p", Integer.toString(port)));
        String[] words = test.split(" ");
        common.addAll(List.of(words).subList(1, words.length));
        Pair run = pair(words[0], port, common);
        ToolRun client = run.client();
        ToolRun s = run.server();
        for (ToolRun end : List.of(client, s)) {
            assertThat(end.out()).contains(" Bidirectional BW Test\n").contains("TX depth        : ");
            if (words[0].equals("send")) {
                assertThat(end.out()).as("both ends receive").contains("RX depth        : ");
            }
        }
        List<String> ours = bandwidthLines(client.out());
        List<String> theirs = bandwidthLines(s.out());
        assertThat(ours).as(client.out()).hasSize(test.contains("-a") ? 23 : 1);
        assertThat(theirs).as("both ends print the same sums").isEqualTo(ours);
        long expected = test.contains("-a") ? 20 : test.contains("-q 2") ? 1000 : 2000;
        for (String line : ours) {
            double[] f = figures(line);
            assertThat((long) f[1]).as("each end's own count (times -q), not the sum").isEqualTo(expected);
            assertThat(f[4]).as("the message rate of two directions").isPositive();
            double fromRate = f[4] * 1e6 * f[0] / (1 << 20);
            // the rate is printed to 1e-6 Mpps: at 8 MiB, 13 messages a second print as 0.000013, and half a
            // message a second is 4 MB/s of BW
            double rateRounding = 0.5 * f[0] / (1 << 20);
            assertThat(f[3]).as("BW average from the summed message rate (printed to 0.01 and 1e-6)")
                    .isCloseTo(fromRate, within(0.006 + rateRounding + fromRate * 0.02));
        }
    }

    /** The bandwidth lines of a report: those after the "#bytes" header up to the dashed line. */
    private static List<String> bandwidthLines(String out) {
        List<String> lines = out.lines().toList();
        List<String> table = new ArrayList<>();
        int header = lines.indexOf(PerfReport.BW_HEADER);
        assertThat(header).as(out).isNotNegative();
        for (int i = header + 1; i < lines.size() && !lines.get(i).equals(PerfReport.RESULT_LINE); i++) {
            table.add(lines.get(i).trim());
        }
        return table;
    }

    /** {@code -b} with {@code -D}: each end times and counts its own span, and the sums agree. */
    @Test
    void bidirectionalDurationModeSumsBothSpans() throws Exception {
        int port = ToolRun.freePort();
        String[] common = {"-b", "-p", Integer.toString(port), "-s", "4096", "-D", "2", "-f", "0"};
        Pair run = pair("write", port, List.of(common));
        ToolRun client = run.client();
        ToolRun s = run.server();
        double[] c = figures(bandwidthLines(client.out()).get(0));
        double[] r = figures(bandwidthLines(s.out()).get(0));
        assertThat(c[1]).isGreaterThan(100);
        assertThat(r[1]).isGreaterThan(100);
        assertThat(c[2]).as("no peak in duration mode").isZero();
        assertThat(r[3]).as("the same sum at both ends").isEqualTo(c[3]);
        assertThat(r[4]).isEqualTo(c[4]);
        // each end counts its own direction over its own 2 s span: the summed rate is both counts over 2 s
        assertThat(c[4] * 1e6 * 2).as("MsgRate sums both ends' counts over the span")
                .isCloseTo(c[1] + r[1], Percentage.withPercentage(10));
    }

    /**
     * {@code ib_send_bw -b -D}: no report exchange (perftest's send_bw skips it in duration mode); each end prints
     * its own count, which is of both directions (its Sends completed and the Sends it received in its span), so
     * each count over its own rate is its span, and the two ends' counts agree.
     */
    @Test
    void bidirectionalSendDurationCountsBothDirectionsAtEachEnd() throws Exception {
        int port = ToolRun.freePort();
        String[] common = {"-b", "-p", Integer.toString(port), "-s", "4096", "-D", "2", "-f", "0"};
        Pair run = pair("send", port, List.of(common));
        ToolRun client = run.client();
        ToolRun s = run.server();
        double[] c = figures(bandwidthLines(client.out()).get(0));
        double[] r = figures(bandwidthLines(s.out()).get(0));
        for (double[] end : List.of(c, r)) {
            assertThat(end[1]).isGreaterThan(100);
            assertThat(end[2]).as("no peak in duration mode").isZero();
            assertThat(end[1] / (end[4] * 1e6)).as("each end's count over its rate: its own 2 s").isBetween(1.9, 2.6);
        }
        assertThat(r[1]).as("both ends count the same Sends, both ways").isCloseTo(c[1], Percentage.withPercentage(25));
    }

    /** A scripted peer: connects a control queue pair, sends {@code version}, returns what the server answered. */
    private static String peerWithVersion(int port, byte[] version) throws Exception {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try (Rnic rnic = Stacks.openRnic("perftest-test-peer")) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(4).maxRecvWr(4).maxSge(1)
                    .build());
            qp.postReceive(ReceiveWorkRequest.of(1, mr.sge(0, 2048)));
            Connection c = Stacks.get(rnic.connect(at, qp, ConnectOptions.builder().mpa(m -> m.revision(2)).build()),
                    30);
            mr.buffer().put(2048, version);
            qp.postSend(SendWorkRequest.Send.of(2, mr.sge(2048, version.length)));
            WorkCompletion[] wc = WorkCompletion.array(4);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            StringBuilder seen = new StringBuilder();
            // Until the server closes, and then what the queue still holds: a close that comes before the first
            // poll must not hide the completions queued ahead of it.
            boolean closed = false;
            int n = 0;
            while (System.nanoTime() < deadline && (!closed || n > 0)) {
                closed = c.closeFuture().isDone();
                n = closed ? cq.poll(wc) : cq.poll(wc, Duration.ofMillis(100));
                for (int i = 0; i < n; i++) {
                    seen.append(wc[i].opcode()).append(' ').append(wc[i].status()).append(';');
                }
            }
            return seen.toString();
        }
    }

    @Test
    void aPeerOfAnotherVersionIsRefusedNamingBoth() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "write", "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        String seen = peerWithVersion(port, PerftestWire.version("5.60"));
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isEqualTo(1);
        assertThat(s.err()).contains("\"5.60\"").contains("\"6.06\"").doesNotContain("Exception");
        assertThat(seen).contains("RECV SUCCESS"); // as perftest: both ends exchange, then each checks
    }

    @Test
    void aMessageOfTheWrongLengthIsRefusedByItsLength() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("perf", "read", "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        peerWithVersion(port, new byte[300]); // a later perftest's parameter block, say
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isEqualTo(1);
        assertThat(s.err()).contains("version message is 300 octets, perftest 6.06 sends 16");
    }
}
