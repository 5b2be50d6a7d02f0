package org.iwarp4j.tools.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.Listener;

/**
 * A server tool that serves client after client until stopped (rdma-core's {@code rping -P}): every connection
 * request runs on its own thread with its own queue pair and buffers ({@link Session}), at most {@code maxClients}
 * at once; one beyond is refused with an MPA Reply with R=1 and a short reason as private data (RFC 5044 §7.1.2
 * rule 2). Whatever a client does, it ends in one line of its own and the server carries on.
 *
 * <p>Output, for people and for harnesses: {@code PROGRAM: listening on ADDR:PORT (...)} once bound; every line
 * of client {@code n} prefixed {@code [client n ADDR:PORT] }, ending with exactly one of {@code ended: ...}
 * (stdout), {@code failed: ...} or {@code refused: ...} (stderr); {@code PROGRAM: stopped: ...} at the end.
 * SIGINT, SIGTERM, {@link #stop()} or an interrupt of the thread in {@link #serve} stop it cleanly: no new
 * clients, the connected ones disconnected, their threads awaited.
 */
public final class PersistentServer {

    /** {@code --max-clients}' default. */
    public static final int DEFAULT_MAX_CLIENTS = 64;
    /** How long a stop waits for the clients' threads to release their connections. */
    private static final long STOP_WAIT_SECONDS = 15;

    /** One client's whole life, on its own thread: accept (or reject) the request, serve, release what it used. */
    @FunctionalInterface
    public interface Session {
        /**
         * Answers {@code request}; a failure is thrown and reported as {@code failed: } and its message.
         *
         * @return how it ended, for the client's {@code ended: } line, e.g. {@code disconnected after 3 pings}
         * @throws InterruptedException when the server stops (the thread is interrupted)
         */
        String serve(ConnectionRequest request, Client client) throws Exception;
    }

    /** A client being served: its number, its address, its own output, and where its CM events go. */
    public static final class Client {
        private final long number;
        private final InetSocketAddress remoteAddress;
        private final PrintWriter out;
        private final PrintWriter err;
        private volatile CmEventListener events = e -> {};
        /** Set with the client's last line: events after it are not this client's any more. Guarded by this. */
        private boolean finished;
        private Thread thread;

        Client(long number, InetSocketAddress remoteAddress, PrintWriter out, PrintWriter err) {
            this.number = number;
            this.remoteAddress = remoteAddress;
            String prefix = "[client " + number + " " + hostPort(remoteAddress) + "] ";
            this.out = new PrintWriter(new PrefixedLines(out, prefix));
            this.err = new PrintWriter(new PrefixedLines(err, prefix));
        }

        public long number() {
            return number;
        }

        public InetSocketAddress remoteAddress() {
            return remoteAddress;
        }

        /** This client's stdout: whole lines, prefixed. */
        public PrintWriter out() {
            return out;
        }

        /** This client's stderr: whole lines, prefixed. */
        public PrintWriter err() {
            return err;
        }

        /** Where the listener's CM events of this client's connection go (on its event loop: must not block). */
        public void onEvent(CmEventListener listener) {
            events = listener;
        }

        private synchronized void deliver(CmEvent event) {
            if (!finished) {
                events.onEvent(event);
            }
        }

        /** The client's last line. */
        private synchronized void finish(PrintWriter w, String line) {
            finished = true;
            w.println(line);
            w.flush();
        }
    }

    private final String program;
    private final int maxClients;
    private final PrintWriter out;
    private final PrintWriter err;
    /** The clients being served, by address: CM events find their client here. Guarded by itself. */
    private final Map<InetSocketAddress, Client> clients = new LinkedHashMap<>();
    private final AtomicLong numbers = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final CountDownLatch stop = new CountDownLatch(1);
    private boolean stopping;

    /**
     * @param program    the prefix of the server's own lines, e.g. {@code rping server}
     * @param maxClients how many clients at once; later ones are refused
     */
    public PersistentServer(String program, int maxClients, PrintWriter out, PrintWriter err) {
        this.program = program;
        this.maxClients = maxClients;
        this.out = out;
        this.err = err;
    }

    /**
     * The listener's CM events: those of a client's connection go to its {@link Client#onEvent} listener; a
     * Request the listener itself rejected (RFC 6581 §9.1, {@code --required-ord}) is reported as refused.
     */
    public CmEventListener events() {
        return event -> {
            if (event instanceof CmEvent.Rejected r) {
                refused.incrementAndGet();
                line(err, "[" + hostPort(r.remoteAddress()) + "] refused: " + Stacks.describeInsufficientIrd(r));
                return;
            }
            InetSocketAddress remote = remoteAddress(event);
            Client c;
            synchronized (clients) {
                c = remote == null ? null : clients.get(remote);
            }
            if (c != null) {
                c.deliver(event);
            }
        };
    }

