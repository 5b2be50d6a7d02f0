package org.iwarp4j.verbs;

import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.TcpKeepalive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Opt-in TCP liveness ({@link TcpKeepalive}): a peer whose packets stop arriving is noticed by keepalive on an idle
 * connection, and by {@code TCP_USER_TIMEOUT} on one with octets unacknowledged; the connection then ends with
 * {@code DisconnectReason.TCP_TIMEOUT}, while a connection without keepalive stays up.
 *
 * <p>The peer's silence is real: a {@link Probe} JVM runs both sides on the loopback of a network namespace of its
 * own ({@code ip netns exec}), and iptables there drops every packet to the server's port once the three
 * connections are up. Needs root and iproute2 + iptables (as CI has); elsewhere the test is skipped saying why.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KeepaliveTest {

    private static final String NS = "iwka-" + ProcessHandle.current().pid() % 100_000;

    @Test
    void settingsAreCheckedWhenBuilt() {
        TcpKeepalive k = TcpKeepalive.of(Duration.ofSeconds(5), Duration.ofSeconds(2), 4);
        assertThat(k.userTimeout()).isEqualTo(Duration.ZERO);
        assertThat(k.withUserTimeout(Duration.ofMillis(2500)).userTimeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(ConnectOptions.defaults().keepalive()).isEmpty();
        assertThat(ListenOptions.defaults().keepalive()).isEmpty();
        assertThat(ConnectOptions.builder().keepalive(k).build().toBuilder().build().keepalive()).contains(k);
        assertThatThrownBy(() -> TcpKeepalive.of(Duration.ofMillis(1500), Duration.ofSeconds(1), 3))
                .hasMessageContaining("idle must be whole seconds");
        assertThatThrownBy(() -> TcpKeepalive.of(Duration.ofSeconds(1), Duration.ZERO, 3))
                .hasMessageContaining("interval");
        assertThatThrownBy(() -> TcpKeepalive.of(Duration.ofSeconds(1), Duration.ofSeconds(1), 0))
                .hasMessageContaining("probes must be 1..127");
        assertThatThrownBy(() -> k.withUserTimeout(Duration.ofMillis(-1))).hasMessageContaining("userTimeout");
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"EPOLL", "NIO"})
    void aPeerGoneSilentIsNoticedByKeepaliveAndTheUserTimeout(Transport transport) throws Exception {
        assumeTrue(uid() == 0, "SKIPPED LOUDLY: not root, cannot create a network namespace (ip netns add); "
                + "the keepalive expiry test runs on CI as root");
        assumeTrue(run("ip", "-V").exit == 0, "SKIPPED LOUDLY: iproute2 (ip) is not installed");
        assumeTrue(run("iptables", "--version").exit == 0, "SKIPPED LOUDLY: iptables is not installed");
        run("ip", "netns", "del", NS);
        Result made = run("ip", "netns", "add", NS);
        assumeTrue(made.exit == 0, "SKIPPED LOUDLY: cannot create a network namespace here: " + made.out);
        Process probe = null;
        try {
            must("ip", "-n", NS, "link", "set", "lo", "up");
            String java = ProcessHandle.current().info().command().orElse("java");
            probe = new ProcessBuilder("ip", "netns", "exec", NS, java, "-Xmx256m",
                    "-Dio.netty.leakDetection.level=PARANOID", "-cp", System.getProperty("java.class.path"),
                    Probe.class.getName(), transport.name()).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream(),
                    StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            String port = null;
            for (String line; (line = out.readLine()) != null; ) {
                lines.add(line);
                if (line.startsWith("READY ")) {
                    port = line.substring(6);
                    break;
                }
            }
            assertThat(port).as("the probe's output: %s", lines).isNotNull();
            must("ip", "netns", "exec", NS, "iptables", "-A", "INPUT", "-p", "tcp", "--dport", port, "-j", "DROP");
            OutputStream in = probe.getOutputStream();
            in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            for (String line; (line = out.readLine()) != null; ) {
                lines.add(line);
            }
            assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String all = String.join("\n", lines);
            System.out.println("KeepaliveTest probe (" + transport + "):\n" + all);
            assertThat(probe.exitValue()).as(all).isZero();
            // Keepalive, 1 s idle + 3 probes 1 s apart: the idle connection fails with ETIMEDOUT.
            assertThat(all).containsPattern("(?m)^keepalive TCP_TIMEOUT after \\d+ ms: TCP gave up on the peer");
            if (transport == Transport.EPOLL) {
                // TCP_USER_TIMEOUT 2 s: the Read Request stays unacknowledged; the Read fails, the connection ends.
                assertThat(all).containsPattern("(?m)^userTimeout TCP_TIMEOUT after \\d+ ms: TCP gave up")
                        .containsPattern("(?m)^userTimeout read TRANSPORT_ERROR$");
            }
            // Without keepalive the idle connection noticed nothing in the same time.
            assertThat(all).contains("none still RTS");
            assertThat(all).doesNotContain("LEAK:");
        } finally {
            if (probe != null) {
                probe.destroyForcibly();
            }
            run("ip", "netns", "del", NS);
        }
    }

    /**
     * Both sides in this JVM: three connections to one listener (keepalive only, keepalive with a user timeout
     * and a Read in flight, none), {@code READY port}, then after {@code GO} on stdin (the packets to the port are
     * dropped from then on) what each noticed within 12 s.
     */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            Transport transport = Transport.valueOf(args[0]);
            RnicConfig config = RnicConfig.builder().transport(transport).eventLoopThreads(1).build();
            try (Rnic server = Rnic.open(config); Rnic client = Rnic.open(config)) {
                ProtectionDomain spd = server.allocateProtectionDomain();
                CompletionQueue scq = server.createCompletionQueue(64);
                MemoryRegion shared = spd.allocateRegion(4096, Access.LOCAL_WRITE, Access.REMOTE_READ);
                Listener listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        ListenOptions.defaults(), request -> request.accept(spd.createQueuePair(
                                QueuePairConfig.builder(scq, scq).build()), AcceptOptions
                                .withPrivateData(shared.remoteBuffer().encode())));
                ProtectionDomain pd = client.allocateProtectionDomain();
                CompletionQueue cq = client.createCompletionQueue(64);
                MemoryRegion sink = pd.allocateRegion(4096, Access.LOCAL_WRITE);
                TcpKeepalive keepalive = TcpKeepalive.of(Duration.ofSeconds(1), Duration.ofSeconds(1), 3);
                String[] names = {"keepalive", "userTimeout", "none"};
                TcpKeepalive[] settings = {keepalive, keepalive.withUserTimeout(Duration.ofSeconds(2)), null};
                List<Connection> connections = new ArrayList<>();
                List<CompletableFuture<CmEvent.Disconnected>> ends = new ArrayList<>();
                for (int i = 0; i < names.length; i++) {
                    if (transport == Transport.NIO && i == 1) {
                        connections.add(null); // JDK 17's NIO has no TCP_USER_TIMEOUT
                        ends.add(new CompletableFuture<>());
                        continue;
                    }
                    QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq)
                            .responseTimeout(Duration.ZERO).build());
                    Connection c = client.connect(listener.localAddress(), qp,
                            ConnectOptions.builder().keepalive(settings[i]).build()).get(10, TimeUnit.SECONDS);
                    connections.add(c);
                    ends.add(c.closeFuture());
                }
                System.out.println("READY " + listener.localAddress().getPort());
                if (!"GO".equals(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))
                        .readLine())) {
                    throw new IllegalStateException("no GO");
                }
                long go = System.nanoTime();
                var ended = new AtomicLongArray(names.length);
                for (int i = 0; i < names.length; i++) {
                    int n = i;
                    ends.get(i).thenRun(() -> ended.set(n, System.nanoTime()));
                }
                CompletableFuture<WorkCompletion> read = null;
                if (connections.get(1) != null) {
                    RemoteBuffer remote = RemoteBuffer.decode(connections.get(1).parameters().peerPrivateData());
                    read = connections.get(1).queuePair().postSendAsync(RdmaRead.of(1, sink.sge(0, 64),
                            remote.slice(0, 64)));
                }
                for (int i = 0; i < 2; i++) {
                    if (connections.get(i) == null) {
                        continue;
                    }
                    CmEvent.Disconnected d = ends.get(i).get(30, TimeUnit.SECONDS);
                    Thread.sleep(10); // the time-taking callback runs after the future's own
                    System.out.println(names[i] + " " + d.reason() + " after "
                            + TimeUnit.NANOSECONDS.toMillis(ended.get(i) - go) + " ms: "
                            + d.cause().map(Throwable::getMessage).orElse("(no cause)"));
                }
                if (read != null) {
                    WorkCompletion wc = read.handle((w, e) -> w != null ? w : ((WorkCompletionException)
                            (e instanceof CompletionException ? e.getCause() : e)).completion())
                            .get(10, TimeUnit.SECONDS);
                    System.out.println("userTimeout read " + wc.status());
                }
                long left = TimeUnit.SECONDS.toNanos(12) - (System.nanoTime() - go);
                if (left > 0) {
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(left));
                }
                System.out.println("none " + (ends.get(2).isDone() ? "ended: " + ends.get(2).join().reason()
                        : "still " + connections.get(2).queuePair().state()));
                System.out.flush();
                // The peer cannot hear a graceful end: close abortively.
                for (Connection c : connections) {
                    if (c != null) {
                        c.close();
                    }
                }
                listener.close();
            }
        }
    }

    private record Result(int exit, String out) {}

    private static Result run(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1, out);
        } catch (IOException e) {
            return new Result(127, e.getMessage());
        }
    }

    private static void must(String... cmd) throws Exception {
        Result r = run(cmd);
        assertThat(r.exit).as(String.join(" ", cmd) + ": " + r.out).isZero();
    }

    private static long uid() throws Exception {
        Result r = run("id", "-u");
        return r.exit == 0 ? Long.parseLong(r.out.strip()) : -1;
    }
}
