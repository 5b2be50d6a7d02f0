package org.iwarp4j.tools.perf;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.perf.conn.ConnectCommand;
import org.iwarp4j.tools.perf.conn.IdleCommand;
import org.iwarp4j.tools.report.JsonWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code iwarp perf}: perftest's bandwidth and latency tests over this stack ({@code write}, {@code read},
 * {@code send}, {@code atomic}) and over plain TCP with Netty ({@code tcp}), with perftest's options and
 * report layout. Latency is a flag ({@code --latency}) rather than perftest's separate {@code ib_*_lat}
 * programs: what is measured (the verb) and how (bandwidth or latency) are independent, and one flag keeps
 * five subcommands instead of ten with identical options.
 */
@Command(name = "perf",
        mixinStandardHelpOptions = true,
        versionProvider = IwarpCommand.Version.class,
        usageHelpAutoWidth = true,
        description = {"perftest's tests over iWARP (write, read, send, atomic) and the same over plain TCP (tcp), "
                + "with perftest's options and report. Without SERVER a test waits for one client; with SERVER it "
                + "connects; --loopback runs both ends in this JVM.", ""},
        subcommands = {PerfCommand.Write.class, PerfCommand.Read.class, PerfCommand.Send.class,
                PerfCommand.Atomic.class, PerfCommand.Tcp.class, ConnectCommand.class, IdleCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  iwarp perf write --loopback -s 65536 -D 5",
                "  iwarp perf tcp --loopback -s 65536 -D 5          # the same over plain TCP",
                "  iwarp perf read --loopback --latency -s 64",
                "  iwarp perf send                                   # server (waits on port 18515)",
                "  iwarp perf write 192.0.2.1 -s 4096                # client of ib_write_bw -R -s 4096 there",
                "  iwarp perf send 192.0.2.1 -a --out_json --out_json_file send.json  # client, perftest's JSON",
                "  iwarp perf write --loopback -s 65536 -D 4 -q 64   # 64 queue pairs, one polling thread",
                "  iwarp perf write --loopback -a -D 1 --plot bw.svg # iWARP and then TCP over every size, drawn",
                "  iwarp perf write --loopback --latency -s 64 -n 100000 --plot lat.svg  # latency by percentile",
                "",
                "Apart, both ends speak perftest 4.5+0.17's control exchange (--protocol perftest): ours pairs",
                "with ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw and the _lat programs (--latency) -R;",
                "give both ends the same -s/-a, -n, -q, -t (docs/perftest-wire.md). --protocol iwarp4j is ours.",
                "",
                "The report is perftest's (4.5's text; --perftest-version upstream for upstream's), --out_json its",
                "JSON (upstream's keys) in --out_json_file; -R, -x, -F are accepted no-ops. --details adds our own",
                "lines after it: MPA, endpoints, the queue pairs' spread and CPU seconds per GB (10^9 octets) moved,",
                "this process's user+sys and user time, both ends with --loopback; apart, the client's and the",
                "server's (which reports its own). --details-json FILE writes them as JSON.",
                "--plot on an iWARP test implies --compare-tcp: the TCP baseline runs after it over the same sizes,",
                "-q, -t, -n or -D, and the SVG draws both.",
                "",
                "Exit status: 0 success, 1 connection, completion or verification failure, 2 usage error."})
