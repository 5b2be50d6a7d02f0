package org.iwarp4j.tools.perf.conn;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * {@code iwarp perf idle -q N}: what N connected, idle queue pairs cost. Connects N queue pairs (at most
 * {@code --in-flight} at once), keeps them, and reports per queue pair the heap in use after a full GC, the
 * resident set, Netty's and the JDK's direct memory and the file descriptors, each less a baseline taken after
 * warm-up connections and before the first of the N; for both ends when the accepting side runs in a second
 * JVM, which {@code --loopback} starts (so that this JVM holds only its N ends: one file descriptor each).
 */
@Command(name = "idle", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
        usageHelpAutoWidth = true, sortOptions = false,
        description = {"Idle queue pairs: connect N queue pairs, keep them open and idle, and report what each costs: "
                + "heap in use after a full GC, RSS (/proc/self/status VmRSS), Netty's allocator memory, JDK direct "
                + "buffers and file descriptors, each less the baseline before connecting. --loopback starts the "
                + "accepting side in a second JVM (same java, same class path) and reports its costs too; "
                + "--same-jvm keeps both ends here.",
                "",
                "RSS counts the heap the collector committed while the connections were made and kept after the GC "
                        + "(the 'heap commit.' row; G1 keeps up to MaxHeapFreeRatio, 70 percent, of it free), so it "
                        + "follows the JVM's heap sizing and moves by several KiB per queue pair from run to run; "
                        + "the heap row is the live data. The accepting JVM gets this JVM's heap and collector "
                        + "options (-Xmx, -Xms, -XX:+UseSerialGC, -XX:MaxHeapFreeRatio=..., set with IWARP_JAVA_OPTS "
                        + "for ./iwarp).",
                "",
                "Each TCP connection is a file descriptor at each end, so N connections need N descriptors here "
                        + "(2N with --same-jvm) under 'ulimit -n'. Where the hard limit is too low, a process with "
                        + "CAP_SYS_RESOURCE (root, outside a container) can raise both limits of a running shell with "
                        + "'prlimit --nofile=65536:65536 --pid PID' (PID: the shell's); without it (this project's "
                        + "machines: soft and hard limit 20000) keep the accepting side in its own JVM, as --loopback "
                        + "does: 10,000 queue pairs then take about 10,070 descriptors in each. Without SERVER and "
                        + "--loopback this is the server, as for iwarp perf connect.", ""},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp perf idle --loopback -q 10000",
                "  iwarp perf idle --loopback --same-jvm -q 1000",
                "  iwarp perf idle                                    # server (port 18515)",
                "  iwarp perf idle 127.0.0.1 -q 10000 --out_json idle.json",
                "",
                "Exit status: 0 success, 1 a connection failed, 2 usage error."})
public final class IdleCommand implements Callable<Integer> {

    static final String TITLE = "iWARP idle queue pairs (iwarp perf idle)";
    /** How long the accepting side may take to see its ends of the connections as established. */
    static final Duration SETTLE = Duration.ofSeconds(30);

    @Mixin
    ConnOptions options;

    @Option(names = {"-q", "--qps"}, paramLabel = "N", defaultValue = "1000",
            description = "queue pairs to connect and hold (default ${DEFAULT-VALUE})")
    int queuePairs;

