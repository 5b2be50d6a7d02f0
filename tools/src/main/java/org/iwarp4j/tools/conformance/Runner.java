package org.iwarp4j.tools.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.iwarp4j.tools.perf.PerftestException;

/**
 * Runs checks against one peer, each on a fresh connection: connects to it (peer as Responder) or accepts its
 * next connection (peer as Initiator), sets the connection up unless the check does, runs the check under a
 * watchdog, and applies the peer profile. Talks only to the address it was given.
 */
final class Runner implements AutoCloseable {

    /**
     * perftest's server serves one client and ends; a loop starts the next. Each check of {@code --app perftest}
     * ends the server's run (its control connection goes with the check), so the next check waits this long for
     * that run to end: it then meets the next server (or is refused until it listens, and tries again) rather than
     * one that is going, which answers nothing or resets.
     */
    static final long PERFTEST_SETTLE_MILLIS = 500;

    /** One check's outcome. */
    record Result(Check check, Verdict verdict) {}

    private final Role role;
    private final InetSocketAddress target;
    private final Options options;
    private final Profile profile;
    private final ServerSocket listener;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "iwarp-conformance-check");
        t.setDaemon(true);
        return t;
    });

    Runner(Role role, InetSocketAddress target, Options options, Profile profile) throws IOException {
        this.role = role;
        this.target = target;
        this.options = options;
        this.profile = profile;
        if (role == Role.INITIATOR) {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(target, 16);
        } else {
            listener = null;
        }
    }

    /** Initiator role: where we listen (the port is known once bound, also for port 0). */
    InetSocketAddress listening() {
        return listener == null ? null : (InetSocketAddress) listener.getLocalSocketAddress();
    }

    List<Result> run(List<Check> checks, Consumer<Result> progress) {
        List<Result> results = new ArrayList<>();
        for (Check c : checks) {
            if (options.app() == App.PERFTEST && role == Role.RESPONDER && !results.isEmpty()) {
                Session.pause(PERFTEST_SETTLE_MILLIS);
            }
            Result r = new Result(c, profile.apply(runOne(c)));
            results.add(r);
            progress.accept(r);
        }
        return results;
    }

    /** A bound that covers every wait of {@code c} with room to spare; past it the watchdog ends the check. */
    private long budgetMillis(Check c) {
        // perftest's exchange: a second connect and its startup, about ten messages each bounded by the timeout
        long base = (perftestExchange(c) ? 8 : 4) * options.checkTimeoutMillis() + options.closeWaitMillis() + 2000;
        return c.caution() != null && c.caution().contains("timeout") ? base + options.startupTimeoutMillis() : base;
    }

    private Verdict runOne(Check c) {
        long start = System.nanoTime();
        Socket socket;
        try {
            socket = open();
        } catch (IOException e) {
            return Verdict.fail("a connection to the peer", (role == Role.RESPONDER ? "cannot connect to " + target
                    : "the peer did not connect to " + listening() + " within " + options.checkTimeoutMillis() + " ms")
                    + ": " + e.getMessage());
        }
        AtomicReference<Wire> wireRef = new AtomicReference<>();
        AtomicReference<Wire> controlRef = new AtomicReference<>();
        boolean perftest = perftestExchange(c);
        Future<Verdict> f = worker.submit(() -> {
            Wire first = new Wire(socket);
            Session s;
            if (perftest) {
                controlRef.set(first);
                Setup setup = perftestSetup(first, wireRef);
                if (setup.verdict() != null) {
                    return setup.verdict();
                }
                s = setup.session();
            } else {
                wireRef.set(first);
                s = new Session(role, options, first);
                if (!c.ownStartup()) {
                    String failed = s.establish();
                    if (failed != null) {
                        return Verdict.fail("an ordinary MPA startup (to set the check up)", failed);
                    }
                }
            }
            if (!c.ownStartup()) {
                String missing = s.prepare(c.needs());
                if (missing != null) {
                    return Verdict.skip(missing);
                }
            }
            return c.body().run(s);
        });
        Verdict v;
        try {
            v = f.get(budgetMillis(c), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            v = Verdict.fail("the check to end within " + budgetMillis(c) + " ms", "it did not: the peer kept it "
                    + "waiting (the tool's watchdog closed the connection)");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            v = Verdict.fail("the check to run", (cause instanceof IOException ? "I/O error: " : "error: ")
                    + cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            v = Verdict.skip("interrupted");
        } finally {
            Wire w = wireRef.get();
            if (w != null) {
                w.close();
            }
            Wire control = controlRef.get();
            if (control != null) {
                control.close();
            }
            closeQuietly(socket);
        }
        // the check's own connection; when it was never made, perftest's control connection (why it was not)
        Wire w = wireRef.get() != null ? wireRef.get() : controlRef.get();
        return v.with(w == null ? List.of() : w.transcript(), (System.nanoTime() - start) / 1_000_000);
    }

    /** {@code --app perftest}: a check that needs the server's buffers runs on a test connection of its own. */
    private boolean perftestExchange(Check c) {
        return options.app() == App.PERFTEST && role == Role.RESPONDER && !c.ownStartup() && !c.needs().isEmpty();
    }

    /** A check's session, or why there is none (a failed startup, a perftest exchange that broke: skipped). */
    private record Setup(Session session, Verdict verdict) {}

    /**
     * perftest's sequence up to the server's buffer: the control connection on {@code control} (its own startup,
     * IRD = ORD = 0 as perftest's), the messages before the test connection, the test connection (the check's,
     * into {@code wireRef}; perftest's server listens for it only after the first handshake, so the connect is
     * retried), and the messages after it.
     */
    private Setup perftestSetup(Wire control, AtomicReference<Wire> wireRef) throws IOException {
        Session cs = new Session(role, options.withIrdOrd(0), control);
        String failed = cs.establish();
        if (failed != null) {
            return new Setup(null, Verdict.fail("an ordinary MPA startup of perftest's control connection (to set "
                    + "the check up)", failed));
        }
        PerftestExchange x = new PerftestExchange(new PerftestExchange.WireChannel(cs), options.perftest(),
                options.perftestSize());
        try {
            x.beforeTestConnection();
        } catch (IOException | PerftestException e) {
            return new Setup(null, Verdict.skip("perftest's control exchange before the test connection failed: "
                    + e.getMessage()));
        }
        Socket test;
        try {
            test = open();
        } catch (IOException e) {
            return new Setup(null, Verdict.fail("perftest's test connection", "cannot connect to " + target
                    + " after the control exchange: " + e.getMessage()));
        }
        Wire wire = new Wire(test);
        wireRef.set(wire);
        Session s = new Session(role, options, wire);
        failed = s.establish();
        if (failed != null) {
            return new Setup(null, Verdict.fail("an ordinary MPA startup of perftest's test connection (to set the "
                    + "check up)", failed));
        }
        try {
            x.afterTestConnection(Math.max(0, s.ourIrd()));
        } catch (IOException | PerftestException e) {
            return new Setup(null, Verdict.skip("perftest's control exchange after the test connection failed: "
                    + e.getMessage()));
        }
        s.perftest = x;
        return new Setup(s, null);
    }

    private Socket open() throws IOException {
        if (role == Role.RESPONDER) {
            // A peer that serves one connection and is restarted in a loop (rdma_server) refuses for a moment:
            // retry until the check's timeout.
            long deadline = Session.deadline(options.checkTimeoutMillis());
            while (true) {
                Socket s = new Socket();
                try {
                    s.connect(target, (int) options.checkTimeoutMillis());
                    return s;
                } catch (ConnectException e) {
                    closeQuietly(s);
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    Session.pause(100);
                } catch (IOException e) {
                    closeQuietly(s);
                    throw e;
                }
            }
        }
        listener.setSoTimeout((int) Math.max(options.checkTimeoutMillis(), options.startupTimeoutMillis()));
        try {
            return listener.accept();
        } catch (SocketTimeoutException e) {
            throw new IOException("timed out", e);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        if (listener != null) {
            try {
                listener.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
