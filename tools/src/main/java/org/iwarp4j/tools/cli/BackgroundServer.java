package org.iwarp4j.tools.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.IwarpCommand;

/**
 * A persistent server tool ({@code rping -s -P}, {@code rdma-server --persistent}) run in this JVM on a thread of
 * its own, for tests and harnesses: start it on port 0, learn the port it bound from its {@code listening on} line,
 * connect as often as needed, stop it as SIGTERM would.
 *
 * <pre>{@code
 * try (BackgroundServer s = BackgroundServer.start("rping", "-s", "-P", "-a", "127.0.0.1", "-p", "0")) {
 *     InetSocketAddress server = s.address(Duration.ofSeconds(20));
 *     ... // one connection per check
 *     int exit = s.stop(Duration.ofSeconds(30)); // 0; s.out(), s.err(): what it printed
 * }
 * }</pre>
 */
public final class BackgroundServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CompletableFuture<InetSocketAddress> address = new CompletableFuture<>();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final Thread thread;

    private BackgroundServer(String... args) {
        PrintWriter o = new PrintWriter(new Watching(out), true);
        PrintWriter e = new PrintWriter(err, true);
        thread = new Thread(() -> {
            try {
                exit.complete(IwarpCommand.commandLine().setOut(o).setErr(e).execute(args));
            } catch (Throwable t) {
                exit.completeExceptionally(t);
            } finally {
                address.completeExceptionally(new IllegalStateException("the server ended without listening:\n"
                        + this));
            }
        }, "iwarp-" + args[0] + "-server");
        thread.setDaemon(true);
    }

    /** Runs {@code iwarp ARGS} (a persistent server's command line) on a new thread. */
    public static BackgroundServer start(String... args) {
        BackgroundServer s = new BackgroundServer(args);
        s.thread.start();
        return s;
    }

    /** The address from the server's {@code listening on ADDR:PORT} line, once it printed it. */
    public InetSocketAddress address(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return address.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("no 'listening on' line within " + timeout + ":\n" + this);
        }
    }

    /** Whether the server has ended (it should not, until stopped). */
    public boolean isDone() {
        return exit.isDone();
    }

    /** Stops the server as SIGTERM would (an interrupt of its thread); its exit status. */
    public int stop(Duration timeout) throws InterruptedException, TimeoutException {
        thread.interrupt();
        try {
            return exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the server failed", e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("the server did not stop within " + timeout + ":\n" + this);
        }
    }

    /** What it printed on stdout so far. */
    public String out() {
        synchronized (out) {
            return out.toString();
        }
    }

    /** What it printed on stderr so far. */
    public String err() {
        synchronized (err) {
            return err.toString();
        }
    }

    /** Stops it if it still runs. */
    @Override
    public void close() throws InterruptedException, TimeoutException {
        if (!exit.isDone()) {
            stop(Duration.ofSeconds(30));
        }
    }

    @Override
    public String toString() {
        return "--- stdout\n" + out() + "--- stderr\n" + err();
    }

    /** stdout as written, watched for the first {@code listening on} line. */
    private final class Watching extends Writer {
        private final StringWriter target;
        private int scanned;

        Watching(StringWriter target) {
            this.target = target;
        }

        @Override
        public void write(char[] cbuf, int off, int len) {
            synchronized (target) {
                target.write(cbuf, off, len);
                if (address.isDone()) {
                    return;
                }
                StringBuffer all = target.getBuffer();
                int newline;
                while ((newline = all.indexOf("\n", scanned)) >= 0) {
                    Matcher m = LISTENING.matcher(all.substring(scanned, newline));
                    scanned = newline + 1;
                    if (m.find()) {
                        try {
                            address.complete(new InetSocketAddress(InetAddress.getByName(m.group(1)),
                                    Integer.parseInt(m.group(2))));
                        } catch (UnknownHostException e) {
                            address.completeExceptionally(e);
                        }
                        return;
                    }
                }
            }
        }

        @Override
        public void flush() {
            // a StringWriter
        }

        @Override
        public void close() {
            // a StringWriter
        }
    }
}
