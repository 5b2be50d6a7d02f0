package org.iwarp4j.tools.perf.conn;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An {@link Acceptor} in a second JVM, so that the connecting JVM holds only its own ends of many connections
 * (each end a file descriptor: 10,000 connections with both ends in one JVM need 20,000). The parent starts
 * {@code java [its heap options] -cp <its class path> org.iwarp4j.tools.IwarpCommand perf idle --control ...} and
 * speaks a line protocol with it: the child prints {@code LISTENING host:port ...}; {@code BASELINE} and
 * {@code REPORT} make it take a {@link MemorySnapshot} after a full GC and answer with it; the end of its standard
 * input (the parent closed it, or died) makes it close everything and exit.
 */
final class AcceptorControl implements AutoCloseable {

    private final Process process;
    private final BufferedReader fromChild;
    private final PrintWriter toChild;
    private final List<InetSocketAddress> addresses = new ArrayList<>();

    private AcceptorControl(Process process) {
        this.process = process;
        this.fromChild = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.toChild = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
    }

    /** Starts the child with {@code serverArguments} and waits until it listens. */
    static AcceptorControl start(List<String> serverArguments) throws IOException, Initiator.ConnectFailure {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(heapOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.iwarp4j.tools.IwarpCommand",
                "perf", "idle", "--control", "-p", "0"));
        command.addAll(serverArguments);
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        AcceptorControl c = new AcceptorControl(pb.start());
        try {
            String line = c.fromChild.readLine();
            if (line == null || !line.startsWith("LISTENING ")) {
                throw new Initiator.ConnectFailure("the accepting process did not start: " + (line == null
                        ? "it ended" : line) + " (exit " + c.exitValueOrNothing() + ")");
            }
            for (String a : line.substring("LISTENING ".length()).trim().split(" ")) {
                int colon = a.lastIndexOf(':');
                c.addresses.add(new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
            }
        } catch (IOException | Initiator.ConnectFailure | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * The options of this JVM that size its heap or choose its collector ({@code -Xmx}, {@code -Xms}, {@code -Xss},
     * {@code -XX:+UseSerialGC}, {@code -XX:MaxHeapFreeRatio=}, ...): the child gets them too, so that both ends are
     * measured under the same memory settings. Recording, agent and debugging options stay here.
     */
    static List<String> heapOptions(List<String> jvmArguments) {
        List<String> out = new ArrayList<>();
        for (String a : jvmArguments) {
            if (a.startsWith("-Xmx") || a.startsWith("-Xms") || a.startsWith("-Xss") || a.startsWith("-XX:+Use")
                    || a.startsWith("-XX:-Use") || a.startsWith("-XX:MaxHeapFreeRatio=")
                    || a.startsWith("-XX:MinHeapFreeRatio=") || a.startsWith("-XX:MaxRAMPercentage=")
                    || a.startsWith("-XX:InitialRAMPercentage=") || a.startsWith("-XX:G1")) {
                out.add(a);
            }
        }
        return out;
    }

    private String exitValueOrNothing() {
        try {
            process.waitFor(5, TimeUnit.SECONDS);
            return process.isAlive() ? "none yet" : Integer.toString(process.exitValue());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    List<InetSocketAddress> addresses() {
        return List.copyOf(addresses);
    }

    long pid() {
        return process.pid();
    }

    /** The child's memory (after a full GC there) and the connections it holds open. */
    record Report(MemorySnapshot memory, long open) {}

    /** Asks for the child's snapshot ({@code BASELINE} or {@code REPORT}). */
    Report ask(String command) throws IOException {
        toChild.println(command);
        String line = fromChild.readLine();
        if (line == null || !line.startsWith(command + " ")) {
            throw new IOException("the accepting process answered " + command + " with " + line);
        }
        String[] f = line.substring(command.length() + 1).trim().split(" ");
        long[] v = new long[f.length];
        for (int i = 0; i < f.length; i++) {
            v[i] = Long.parseLong(f[i]);
        }
        return new Report(new MemorySnapshot(v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], (int) v[9]), v[0]);
    }

    /** The child's side: answers the commands until its standard input ends; returns the exit status. */
    static int serve(Acceptor acceptor, List<InetSocketAddress> listening) throws IOException {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        StringBuilder sb = new StringBuilder("LISTENING");
        for (InetSocketAddress a : listening) {
            sb.append(' ').append(a.getAddress().getHostAddress()).append(':').append(a.getPort());
        }
        out.println(sb);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String command = line.trim();
            if (command.equals("BASELINE") || command.equals("REPORT")) {
                MemorySnapshot m = MemorySnapshot.take(true);
                out.println(command + " " + acceptor.open() + " " + m.heapUsed() + " " + m.heapCommitted() + " "
                        + m.rss() + " " + m.nettyDirect() + " " + m.nettyHeap() + " " + m.nettyCounted() + " "
                        + m.jdkDirect() + " " + m.fds() + " " + m.threads());
            } else if (!command.isEmpty()) {
                out.println("UNKNOWN " + command);
            }
        }
        return 0;
    }

    /** Closes the child's standard input (it exits) and waits for it; kills it if it does not end. */
    @Override
    public void close() {
        toChild.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
