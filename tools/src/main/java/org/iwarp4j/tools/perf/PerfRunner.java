package org.iwarp4j.tools.perf;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.Termination;

/** Runs an iWARP perf test as server, as client, or both in one JVM ({@code --loopback}). */
final class PerfRunner {

    private final PerfConfig config;
    private final PrintWriter out;
    private PrintWriter notes = new PrintWriter(System.err, true);

    PerfRunner(PerfConfig config, PrintWriter out) {
        LeakDetection.offUnlessConfigured();
        this.config = config;
        this.out = out;
    }

    /** Where notes on a measurement go ({@link PerfReport#jitNote}): the command's standard error. */
    PerfRunner notesTo(PrintWriter err) {
        this.notes = err;
        return this;
    }

    /**
     * {@code --persistent}: serves client after client on {@code port}, one at a time, until this thread is
     * interrupted or SIGINT/SIGTERM comes; a client's failure is one line on {@code err} and the next client is
     * served. Each client gets a fresh server (queue pair, buffers, completion queue) sized by its own hello; the
     * next one listens as soon as the current run is accepted (refusing clients as busy until that run is done),
     * so the port is never closed between clients.
     */
    void servePersistently(int port, PrintWriter err) {
        Thread serving = Thread.currentThread();
        int served = 0;
        int failed = 0;
        Next next = null;
        try (Termination t = Termination.onSignal(serving::interrupt)) {
            next = listening(new InetSocketAddress(port)); // every address, as the one-client server
            int bound = next.port();
            InetSocketAddress bind = new InetSocketAddress(bound); // -p 0: every client on the port first bound
            out.println("perf server: listening on 0.0.0.0:" + bound
                    + " (persistent: client after client; SIGINT or SIGTERM to stop)");
            out.flush();
            while (!Thread.currentThread().isInterrupted()) {
                PerfServer current = next.server();
                ServerReport reporter = next.report();
                next = null;
                try (current) {
                    current.ready();
                    PerfHello hello = null;
                    while (hello == null) {
                        try {
                            hello = current.accept();
                        } catch (PerfServer.Rejected e) {
                            // nothing was set up: the listener stays, so the port is not closed for the next client
                            failed++;
                            err.println("perf server: client failed: " + e.getMessage());
                            err.flush();
                        }
                    }
                    current.closeListener();
                    next = listening(bind);
                    next.server().refuseUntilReady();
                    reporter.start(hello, current);
                    current.serve();
                    reporter.end();
                    served++;
                } catch (InterruptedException e) {
                    break;
                } catch (Exception e) {
                    if (Thread.currentThread().isInterrupted()) {
                        break;
                    }
                    failed++;
                    err.println("perf server: client failed: " + Stacks.describe(e));
                    err.flush();
                }
                if (next == null) {
                    next = listening(bind); // the client failed before its run was accepted
                }
            }
        } catch (RuntimeException e) {
            err.println("perf server: " + Stacks.describe(e));
        } finally {
            if (next != null) {
                next.server().close();
            }
        }
        Thread.interrupted();
        out.println("perf server: stopped: " + served + " clients served, " + failed + " failed");
        out.flush();
    }

    /** The server for the next client and its report; {@code port} is the one it bound. */
    private record Next(PerfServer server, ServerReport report, int port) {}

    /** A server for the next client, listening on {@code bind}. */
    private Next listening(InetSocketAddress bind) {
        ServerReport report = new ServerReport(out, config);
        PerfServer s = new PerfServer(bind, config.wire(), config.stack(), report);
        try {
            return new Next(s, report, s.listen());
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Server mode: one client's test, its result lines printed as they come. */
    void server(int port) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port);
        ServerReport reporter = new ServerReport(out, config);
        try (PerfServer server = new PerfServer(bind, config.wire(), config.stack(), reporter)) {
            server.listen();
            PerfReport.waitingForClient(out);
            PerfHello hello = server.accept();
            reporter.start(hello, server);
            server.serve();
            reporter.end();
        }
    }

    /**
     * Client mode: the test against {@code server}; returns its report, ended: the results (printed, and written as
     * JSON) and their JSON.
     */
    PerfReport client(InetSocketAddress server) throws Exception {
        PerfReport report = new PerfReport(out, config).notesTo(notes);
        report.probeMachine();
        try (PerfClient client = new PerfClient(config)) {
            client.connect(server);
            List<String> parameters = client.parameters(server.toString());
            report.header(client.testInfo(), client.addresses(), parameters);
            try (ProgressLine progress = ProgressLine.startIf(config.progress(), config.title())) {
                client.run(report, progress == null ? null : progress::update);
            } finally {
                client.disconnect();
            }
            report.end(parameters);
            return report;
        }
    }

