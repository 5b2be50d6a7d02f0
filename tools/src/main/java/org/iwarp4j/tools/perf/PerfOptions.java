package org.iwarp4j.tools.perf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.Transport;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** perftest's options, shared by every {@code iwarp perf} test. */
public final class PerfOptions {

    /** perftest's default port. */
    public static final int DEFAULT_PORT = 18515;
    /** perftest's DEFAULT_JSON_FILE_NAME. */
    static final String DEFAULT_JSON_FILE = "perftest_out.json";
    /** perftest's MAX_SIZE: {@code -a} runs 2..2^23. */
    static final int MAX_SIZE = 1 << 23;
    /** The most queue pairs of one run ({@code -q}). */
    static final int MAX_QPS = 1024;
    /** The most operations in flight on one queue pair ({@code -t}). */
    static final int MAX_TX_DEPTH = 15000;
    /** The largest --outbound-buffer: 64 MiB, past anything a socket takes at once. */
    static final int MAX_OUTBOUND_BUFFER = 64 << 20;
    /** The most operations in flight over all queue pairs ({@code -q} times {@code -t}). */
    static final int MAX_IN_FLIGHT = 1 << 18;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SERVER",
            description = "the server to connect to (client); without it this is the server, which waits for one "
                    + "client")
    String server;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE",
            description = "message size in octets, 1.." + MAX_SIZE + " (default 65536; 2 with --latency; Atomic: 8)")
    Integer size;

    @Option(names = {"-a", "--all"}, description = "run every size 2, 4, ... 2^23 (Atomic: 8 only)")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "iterations per size (and queue pair), 5..100000000 (default 5000; 1000 with --latency); "
                    + "ignored with -D, as in perftest")
    Long iterations;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS",
            description = "run each size for SECONDS instead, measuring all but a margin (-f) at either end")
    Integer duration;

    @Option(names = {"-f", "--margin"}, paramLabel = "SECONDS",
            description = "with -D: the first SECONDS of each size run unmeasured (the JIT compiles meanwhile), and "
                    + "-D minus twice the margin is measured, as in perftest (default: a quarter of -D, rounded down); "
                    + "with -n (iwarp perf's own): SECONDS of unmeasured operations before the counted ones")
    Integer margin;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "" + DEFAULT_PORT,
            description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N",
            description = "operations in flight, 1..15000 (default 128; 1 with --latency)")
    Integer txDepth;

    @Option(names = {"-q", "--qp"}, paramLabel = "N", defaultValue = "1",
            description = "bandwidth tests: N queue pairs (tcp: N connections) between the same two ends, 1.." + MAX_QPS
                    + ", each with its own -t operations in flight, all driven by one thread; the report gives their "
                    + "sum and the slowest and fastest queue pair (default 1)")
    int qps;

    @Option(names = {"-b", "--bidirectional"}, description = "bandwidth tests over perftest's exchange: both ends "
            + "send at once (perftest's duplex), each measures its own direction and both print the sum of the two "
            + "(send -D: each its own count of both directions, as perftest); give -b to both ends, as with perftest")
    boolean bidirectional;

    @Option(names = "--latency", description = "latency instead of bandwidth: perftest's ib_*_lat (ping-pong for "
            + "write, send and tcp; one operation at a time for read and atomic)")
    boolean latency;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", defaultValue = "FETCH_AND_ADD",
            description = "atomic test: FETCH_AND_ADD (default) or CMP_AND_SWAP")
    String atomicType;

    @Option(names = "--report_gbits", description = "report Gb/sec instead of MB/sec")
    boolean gbits;

    @Option(names = "--out_json", description = "also write the result as perftest's JSON to --out_json_file: its "
            + "keys and layout, one size (as perftest, which rewrites the file after each size: with -a the last)")
    boolean outJson;

    @Option(names = "--out_json_file", paramLabel = "FILE", description = "the file of --out_json (default "
            + DEFAULT_JSON_FILE + " in the working directory); without --out_json nothing is written, as in perftest")
    Path outJsonFile;

    @Option(names = "--details", description = "after perftest's report, iwarp perf's own lines: MPA settings, "
            + "endpoints, CPU seconds per GB moved and, with -q, the slowest and fastest queue pair (off: the output "
            + "is perftest's alone)")
    boolean details;

    @Option(names = "--details-json", paramLabel = "FILE", description = "write iwarp perf's own JSON: every size, "
            + "CPU per GB, the queue pairs' spread, the TCP baseline of --compare-tcp")
    Path detailsJson;

    @Option(names = "--perftest-version", paramLabel = "4.5|upstream", defaultValue = "4.5",
            description = "whose text report to print: perftest 4.5 (Debian 12; BW in [MB/sec]) or upstream's "
                    + "(6.x, 24.x and later; [MiB/sec], the same 2^20 octets) (default ${DEFAULT-VALUE})")
    String perftestVersion;

    @Option(names = {"-R", "--rdma_cm"}, description = "accepted, no-op: our queue pairs always connect as rdma_cm "
            + "does (MPA over TCP)")
    boolean rdmaCm;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", description = "accepted, no-op: iWARP addresses "
            + "the peer by IP, there is no GID table")
    Integer gidIndex;

    @Option(names = {"-F", "--CPU-freq"}, description = "accepted, no-op: the clock is System.nanoTime, which "
            + "CPU frequency scaling does not skew (perftest warns about cpufreq for its cycle counter)")
    boolean cpuFreq;

    @Option(names = "--loopback", description = "run the server and the client in this JVM over 127.0.0.1")
    boolean loopback;

    @Option(names = "--protocol", paramLabel = "perftest|iwarp4j", description = "the control exchange with the "
            + "other end: perftest (perftest 4.5+0.17's, so that this pairs with ib_*_bw -R / ib_*_lat -R; give both "
            + "ends the same -s, -n or -D, -q, -t, as with perftest) or iwarp4j (our own: --verify, --persistent, "
            + "--compare-tcp apart, -D with -a, the server's CPU time). Default: perftest with SERVER "
            + "or as a server, iwarp4j with --loopback (both ends are ours)")
    String protocol;

    @Option(names = "--persistent", description = "server: serve client after client, one at a time (a client "
            + "that comes during a test is refused as busy, so no two runs share the machine), surviving any "
            + "client's failure, until SIGINT or SIGTERM")
    boolean persistent;

    @Option(names = "--progress", description = "show the progress line on stderr even when it is not a terminal "
            + "(it appears on runs longer than 2 s)")
    boolean progress;

    @Option(names = "--verify", description = "write and read: check every octet that crosses the connection "
            + "(Write: the server checks each round of its buffer; Read: the client checks each Read)")
    boolean verify;

    @Option(names = "--transport", paramLabel = "EPOLL|NIO|IO_URING", description = "the Netty transport of the "
            + "iWARP stacks and of perf tcp (default: EPOLL where available, else NIO)")
    Transport transport;

    @Option(names = "--run-to-completion", description = "the client posts and polls from a completion handler on its "
            + "event loop (CompletionQueue.executor), not an application thread (the Write latency test watches its "
            + "memory there too); the server it asks handles its completions on its event loop as well (the Send "
            + "test's receives and credits, the Send and Write echoes); see docs/performance.md")
    boolean runToCompletion;

    @Option(names = "--busy-poll", description = "the event loops of this process (the iWARP stacks' and perf "
            + "tcp's) never sleep: each turn polls the sockets without waiting (a core per loop); give it to both "
            + "ends, or with --loopback, to compare latency without the wake-ups; epoll and NIO")
    boolean busyPoll;

    @Option(names = "--outbound-buffer", paramLabel = "OCTETS", description = "the high water mark of each "
            + "connection's outbound buffer, for the iWARP stacks (RnicConfig.outboundBufferBytes) and perf tcp alike: "
            + "a queue pair pulls FPDUs from its send queue until this many wait for the socket, and resumes at half "
            + "(default 262144; see docs/performance.md)")
    Integer outboundBuffer;

    @Option(names = "--notsent-lowat", paramLabel = "OCTETS", description = "the unsent octets each connection's "
            + "socket may hold (TCP_NOTSENT_LOWAT), for the iWARP stacks (RnicConfig.tcpNotSentLowat) and perf tcp "
            + "alike; 0: the kernel's default, as large as the send buffer (default 1048576; epoll and io_uring)")
    Integer notSentLowat;

    @Option(names = "--compare-tcp", description = "after an iWARP test, the same over plain TCP (perf tcp: the "
            + "same sizes, -q, -t, -n or -D, transport) and both reports; --loopback: here; a client: against "
            + "SERVER's --tcp-port, where the server (given --compare-tcp too) serves it")
    boolean compareTcp;

    @Option(names = "--tcp-port", paramLabel = "PORT", description = "with --compare-tcp apart: the TCP baseline's "
            + "port (default: -p + 1)")
    Integer tcpPort;

    @Option(names = "--plot", paramLabel = "FILE.svg", description = "draw the results into an SVG file (JFreeChart): "
            + "bandwidth and message rate against message size (use -a), or with --latency latency by percentile; "
            + "on an iWARP test implies --compare-tcp, so TCP is drawn beside it from the same invocation")
    Path plot;

    @Mixin
    WireOptions wire;

    /** The stacks' Netty settings these options give (after {@link #config} checked them). */
    StackSettings stack() {
        return new StackSettings(transport, busyPoll,
                outboundBuffer != null ? outboundBuffer : StackSettings.DEFAULTS.outboundBufferBytes(),
                notSentLowat != null ? notSentLowat : StackSettings.DEFAULTS.notSentLowat());
    }

    /** Validates the options for {@code verb}; usage errors throw {@link CommandLine.ParameterException}. */
    PerfConfig config(CommandLine cl, PerfVerb verb) {
        if (server != null && server.endsWith(".json")) {
            throw new CommandLine.ParameterException(cl, "--out_json takes no file, as perftest's: give "
                    + "--out_json --out_json_file " + server);
        }
        if (server != null && loopback) {
            throw new CommandLine.ParameterException(cl, "--loopback runs both ends here: give no SERVER");
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(cl, "invalid port " + port);
        }
        if (all && size != null) {
            throw new CommandLine.ParameterException(cl, "-a runs every size: do not give -s");
        }
        if (iterations != null && (iterations < 5 || iterations > 100_000_000)) {
            throw new CommandLine.ParameterException(cl, "-n must be 5..100000000: " + iterations);
        }
        if (duration != null && (duration < 1 || duration > 86_400)) {
            throw new CommandLine.ParameterException(cl, "-D must be 1..86400 seconds: " + duration);
        }
        if (margin != null && duration == null && (margin < 0 || margin > 3600)) {
            throw new CommandLine.ParameterException(cl, "-f with -n must be 0..3600 seconds: " + margin);
        }
        if (margin != null && duration != null && (margin < 0 || 2L * margin >= duration)) {
            throw new CommandLine.ParameterException(cl, "-f must be 0 or more and leave something to measure: -D "
                    + duration + " minus twice " + margin + " is " + (duration - 2L * margin) + " s");
        }
        if (txDepth != null && (txDepth < 1 || txDepth > MAX_TX_DEPTH)) {
            throw new CommandLine.ParameterException(cl, "-t must be 1.." + MAX_TX_DEPTH + ": " + txDepth);
        }
        if (verify && (latency || (verb != PerfVerb.WRITE && verb != PerfVerb.READ))) {
            throw new CommandLine.ParameterException(cl, "--verify applies to write and read bandwidth");
        }
        if (qps < 1 || qps > MAX_QPS) {
            throw new CommandLine.ParameterException(cl, "-q must be 1.." + MAX_QPS + ": " + qps);
        }
        if (qps > 1 && latency) {
            throw new CommandLine.ParameterException(cl, "-q applies to bandwidth tests: --latency runs one "
                    + "queue pair");
        }
        if (bidirectional && (latency || verb == PerfVerb.TCP)) {
            throw new CommandLine.ParameterException(cl, "-b applies to the iWARP bandwidth tests (as in perftest, "
                    + "whose _lat programs refuse it)");
        }
        if (qps > 1 && verify) {
            throw new CommandLine.ParameterException(cl, "--verify runs one queue pair: give no -q");
        }
        if (runToCompletion && verb == PerfVerb.TCP) {
            throw new CommandLine.ParameterException(cl, "--run-to-completion applies to iWARP tests (perf tcp always "
                    + "runs on its event loops)");
        }
        if (busyPoll && transport == Transport.IO_URING) {
            throw new CommandLine.ParameterException(cl, "--busy-poll needs epoll or NIO: io_uring's loops wait in "
                    + "the kernel");
        }
        if (outboundBuffer != null && (outboundBuffer < 1 || outboundBuffer > MAX_OUTBOUND_BUFFER)) {
            throw new CommandLine.ParameterException(cl, "--outbound-buffer must be 1.." + MAX_OUTBOUND_BUFFER + ": "
                    + outboundBuffer);
        }
        if (notSentLowat != null && notSentLowat < 0) {
            throw new CommandLine.ParameterException(cl, "--notsent-lowat must be 0 (the kernel's default) or more: "
                    + notSentLowat);
        }
        if (compareTcp && verb == PerfVerb.TCP) {
            throw new CommandLine.ParameterException(cl, "--compare-tcp goes with write, read, send and atomic: tcp "
                    + "is the baseline itself");
        }
        if (plot != null && server == null && !loopback) {
            throw new CommandLine.ParameterException(cl, "--plot draws what the client measures: give it to the "
                    + "client or with --loopback (the server takes --compare-tcp)");
        }
        if (plot != null && latency && all) {
            throw new CommandLine.ParameterException(cl, "--plot with --latency draws one size's percentiles: give "
                    + "-s, not -a");
        }
        if (tcpPort != null && (tcpPort < 0 || tcpPort > 65535)) {
            throw new CommandLine.ParameterException(cl, "invalid --tcp-port " + tcpPort);
        }
        if (tcpPort != null && (!comparesTcp(verb) || loopback)) {
            throw new CommandLine.ParameterException(cl, "--tcp-port goes with --compare-tcp (or --plot) apart, "
                    + "without --loopback");
        }
        if (comparesTcp(verb) && !loopback && tcpPort() > 65535) {
            throw new CommandLine.ParameterException(cl, "-p 65535 leaves no port for the TCP baseline: give "
                    + "--tcp-port");
        }
        PerftestFormat.Style style = switch (perftestVersion) {
            case "4.5" -> PerftestFormat.Style.V4_5;
            case "upstream" -> PerftestFormat.Style.UPSTREAM;
            default -> throw new CommandLine.ParameterException(cl, "--perftest-version must be 4.5 or upstream: "
                    + perftestVersion);
        };
        if (iterations != null && duration != null) {
            // perftest 4.5 checks -n's range, then duration mode sets the count to 0 and counts the measured span
            cl.getErr().println("note: -n is ignored with -D (as in perftest: the measured span's operations are "
                    + "counted instead)");
        }
        if (outJsonFile != null && !outJson) {
            cl.getErr().println("note: --out_json_file without --out_json writes nothing (as in perftest)");
        }
        Path json = outJson ? outJsonFile != null ? outJsonFile : Path.of(DEFAULT_JSON_FILE) : null;
        boolean compareSwap;
        switch (atomicType.toUpperCase()) {
            case "FETCH_AND_ADD" -> compareSwap = false;
            case "CMP_AND_SWAP" -> compareSwap = true;
            default -> throw new CommandLine.ParameterException(cl, "-A must be FETCH_AND_ADD or CMP_AND_SWAP");
        }
        List<Integer> sizes = new ArrayList<>();
        if (verb == PerfVerb.ATOMIC) {
            if (size != null && size != 8) {
                throw new CommandLine.ParameterException(cl, "atomics operate on 8 octets (RFC 7306 §5.1): -s 8");
            }
            sizes.add(8);
        } else if (all) {
            for (int s = 2; s <= MAX_SIZE; s <<= 1) {
                sizes.add(s);
            }
        } else {
            int s = size != null ? size : latency ? 2 : 65536;
            if (s < 1 || s > MAX_SIZE) {
                throw new CommandLine.ParameterException(cl, "-s must be 1.." + MAX_SIZE + ": " + s);
            }
            sizes.add(s);
        }
        int depth = latency ? 1 : txDepth != null ? txDepth : 128;
        if ((long) depth * qps > MAX_IN_FLIGHT) {
            throw new CommandLine.ParameterException(cl, "-q times -t must be at most " + MAX_IN_FLIGHT + ": " + qps
                    + " x " + depth);
        }
        long iters = iterations != null && duration == null ? iterations : latency ? 1000 : 5000;
        int seconds = duration == null ? 0 : duration;
        int marginSeconds = margin != null ? margin : seconds / 4; // perftest: DEF_INIT_MARGIN means -D / 4
        return new PerfConfig(verb, latency, verify, compareSwap, sizes, iters, seconds, marginSeconds, depth,
                512, gbits, json, progress, wire, loopback, qps, runToCompletion, stack(), details,
                detailsJson, style);
    }

    /**
     * Whether this run speaks perftest's control exchange ({@code --protocol}); usage errors for what perftest 4.5's
     * exchange cannot express, so a user learns it before a run and not from a peer's failure.
     */
    boolean perftestProtocol(CommandLine cl, PerfVerb verb) {
        String p = protocol != null ? protocol : loopback ? "iwarp4j" : "perftest";
        if (!p.equals("perftest") && !p.equals("iwarp4j")) {
            throw new CommandLine.ParameterException(cl, "--protocol must be perftest or iwarp4j: " + protocol);
        }
        if (p.equals("iwarp4j") || verb == PerfVerb.TCP) {
            if (bidirectional) {
                throw new CommandLine.ParameterException(cl, "-b runs over perftest's exchange only: give "
                        + "--protocol perftest (our own carries no bidirectional test)");
            }
            return false;
        }
        String needsOurs = verify ? "--verify" : persistent ? "--persistent"
                : margin != null && duration == null ? "-f without -D"
                : comparesTcp(verb) && !loopback ? "--compare-tcp and --plot apart" : runToCompletion
                ? "--run-to-completion" : null;
        if (needsOurs != null) {
            throw new CommandLine.ParameterException(cl, needsOurs + " needs our own control exchange: give "
                    + "--protocol iwarp4j to both ends (perftest's carries none of it)");
        }
        if (duration != null && all) {
            throw new CommandLine.ParameterException(cl, "-D runs one size over perftest's exchange, as perftest "
                    + "4.5 (which refuses -a in duration mode): give -s, or --protocol iwarp4j to both ends");
        }
        return true;
    }

    /** Whether an iWARP test runs the TCP baseline after it: {@code --compare-tcp}, or {@code --plot}. */
    boolean comparesTcp(PerfVerb verb) {
        return verb != PerfVerb.TCP && (compareTcp || plot != null);
    }

    /** The TCP baseline's port with {@code --compare-tcp} apart. */
    int tcpPort() {
        return tcpPort != null ? tcpPort : port + 1;
    }

    /** The server's address, or {@code null} in server mode (and with --loopback). */
    InetSocketAddress serverAddress(CommandLine cl) {
        if (persistent && (server != null || loopback)) {
            throw new CommandLine.ParameterException(cl, "--persistent is for the server (no SERVER, no --loopback)");
        }
        if (server == null) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(server), port);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(cl, "unknown host " + server);
        }
    }
}
