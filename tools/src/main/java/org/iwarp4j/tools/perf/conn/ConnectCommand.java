package org.iwarp4j.tools.perf.conn;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.Usage;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;
import org.iwarp4j.verbs.Rnic;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code iwarp perf connect}: how fast connections are set up. Each connection is a queue pair created for it,
 * {@code rnic.connect}, the MPA Request and Reply (RFC 5044 §7.1, RFC 6581), ESTABLISHED, then a graceful
 * disconnect and the queue pair closed; at most {@code --in-flight} at once. Reports connections per second
 * (the median over batches), setup and teardown latency, and the heap bytes allocated per connection by every
 * thread (HotSpot's per-thread allocation counters), by RNIC.
 */
@Command(name = "connect", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
        usageHelpAutoWidth = true, sortOptions = false,
        description = {"Connection setup rate: create a queue pair, connect, MPA exchange, disconnect, close the "
                + "queue pair; N times with at most K in flight. Reports connections/s (median over batches; a "
                + "connection counts when its disconnect is done), setup latency (create QP -> ESTABLISHED), "
                + "teardown latency (disconnect -> TCP closed) and heap bytes allocated per connection, summed over "
                + "all threads (com.sun.management.ThreadMXBean#getThreadAllocatedBytes), split by RNIC.",
                "",
                "Without SERVER and --loopback this is the server: it accepts every connection with a queue pair "
                        + "of its own until stopped (or --exit-after). Over loopback a client's closed connections "
                        + "wait in TIME_WAIT on its ephemeral ports; Linux reuses them for loopback "
                        + "(net.ipv4.tcp_tw_reuse=2, the default) a second after, so 28,000 ports "
                        + "(net.ipv4.ip_local_port_range) carry this test; --addresses spreads it over 127.0.0.x "
                        + "should they not.", ""},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp perf connect --loopback -n 10000 --in-flight 64",
                "  iwarp perf connect                                 # server (port 18515)",
                "  iwarp perf connect 127.0.0.1 -n 10000 --out_json connect.json",
                "",
                "Exit status: 0 success, 1 a connection failed, 2 usage error."})
public final class ConnectCommand implements Callable<Integer> {

    static final String TITLE = "iWARP connection setup (iwarp perf connect)";

    @Mixin
    ConnOptions options;