public final class PerfCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing test: write, read, send, atomic or tcp");
    }

    /** One perf test: the verb, perftest's options, and the run as server, client or both. */
    abstract static class VerbCommand implements Callable<Integer> {

        @Mixin
        PerfOptions options;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        abstract PerfVerb verb();

        @Override
        public Integer call() {
            CommandLine cl = spec.commandLine();
            PerfConfig config = options.config(cl, verb());
            InetSocketAddress server = options.serverAddress(cl);
            PrintWriter out = cl.getOut();
            PrintWriter err = cl.getErr();
            boolean compare = options.comparesTcp(verb());
            boolean perftest = options.perftestProtocol(cl, verb());
            try {
                List<PerfResult> results = List.of();
                List<PerfResult> tcpResults = List.of();
                if (verb() == PerfVerb.TCP) {
                    TcpBaseline tcp = new TcpBaseline(config, out).notesTo(err);
                    if (options.loopback) {
                        tcpResults = tcp.loopback().results();
                    } else if (server != null) {
                        tcpResults = tcp.client(server).results();
                    } else {
                        tcp.server(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), options.port),
                                new CompletableFuture<>(), false);
                    }
                } else if (perftest) {
                    results = perftest(config, server, out);
                } else if (options.loopback || server != null) {
                    PerfRunner runner = new PerfRunner(config, out).notesTo(err);
                    PerfReport iwarp = options.loopback ? runner.loopback() : runner.client(server);
                    results = iwarp.results();
                    if (compare) {
                        out.println();
                        TcpBaseline baseline = new TcpBaseline(config.tcpBaseline(), out).notesTo(err);
                        PerfReport tcp = options.loopback ? baseline.loopback()
                                : baseline.client(new InetSocketAddress(server.getAddress(), options.tcpPort()));
                        tcpResults = tcp.results();
                        if (config.detailsJson() != null) {
                            JsonWriter.writeFile(config.detailsJson(), PerfReport.with(iwarp.json(), "tcp_baseline",
                                    tcp.json()));
                        }
                    }
                } else {
                    serve(config, compare, out);
                }
                if (options.plot != null) {
                    plot(config, server, results, tcpResults);
                    out.println("plot: " + options.plot);
                }
                return CommandLine.ExitCode.OK;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("iwarp perf: interrupted");
            } catch (Exception e) {
                err.println("iwarp perf " + verb().name().toLowerCase() + ": " + Stacks.describe(e));
            } finally {
                out.flush();
                err.flush();
            }
            return IwarpCommand.EXIT_FAILURE;
        }

        /**
         * A run over perftest's control exchange: as client against {@code server}, as a server on -p (one client),
         * or both ends here with --loopback.
         */
        private List<PerfResult> perftest(PerfConfig config, InetSocketAddress server, PrintWriter out)
                throws Exception {
            LeakDetection.offUnlessConfigured();
            if (server != null) {
                try (PerftestPeer client = new PerftestPeer(config, out, true, options.bidirectional)) {
                    return client.runClient(server);
                }
            }
            if (!options.loopback) {
                try (PerftestPeer s = new PerftestPeer(config, out, false, options.bidirectional)) {
                    s.listen(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), options.port));
                    out.println();
                    PerfReport.waitingForClient(out);
                    s.runServer();
                }
                return List.of();
            }
            PrintWriter quiet = new PrintWriter(OutputStream.nullOutputStream());
            try (PerftestPeer s = new PerftestPeer(config, quiet, false, options.bidirectional)) {
                int port = s.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                    try {
                        s.runServer();
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }, r -> {
                    Thread t = new Thread(r, "iwarp-perftest-server");
                    t.setDaemon(true);
                    t.start();
                });
                List<PerfResult> results;
                try (PerftestPeer client = new PerftestPeer(config, out, true, options.bidirectional)) {
                    results = client.runClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                }
                try {
                    Stacks.get(served, 30);
                } catch (ExecutionException e) {
                    throw new PerfFailure("server: " + Stacks.describe(e.getCause()));
                }
                return results;
            }
        }

        private CommandLine cl() {
            return spec.commandLine();
        }

        /** Server mode; with {@code --compare-tcp} it serves the TCP baseline on --tcp-port meanwhile. */
        private void serve(PerfConfig config, boolean compare, PrintWriter out) throws Exception {
            CompletableFuture<Void> tcpServed = null;
            if (compare) {
                CompletableFuture<Integer> bound = new CompletableFuture<>();
                TcpBaseline tcp = new TcpBaseline(config.tcpBaseline(), out).notesTo(cl().getErr());
                InetSocketAddress bind = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), options.tcpPort());
                tcpServed = CompletableFuture.runAsync(() -> {
                    try {
                        tcp.server(bind, bound, true);
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }, r -> {
                    Thread t = new Thread(r, "iwarp-perf-tcp-server");
                    t.setDaemon(true);
                    t.start();
                });
                Stacks.get(bound, 30);
                out.println(" (and the TCP baseline for --compare-tcp on port " + options.tcpPort() + ")");
            }
            if (options.persistent) {
                new PerfRunner(config, out).notesTo(cl().getErr()).servePersistently(options.port, cl().getErr());
            } else {
                new PerfRunner(config, out).notesTo(cl().getErr()).server(options.port);
            }
            if (tcpServed != null) {
                tcpServed.get();
            }
        }

        /** {@code --plot}: the iWARP results beside the TCP baseline's (a tcp test: the baseline alone). */
        private void plot(PerfConfig config, InetSocketAddress server, List<PerfResult> results,
                          List<PerfResult> tcpResults) throws IOException {
            List<PerfPlot.Series> series = new ArrayList<>();
            boolean latency = config.latency();
            boolean pingPong = config.verb() != PerfVerb.READ && config.verb() != PerfVerb.ATOMIC;
            if (!results.isEmpty()) {
                series.add(new PerfPlot.Series("iWARP " + config.verb().title()
                        + (latency ? pingPong ? " (1/2 round trip)" : " (round trip)" : ""), results));
            }
            series.add(new PerfPlot.Series("TCP" + (latency ? " (1/2 round trip)" : ""), tcpResults));
            String title = config.title() + (config.qps() > 1 ? ", " + config.qps() + " QPs" : "")
                    + (results.isEmpty() ? "" : " vs TCP");
            String subtitle = String.format("iwarp perf, %s, Netty %s, CRC %s, -q %d, -t %d, %s, %d cores",
                    options.loopback ? "--loopback" : "to " + server, TcpBaseline.transport(config),
                    config.wire().crc() ? "on" : "off", config.qps(), config.txDepth(),
                    config.durationMode()
                            ? "-D " + config.durationSeconds() + " -f " + config.marginSeconds() + " per size"
                            : "-n " + config.iterations(), Runtime.getRuntime().availableProcessors());
            PerfPlot.write(options.plot, title, subtitle, latency, config.gbits(), series);
        }
    }

    @Command(name = "write", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
            usageHelpAutoWidth = true, sortOptions = false,
            description = "RDMA Write bandwidth (ib_write_bw), or with --latency the Write ping-pong (ib_write_lat)")
    static final class Write extends VerbCommand {
        @Override
        PerfVerb verb() {
            return PerfVerb.WRITE;
        }
    }

    @Command(name = "read", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
            usageHelpAutoWidth = true, sortOptions = false,
            description = "RDMA Read bandwidth (ib_read_bw), or with --latency one Read at a time (ib_read_lat)")
    static final class Read extends VerbCommand {
        @Override
        PerfVerb verb() {
            return PerfVerb.READ;
        }
    }

    @Command(name = "send", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
            usageHelpAutoWidth = true, sortOptions = false,
            description = "Send bandwidth with receive credits (ib_send_bw), or with --latency the Send ping-pong "
                    + "(ib_send_lat)")
    static final class Send extends VerbCommand {
        @Override
        PerfVerb verb() {
            return PerfVerb.SEND;
        }
    }

    @Command(name = "atomic", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
            usageHelpAutoWidth = true, sortOptions = false,
            description = "RFC 7306 FetchAdd (or -A CMP_AND_SWAP) rate (ib_atomic_bw), or with --latency one at a "
                    + "time (ib_atomic_lat)")
    static final class Atomic extends VerbCommand {
        @Override
        PerfVerb verb() {
            return PerfVerb.ATOMIC;
        }
    }

    @Command(name = "tcp", mixinStandardHelpOptions = true, versionProvider = IwarpCommand.Version.class,
            usageHelpAutoWidth = true, sortOptions = false,
            description = "The baseline: a plain TCP stream (bandwidth) or ping-pong (--latency) with Netty, same "
                    + "transport and sizes, so iWARP figures read as ratios to raw TCP")
    static final class Tcp extends VerbCommand {
        @Override
        PerfVerb verb() {
            return PerfVerb.TCP;
        }
    }
}