    /** Both ends here: a quiet server on an ephemeral loopback port, the client against it; returns its report. */
    PerfReport loopback() throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (PerfServer server = new PerfServer(bind, config.wire().withoutPcap(), config.stack(),
                (m, cpu) -> { })) {
            int port = server.listen();
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try {
                    server.accept();
                    server.serve();
                } catch (Exception e) {
                    throw new IllegalStateException(Stacks.describe(e), e);
                }
            }, r -> {
                Thread t = new Thread(r, "iwarp-perf-server");
                t.setDaemon(true);
                t.start();
            });
            PerfReport report = client(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            try {
                Stacks.get(served, 30);
            } catch (ExecutionException e) {
                throw new PerfFailure("server: " + Stacks.describe(e.getCause()));
            }
            return report;
        }
    }

    /**
     * The server's report: perftest's header once the client's test is known, then each RESULT the client sends
     * (bandwidth: the client's figures in perftest's line; latency only with {@code --details}).
     */
    private static final class ServerReport implements PerfServer.Reporter {
        private final PrintWriter out;
        private final PerfConfig own;
        private final List<PerfResult> lines = new ArrayList<>();
        private PerfConfig test;
        private PerfReport report;

        ServerReport(PrintWriter out, PerfConfig own) {
            this.out = out;
            this.own = own;
        }

        void start(PerfHello hello, PerfServer server) {
            test = new PerfConfig(hello.verb(), hello.latency(), hello.verify(), hello.compareSwap(),
                    List.of(hello.maxSize()), 0, 0, 0, hello.txDepth(), 0, own.gbits(), null, false, null, false,
                    hello.qps(), false, own.stack(), own.details(), null, own.style());
            var p = server.connection().parameters();
            PerfWelcome w = server.welcome();
            PerftestFormat.TestInfo info = new PerftestFormat.TestInfo(hello.verb(), hello.latency(),
                    hello.compareSwap(), false, hello.qps(), hello.txDepth(), w.receiveCredits(), p.mulpdu(), p.ird(),
                    "IW");
            List<String> addresses = new ArrayList<>();
            for (int qpn : server.queuePairNumbers()) {
                addresses.add(PerftestFormat.address("local", hello.verb(), qpn, p.ird(), w.buffer().stag().value(),
                        w.buffer().taggedOffset()));
            }
            for (int i = 0; i < hello.qps(); i++) {
                addresses.add(PerftestFormat.address("remote", hello.verb(), 0, p.ird(),
                        hello.clientBuffer().stag().value(), hello.clientBuffer().taggedOffset()));
            }
            report = new PerfReport(out, test);
            report.header(info, addresses, List.of(
                    "Stack           : " + Stacks.stackName(server.rnic()),
                    String.format("MPA             : rev %d, CRC %s, markers %s/%s, MULPDU %d", p.mpaRevision(),
                            p.crc() ? "on" : "off", p.txMarkers() ? "on" : "off", p.rxMarkers() ? "on" : "off",
                            p.mulpdu()),
                    "remote address  : " + server.connection().remoteAddress(),
                    "(the client runs the test and measures; the lines above are its results)"));
        }

        @Override
        public void result(ControlMessage m, CpuUse serverCpu) {
            long iterations = m.iterations();
            double seconds = Math.max(1, m.a()) / 1e9;
            double rate = iterations / seconds;
            if (test.latency()) {
                if (own.details()) {
                    out.printf(Locale.ROOT, " (size %d: %d iterations, %.6f Mpps; latency: see the client's report)%n",
                            m.size(), iterations, rate / 1e6);
                }
            } else {
                PerfResult r = new PerfResult(m.size(), iterations, Double.longBitsToDouble(m.b()), rate * m.size(),
                        rate, null, serverCpu == null ? List.of() : List.of(serverCpu), null);
                lines.add(r);
                out.println(PerfReport.format(r, test));
            }
            out.flush();
        }

        /** The table's end, then with --details this server's own CPU time per GB (the client reports it too). */
        void end() {
            report.footer();
            if (own.details()) {
                PerfReport.cpuTable(out, lines);
            }
            out.flush();
        }
    }
}