    @Option(names = {"-n", "--connections"}, paramLabel = "N", defaultValue = "10000",
            description = "connections to measure (default ${DEFAULT-VALUE})")
    long connections;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "500",
            description = "connections before the measured ones, not counted (default ${DEFAULT-VALUE})")
    long warmup;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "500",
            description = "connections per batch: the rate is the median over batches (default ${DEFAULT-VALUE}; "
                    + "at most N)")
    int batch;

    @Override
    public Integer call() {
        CommandLine cl = options.check();
        Usage.range(cl, "-n", connections, 1, 100_000_000);
        if (warmup < 0 || batch < 1) {
            throw new CommandLine.ParameterException(cl, "--warmup must be 0 or more and --batch 1 or more");
        }
        return ServerMode.serveOrRun(options, cl, this::run);
    }

    private void run(CommandLine cl, PrintWriter out) throws Exception {
        int window = options.inFlight;
        int batchSize = (int) Math.min(batch, connections);
        Limits.checkOpenFiles((options.loopback ? 2L : 1L) * window, window + " connections in flight"
                + (options.loopback ? " with both ends in this JVM" : ""));
        ConnSettings settings = options.settings(2L * window + 16);
        List<String> rnics = options.loopback ? List.of(Initiator.RNIC_NAME, Acceptor.RNIC_NAME)
                : List.of(Initiator.RNIC_NAME);
        Acceptor acceptor = null;
        try {
            List<InetSocketAddress> targets;
            if (options.loopback) {
                acceptor = new Acceptor(settings);
                targets = acceptor.listen(options.loopbackAddresses(0));
            } else {
                targets = List.of(options.serverAddress(cl));
            }
            try (Initiator initiator = new Initiator(settings, 0, window)) {
                ConnReport report = new ConnReport(out);
                report.header(TITLE, parameters(initiator.rnic(), targets, batchSize));
                initiator.warmUp(targets, warmup, window);
                ConnReport.GcCount gcBefore = ConnReport.GcCount.now();
                Allocations before = Allocations.now(rnics);
                Initiator.CycleResult r = initiator.cycles(targets, connections, window, batchSize);
                Allocations after = Allocations.now(rnics);
                ConnReport.GcCount gc = ConnReport.GcCount.now().since(gcBefore);
                Map<String, Long> allocated = after.since(before, rnics);
                results(report, r, allocated, gc, targets);
            }
        } finally {
            if (acceptor != null) {
                acceptor.close();
            }
        }
    }

    private List<String> parameters(Rnic rnic, List<InetSocketAddress> targets, int batchSize) {
        return List.of(
                String.format("Connections     : %d measured after %d warm-up, at most %d in flight, batches of %d",
                        connections, warmup, options.inFlight, batchSize),
                String.format("Ends            : %s; %s, %d event loop(s) per RNIC",
                        options.loopback ? "both in this JVM (--loopback), listening on " + addresses(targets)
                                : "the server at " + addresses(targets), rnic.transport(), options.threads),
                "MPA             : revision 2, " + options.wire.describe(),
                "Queue pairs     : " + options.settings(0).describeQueuePairs() + ", one per connection");
    }

    static String addresses(List<InetSocketAddress> targets) {
        if (targets.size() == 1) {
            return targets.get(0).getAddress().getHostAddress() + ":" + targets.get(0).getPort();
        }
        return targets.size() + " addresses " + targets.get(0).getAddress().getHostAddress() + " .. "
                + targets.get(targets.size() - 1).getAddress().getHostAddress();
    }

    private void results(ConnReport report, Initiator.CycleResult r, Map<String, Long> allocated,
                         ConnReport.GcCount gc, List<InetSocketAddress> targets) throws Exception {
        List<Double> rates = new ArrayList<>();
        for (long nanos : r.batchNanos()) {
            rates.add(r.batchSize() / (nanos / 1e9));
        }
        List<Double> sorted = new ArrayList<>(rates);
        sorted.sort(null);
        double overall = r.connections() / (r.nanos() / 1e9);
        double median = sorted.isEmpty() ? overall : median(sorted);
        report.line("connections/s", String.format(Locale.ROOT, "median %.1f (min %.1f, max %.1f, %d batches of %d);"
                        + " overall %.1f", median, sorted.isEmpty() ? overall : sorted.get(0),
                sorted.isEmpty() ? overall : sorted.get(sorted.size() - 1), sorted.size(), r.batchSize(), overall));
        report.line("setup [usec]", ConnReport.latency(r.setup()) + "  (create QP -> ESTABLISHED)");
        report.line("teardown [usec]", ConnReport.latency(r.teardown()) + "  (disconnect -> TCP closed)");
        long n = Math.max(1, r.connections());
        StringBuilder split = new StringBuilder();
        for (Map.Entry<String, Long> e : allocated.entrySet()) {
            if (!e.getKey().equals("total")) {
                split.append(split.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(e.getValue() / n).append(" B");
            }
        }
        String allocation = Allocations.supported()
                ? allocated.get("total") / n + " B in all threads (" + split + ")" : "n/a (this JVM does not count)";
        report.line("allocated/conn", allocation);
        report.line("GC", String.format(Locale.ROOT, "%d collections, %d ms", gc.collections(), gc.millis()));
        report.rule();
        if (options.outJson != null) {
            List<Object> alloc = new ArrayList<>();
            for (Map.Entry<String, Long> e : allocated.entrySet()) {
                alloc.add(e.getKey().replace('-', '_') + "_bytes_per_connection");
                alloc.add(Json.num(e.getValue() / n));
            }
            Json doc = Json.obj("test", Json.str("connect"), "connections", Json.num(r.connections()),
                    "warmup", Json.num(warmup), "in_flight", Json.num(options.inFlight),
                    "batch", Json.num(r.batchSize()), "loopback", Json.bool(options.loopback),
                    "targets", Json.arr(targets.stream().map(t -> Json.str(t.getAddress().getHostAddress() + ":"
                            + t.getPort())).toList()),
                    "event_loops", Json.num(options.threads), "qp_depth", Json.num(options.qpDepth),
                    "crc", Json.bool(options.wire.crc()),
                    "connections_per_second", Json.obj("median", Json.realOrNull(median), "overall",
                            Json.realOrNull(overall), "batches",
                            Json.arr(rates.stream().map(Json::realOrNull).toList())),
                    "setup", ConnReport.latencyJson(r.setup()), "teardown", ConnReport.latencyJson(r.teardown()),
                    "allocated", Json.obj(alloc.toArray()), "allocation_counter",
                    Json.str("com.sun.management.ThreadMXBean#getThreadAllocatedBytes, all threads"),
                    "gc", Json.obj("collections", Json.num(gc.collections()), "millis", Json.num(gc.millis())));
            JsonWriter.writeFile(options.outJson, doc);
        }
    }

    static double median(List<Double> sorted) {
        int m = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(m) : (sorted.get(m - 1) + sorted.get(m)) / 2;
    }
}
