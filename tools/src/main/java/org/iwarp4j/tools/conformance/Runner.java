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

/**
 * Runs checks against one peer, each on a fresh connection: connects to it (peer as Responder) or accepts its
 * next connection (peer as Initiator), sets the connection up unless the check does, runs the check under a
 * watchdog, and applies the peer profile. Talks only to the address it was given.
 */
final class Runner implements AutoCloseable {

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
            Result r = new Result(c, profile.apply(runOne(c)));
            results.add(r);
            progress.accept(r);
        }
        return results;
    }

    /** A bound that covers every wait of {@code c} with room to spare; past it the watchdog ends the check. */
    private long budgetMillis(Check c) {
        long base = 4 * options.checkTimeoutMillis() + options.closeWaitMillis() + 2000;
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
        Future<Verdict> f = worker.submit(() -> {
            Wire wire = new Wire(socket);
            wireRef.set(wire);
            Session s = new Session(role, options, wire);
            if (!c.ownStartup()) {
                String failed = s.establish();
                if (failed != null) {
                    return Verdict.fail("an ordinary MPA startup (to set the check up)", failed);
                }
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
            } else {
                closeQuietly(socket);
            }
        }
        Wire w = wireRef.get();
        return v.with(w == null ? List.of() : w.transcript(), (System.nanoTime() - start) / 1_000_000);
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
