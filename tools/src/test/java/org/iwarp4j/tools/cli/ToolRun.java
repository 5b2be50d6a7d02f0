package org.iwarp4j.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.iwarp4j.tools.IwarpCommand;
import org.iwarp4j.tools.report.TinyJson;
import picocli.CommandLine;

/**
 * One run of {@code iwarp ...} in this JVM through {@link IwarpCommand#commandLine()}, output captured; and
 * the plumbing the two-sided tool tests share (free ports, a server run in the background, explain on a capture).
 */
public record ToolRun(int exit, String out, String err) {

    public static ToolRun run(String... args) {
        CommandLine cl = IwarpCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new ToolRun(exit, out.toString(), err.toString());
    }

    /** Runs {@code iwarp ARGS}, which must end in a usage error (exit status 2); returns its standard error. */
    public static String usageError(String... args) {
        ToolRun r = run(args);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        return r.err();
    }

    /** Runs a server command in the background; its result once it ends. */
    public static CompletableFuture<ToolRun> background(String... args) {
        CompletableFuture<ToolRun> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(run(args));
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "iwarp-" + args[0]);
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** A TCP port that was free a moment ago on loopback. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until something listens on loopback {@code port} (a bare TCP connection that sends nothing: it never
     * becomes an MPA connection request) or {@code server} ended.
     */
    public static void awaitListening(int port, CompletableFuture<ToolRun> server) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline && !server.isDone()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException e) {
                Thread.sleep(20);
            }
        }
        if (server.isDone()) {
            throw new AssertionError("the server ended before listening: " + server.join());
        }
        throw new AssertionError("nothing listens on port " + port);
    }

    /** {@code iwarp explain --pcap FILE --json} of a capture: its entries. */
    public static List<Map<String, Object>> explain(Path pcap) {
        ToolRun r = run("explain", "--pcap", pcap.toString(), "--json");
        if (r.exit() != 0) {
            throw new AssertionError("explain found errors in " + pcap + ":\n" + r);
        }
        return TinyJson.parseArrayOfObjects(r.out());
    }

    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