    @Option(names = "--receives", paramLabel = "R", defaultValue = "0",
            description = "receives posted on each connecting queue pair (64 octets each; default ${DEFAULT-VALUE})")
    int receives;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "200",
            description = "connections made and ended before the baseline (default ${DEFAULT-VALUE})")
    long warmup;

    @Option(names = "--same-jvm", description = "with --loopback: accept in this JVM too (both ends counted here)")
    boolean sameJvm;

    @Option(names = "--hold", paramLabel = "SECONDS", defaultValue = "0",
            description = "keep the queue pairs open this long after measuring, e.g. to look at this process with "
                    + "jcmd PID GC.class_histogram (default ${DEFAULT-VALUE})")
    int holdSeconds;

    @Override
    public Integer call() {
        CommandLine cl = options.check();
        Usage.range(cl, "-q", queuePairs, 1, 1_000_000);
        if (receives < 0 || receives > options.qpDepth) {
            throw new CommandLine.ParameterException(cl, "--receives must be 0..--qp-depth: " + receives);
        }
        if (warmup < 0) {
            throw new CommandLine.ParameterException(cl, "--warmup must be 0 or more: " + warmup);
        }
        Usage.range(cl, "--hold", holdSeconds, 0, 86_400, "seconds");
        if (sameJvm && !options.loopback) {
            throw new CommandLine.ParameterException(cl, "--same-jvm goes with --loopback");
        }
        return ServerMode.serveOrRun(options, cl, this::run);
    }

    private void run(CommandLine cl, PrintWriter out) throws Exception {
        boolean here = options.loopback && sameJvm;
        Limits.checkOpenFiles((here ? 2L : 1L) * queuePairs, queuePairs + " connections"
                + (here ? " with both ends in this JVM" : ""));
        ConnSettings settings = options.settings(queuePairs + 2L * options.inFlight + 16);
        Acceptor acceptor = null;
        AcceptorControl child = null;
        try {
            List<InetSocketAddress> targets;
            if (here) {
                acceptor = new Acceptor(settings);
                targets = acceptor.listen(options.loopbackAddresses(0));
            } else if (options.loopback) {
                List<String> args = new ArrayList<>(options.serverArguments());
                args.addAll(List.of("--addresses", Integer.toString(options.addresses)));
                child = AcceptorControl.start(args);
                targets = child.addresses();
            } else {
                targets = List.of(options.serverAddress(cl));
            }
            try (Initiator initiator = new Initiator(settings, receives, queuePairs)) {
                ConnReport report = new ConnReport(out);
                report.header(TITLE, parameters(initiator.rnic(), targets, child));
                initiator.warmUp(targets, warmup, options.inFlight);
                AcceptorControl.Report childBase = child == null ? null : child.ask("BASELINE");
                MemorySnapshot base = MemorySnapshot.take(true);
                Initiator.Held held = initiator.hold(targets, queuePairs, options.inFlight);
                if (acceptor != null && !acceptor.awaitOpen(queuePairs, SETTLE)) {
                    throw new Initiator.ConnectFailure("the accepting side has " + acceptor.open() + " of "
                            + queuePairs + " connections open after " + SETTLE.toSeconds() + " s");
                }
                AcceptorControl.Report childNow = child == null ? null : awaitChild(child, queuePairs);
                MemorySnapshot now = MemorySnapshot.take(true);
                results(report, held, base, now, childBase, childNow, here);
                if (holdSeconds > 0) {
                    report.line("holding", holdSeconds + " s (process " + ProcessHandle.current().pid()
                            + (child == null ? "" : ", accepting process " + child.pid()) + ")");
                    Thread.sleep(holdSeconds * 1000L);
                }
                long released = initiator.release(new ArrayList<>(held.connections()), options.inFlight);
                report.line("released in", String.format(Locale.ROOT, "%.2f s (disconnect, at most %d at once)",
                        released / 1e9, options.inFlight));
                report.rule();
            }
        } finally {
            if (child != null) {
                child.close();
            }
            if (acceptor != null) {
                acceptor.close();
            }
        }
    }

    /** The child's report once it has all {@code n} connections open (it may see the last ones a moment later). */
    private static AcceptorControl.Report awaitChild(AcceptorControl child, long n) throws Exception {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true) {
            AcceptorControl.Report r = child.ask("REPORT");
            if (r.open() >= n || System.nanoTime() > deadline) {
                if (r.open() < n) {
                    throw new Initiator.ConnectFailure("the accepting process has " + r.open() + " of " + n
                            + " connections open after " + SETTLE.toSeconds() + " s");
                }
                return r;
            }
            Thread.sleep(100);
        }
    }

    private List<String> parameters(Rnic rnic, List<InetSocketAddress> targets, AcceptorControl child) {
        String ends;
        if (child != null) {
            ends = "accepting side in process " + child.pid() + " (--loopback), listening on "
                    + ConnectCommand.addresses(targets);
        } else if (options.loopback) {
            ends = "both in this JVM (--loopback --same-jvm), listening on " + ConnectCommand.addresses(targets);
        } else {
            ends = "the server at " + ConnectCommand.addresses(targets);
        }
        return List.of(
                String.format("Queue pairs     : %d held open and idle, connected at most %d at once, after %d "
                        + "warm-up connections", queuePairs, options.inFlight, warmup),
                String.format("Ends            : %s; %s, %d event loop(s) per RNIC", ends, rnic.transport(),
                        options.threads),
                "MPA             : revision 2, " + options.wire.describe(),
                "Each queue pair : " + options.settings(0).describeQueuePairs() + ", " + receives
                        + " receive(s) posted",
                "Measured        : after full GCs, less the baseline before the first of the " + queuePairs);
    }

    private void results(ConnReport report, Initiator.Held held, MemorySnapshot base, MemorySnapshot now,
                         AcceptorControl.Report childBase, AcceptorControl.Report childNow, boolean bothHere)
            throws Exception {
        long n = held.connections().size();
        double seconds = held.nanos() / 1e9;
        report.line("connected in", String.format(Locale.ROOT, "%.2f s (%.1f connections/s); setup [usec] %s", seconds,
                n / seconds, ConnReport.latency(held.setup())));
        MemorySnapshot.PerItem here = now.perItem(base, n);
        MemorySnapshot.PerItem there = childNow == null ? null : childNow.memory().perItem(childBase.memory(), n);
        String hereName = bothHere ? "this JVM, both ends" : "connecting JVM";
        report.line("per idle QP", String.format(Locale.ROOT, "%-22s%s", hereName, there == null ? ""
                : "accepting JVM"));
        row(report, "heap [B]", here.heap(), there == null ? null : there.heap());
        row(report, "heap commit. [B]", here.heapCommitted(), there == null ? null : there.heapCommitted());
        row(report, "RSS [B]", here.rss(), there == null ? null : there.rss());
        row(report, "Netty direct [B]", here.nettyDirect(), there == null ? null : there.nettyDirect());
        row(report, "Netty heap [B]", here.nettyHeap(), there == null ? null : there.nettyHeap());
        row(report, "JDK direct [B]", here.jdkDirect(), there == null ? null : there.jdkDirect());
        report.line("fds", String.format(Locale.ROOT, "%-22s%s", fixed(here.fds(), 2),
                there == null ? "" : fixed(there.fds(), 2)));
        report.line("totals here", totals(base, now));
        if (childNow != null) {
            report.line("totals there", totals(childBase.memory(), childNow.memory()));
        }
        if (options.outJson != null) {
            Json doc = Json.obj("test", Json.str("idle"), "queue_pairs", Json.num(n), "warmup", Json.num(warmup),
                    "in_flight", Json.num(options.inFlight), "receives_each", Json.num(receives),
                    "qp_depth", Json.num(options.qpDepth), "event_loops", Json.num(options.threads),
                    "crc", Json.bool(options.wire.crc()),
                    "accepting", Json.str(childNow != null ? "other_jvm" : bothHere ? "same_jvm" : "server"),
                    "connect_seconds", Json.realOrNull(seconds), "setup", ConnReport.latencyJson(held.setup()),
                    "per_qp", Json.obj("connecting", perItemJson(here), "accepting", there == null ? Json.Null.NULL
                            : perItemJson(there)),
                    "baseline", snapshotJson(base), "held", snapshotJson(now),
                    "accepting_baseline", childBase == null ? Json.Null.NULL : snapshotJson(childBase.memory()),
                    "accepting_held", childNow == null ? Json.Null.NULL : snapshotJson(childNow.memory()));
            JsonWriter.writeFile(options.outJson, doc);
        }
    }

    /** What a JVM held before and after, e.g. {@code heap 8.8 MiB -> 187.2 MiB (committed ...), RSS ...}. */
    private static String totals(MemorySnapshot b, MemorySnapshot c) {
        return String.format(Locale.ROOT, "heap %s -> %s (committed %s -> %s), RSS %s -> %s, Netty direct %s -> %s, "
                        + "threads %d -> %d", ConnReport.bytes(b.heapUsed()), ConnReport.bytes(c.heapUsed()),
                ConnReport.bytes(b.heapCommitted()), ConnReport.bytes(c.heapCommitted()), ConnReport.bytes(b.rss()),
                ConnReport.bytes(c.rss()), ConnReport.bytes(b.nettyDirect()), ConnReport.bytes(c.nettyDirect()),
                b.threads(), c.threads());
    }

    private static void row(ConnReport report, String label, double here, Double there) {
        report.line(label, String.format(Locale.ROOT, "%-22s%s", fixed(here, 1), there == null ? "" : fixed(there, 1)));
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static Json perItemJson(MemorySnapshot.PerItem p) {
        return Json.obj("heap_bytes", Json.realOrNull(p.heap()), "heap_committed_bytes",
                Json.realOrNull(p.heapCommitted()), "rss_bytes", Json.realOrNull(p.rss()),
                "netty_direct_bytes", Json.realOrNull(p.nettyDirect()), "netty_heap_bytes",
                Json.realOrNull(p.nettyHeap()), "netty_counted_direct_bytes", Json.realOrNull(p.nettyCounted()),
                "jdk_direct_bytes", Json.realOrNull(p.jdkDirect()), "fds", Json.realOrNull(p.fds()));
    }

    private static Json snapshotJson(MemorySnapshot m) {
        return Json.obj("heap_used_bytes", Json.num(m.heapUsed()), "heap_committed_bytes", Json.num(m.heapCommitted()),
                "rss_bytes", Json.num(m.rss()), "netty_direct_bytes", Json.num(m.nettyDirect()),
                "netty_heap_bytes", Json.num(m.nettyHeap()), "netty_counted_direct_bytes", Json.num(m.nettyCounted()),
                "jdk_direct_bytes", Json.num(m.jdkDirect()), "fds", Json.num(m.fds()),
                "threads", Json.num(m.threads()));
    }
}