    /** The client's address of {@code event}, or {@code null} when it names none. */
    private static InetSocketAddress remoteAddress(CmEvent event) {
        if (event instanceof CmEvent.ConnectRequest e) {
            return e.request().remoteAddress();
        } else if (event instanceof CmEvent.Established e) {
            return e.connection().remoteAddress();
        } else if (event instanceof CmEvent.Disconnected e) {
            return e.connection().remoteAddress();
        }
        return null;
    }

    /** The listener's request handler: each request gets a thread running {@code session}, or is refused. */
    public ConnectionRequestHandler requests(Session session) {
        return request -> {
            Client c;
            String refusal = null;
            synchronized (clients) {
                c = new Client(numbers.incrementAndGet(), request.remoteAddress(), out, err);
                if (stopping) {
                    refusal = "the server is stopping";
                } else if (clients.size() >= maxClients) {
                    refusal = clients.size() + " clients connected (--max-clients " + maxClients + ")";
                } else {
                    clients.put(request.remoteAddress(), c);
                    c.thread = new Thread(() -> run(c, request, session), program.replace(' ', '-') + "-client-"
                            + c.number);
                    c.thread.setDaemon(true);
                    c.thread.start();
                }
            }
            if (refusal != null) {
                refused.incrementAndGet();
                request.reject(("busy: " + refusal).getBytes(StandardCharsets.US_ASCII));
                c.err.println("refused: " + refusal);
                c.err.flush();
            }
        };
    }

    private void run(Client c, ConnectionRequest request, Session session) {
        PrintWriter w = c.out;
        String last;
        try {
            last = "ended: " + session.serve(request, c);
            ended.incrementAndGet();
        } catch (InterruptedException e) {
            last = "ended: the server is stopping";
            ended.incrementAndGet();
        } catch (Exception | Error e) { // an Error too: it ends this client, never the server
            w = c.err;
            last = "failed: " + Stacks.describe(e);
            failed.incrementAndGet();
        }
        synchronized (clients) {
            clients.remove(c.remoteAddress, c);
        }
        c.finish(w, last);
    }

    /** Stops {@link #serve} as SIGINT or SIGTERM would (from any thread). */
    public void stop() {
        stop.countDown();
    }

    /**
     * Announces {@code listener}'s address, serves until SIGINT, SIGTERM, {@link #stop()} or an interrupt of this
     * thread, then stops: closes the listener, disconnects the clients, waits for their threads.
     */
    public void serve(Listener listener) {
        InetSocketAddress bound = listener.localAddress();
        line(out, program + ": listening on " + hostPort(bound) + " (persistent: at most " + maxClients
                + " clients at once; SIGINT or SIGTERM to stop)");
        try (Termination signals = Termination.onSignal(this::stop)) {
            stop.await();
        } catch (InterruptedException e) {
            // a stop request like the others (BackgroundServer's), consumed here: the stop must run to its end
        }
        List<Client> left;
        synchronized (clients) {
            stopping = true;
            left = new ArrayList<>(clients.values());
        }
        listener.close();
        for (Client c : left) {
            c.thread.interrupt(); // its session disconnects and releases its queue pair
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
        boolean interrupted = false;
        for (Client c : left) {
            try {
                c.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true; // a second stop request: stop waiting
                break;
            }
        }
        line(out, program + ": stopped: " + numbers.get() + " clients, " + ended.get() + " ended, " + failed.get()
                + " failed, " + refused.get() + " refused");
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void line(PrintWriter w, String line) {
        synchronized (w) {
            w.println(line);
            w.flush();
        }
    }

    /** {@code 127.0.0.1:7174}: the form a harness parses (the port after the last colon). */
    public static String hostPort(InetSocketAddress a) {
        return (a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress()) + ":" + a.getPort();
    }

    /**
     * Whole lines, each with a prefix, onto a shared writer: concurrent clients' lines never mix within a line. A
     * line is written when its newline arrives.
     */
    private static final class PrefixedLines extends Writer {
        private final PrintWriter target;
        private final String prefix;
        private final StringBuilder line = new StringBuilder();

        PrefixedLines(PrintWriter target, String prefix) {
            this.target = target;
            this.prefix = prefix;
        }

        @Override
        public synchronized void write(char[] cbuf, int off, int len) {
            for (int i = off; i < off + len; i++) {
                char ch = cbuf[i];
                if (ch == '\n') {
                    int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1
                            : line.length();
                    PersistentServer.line(target, prefix + line.substring(0, end));
                    line.setLength(0);
                } else {
                    line.append(ch);
                }
            }
        }

        @Override
        public void flush() {
            // lines go out whole, when their newline arrives
        }

        @Override
        public void close() {
            // the target belongs to the command
        }
    }
}
