package org.iwarp4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Two hosts for real: two network namespaces joined by a veth pair (10.213.7.1/30 and .2/30, MTU 1500, no GSO), a
 * server JVM in one ({@code ip netns exec}) and a client JVM in the other, both running {@code iwarp}
 * ({@link IwarpCommand}) from this build's class path. First rping with 1,000 validated pings, then with 1 % of
 * the packets dropped in each direction ({@code iptables -m statistic}, netem not being available) 256 MiB of
 * RDMA Writes and 256 MiB of RDMA Reads whose every octet is checked ({@code perf --verify}).
 *
 * <p>Needs root (as CI is) and iproute2 + iptables; elsewhere it is skipped saying why. The namespaces have
 * names unique to this run and are deleted afterwards, also on failure (never the interop lab's {@code siwlab}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class TwoHostsTest {

    private static final String SERVER_IP = "10.213.7.1";
    private static final String CLIENT_IP = "10.213.7.2";
    private static final long SUFFIX = ProcessHandle.current().pid() % 100_000;
    private static final String NS_SERVER = "iwcli-srv-" + SUFFIX;
    private static final String NS_CLIENT = "iwcli-cli-" + SUFFIX;
    private static final String VETH_SERVER = "iwsv" + SUFFIX;
    private static final String VETH_CLIENT = "iwcl" + SUFFIX;
    private static final Pattern BW_LINE =
            Pattern.compile("^ (\\d+) +(\\d+) +(\\d+\\.\\d{2}) +(\\d+\\.\\d{2})", Pattern.MULTILINE);
    private static final List<Process> PROCESSES = Collections.synchronizedList(new ArrayList<>());
    private static boolean created;

    @BeforeAll
    static void createTheTwoHosts() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) || uid() == 0,
                "not root: cannot create network namespaces (ip netns add); the two-host test runs on CI as root");
        assumeTrue(run(10, "ip", "-V").exit() == 0, "iproute2 (ip) is not installed: apt-get install -y iproute2");
        assumeTrue(run(10, "iptables", "--version").exit() == 0,
                "iptables is not installed: apt-get install -y iptables");
        deleteNamespaces(); // leftovers of a killed run with the same pid
        Result probe = run(10, "ip", "netns", "add", NS_SERVER);
        assumeTrue(probe.exit() == 0, "cannot create a network namespace here: " + probe.err().strip());
        created = true;
        must("ip", "netns", "add", NS_CLIENT);
        must("ip", "link", "add", VETH_SERVER, "type", "veth", "peer", "name", VETH_CLIENT);
        must("ip", "link", "set", VETH_SERVER, "netns", NS_SERVER);
        must("ip", "link", "set", VETH_CLIENT, "netns", NS_CLIENT);
        must("ip", "-n", NS_SERVER, "addr", "add", SERVER_IP + "/30", "dev", VETH_SERVER);
        must("ip", "-n", NS_CLIENT, "addr", "add", CLIENT_IP + "/30", "dev", VETH_CLIENT);
        for (String[] nsDev : new String[][] {{NS_SERVER, VETH_SERVER}, {NS_CLIENT, VETH_CLIENT}}) {
            must("ip", "-n", nsDev[0], "link", "set", "lo", "up");
            // No GSO: TCP leaves in MTU-sized packets, so "1 % of packets" means 1 % of 1500-octet packets.
            must("ip", "-n", nsDev[0], "link", "set", nsDev[1], "mtu", "1500", "gso_max_segs", "1", "gso_max_size",
                    "1500", "up");
        }
    }

    @AfterAll
    static void deleteTheTwoHosts() throws Exception {
        synchronized (PROCESSES) {
            for (Process p : PROCESSES) {
                p.destroyForcibly();
            }
        }
        if (created) {
            deleteNamespaces();
        }
    }

    private static void deleteNamespaces() throws Exception {
        run(10, "ip", "netns", "del", NS_SERVER);
        run(10, "ip", "netns", "del", NS_CLIENT); // the veth pair goes with its namespaces
    }

    @Test
    @Order(1)
    void rpingAcrossTheVethPair() throws Exception {
        Iwarp server = Iwarp.start(NS_SERVER, "rdma_listen", "rping", "-s", "-a", SERVER_IP, "-S", "4096", "-d");
        Result client = Iwarp.run(NS_CLIENT, "rping", "-c", "-a", SERVER_IP, "-C", "1000", "-S", "4096", "-V");
        Result s = server.await();
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).contains("child cma from /" + CLIENT_IP);
        assertThat(s.err()).contains("server DISCONNECT EVENT...");
    }

    @Test
    @Order(2)
    void writesAndReadsArriveIntactWithOnePercentLoss() throws Exception {
        for (String ns : List.of(NS_SERVER, NS_CLIENT)) {
            must("ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-m", "statistic", "--mode", "random",
                    "--probability", "0.01", "-j", "DROP");
        }
        try {
            for (String verb : List.of("write", "read")) {
                // 4096 x 64 KiB = 256 MiB, every octet checked (Write: by the server per 16 MiB round; Read: by the
                // client).
                Iwarp server = Iwarp.start(NS_SERVER, "Waiting for client", "perf", verb, "--protocol", "iwarp4j");
                Result client = Iwarp.run(NS_CLIENT, "perf", verb, SERVER_IP, "--protocol", "iwarp4j", "-s", "65536",
                        "-n", "4096", "--verify");
                Result s = server.await();
                assertThat(client.exit()).as(client.toString()).isZero();
                assertThat(s.exit()).as(s.toString()).isZero();
                Matcher m = BW_LINE.matcher(client.out());
                assertThat(m.find()).as(client.out()).isTrue();
                assertThat(m.group(1)).isEqualTo("65536");
                assertThat(Long.parseLong(m.group(2)) * 65536).isEqualTo(256L << 20);
            }
            // The loss was real: the DROP rules matched packets in both directions.
            for (String ns : List.of(NS_SERVER, NS_CLIENT)) {
                Result rules = must("ip", "netns", "exec", ns, "iptables", "-L", "INPUT", "-v", "-n", "-x");
                Matcher drop = Pattern.compile("^\\s*(\\d+)\\s+\\d+\\s+DROP", Pattern.MULTILINE).matcher(rules.out());
                assertThat(drop.find()).as(rules.out()).isTrue();
                // 256 MiB each way are about 190,000 segments of 1448 octets: about 1,900 drops per direction.
                assertThat(Long.parseLong(drop.group(1))).as("packets dropped in " + ns).isGreaterThan(500);
            }
        } finally {
            for (String ns : List.of(NS_SERVER, NS_CLIENT)) {
                run(10, "ip", "netns", "exec", ns, "iptables", "-F", "INPUT");
            }
        }
    }

    // ------------------------------------------------------------------ processes

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** An {@code iwarp} JVM in a namespace: {@code ip netns exec NS java -cp <this build> IwarpCommand ...}. */
    static final class Iwarp {
        private final Process process;
        private final CompletableFuture<String> out;
        private final CompletableFuture<String> err;

        private Iwarp(Process process, String readyLine, CountDownLatch ready) {
            this.process = process;
            this.out = collect(process.getInputStream(), readyLine, ready);
            this.err = collect(process.getErrorStream(), null, null);
        }

        static List<String> command(String ns, String... args) {
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, java, "-Xmx512m",
                    "-XX:MaxDirectMemorySize=1g", "-cp", System.getProperty("java.class.path"),
                    IwarpCommand.class.getName()));
            cmd.addAll(List.of(args));
            return cmd;
        }

        /** Starts a server and returns once it printed {@code readyLine} (it listens then). */
        static Iwarp start(String ns, String readyLine, String... args) throws Exception {
            CountDownLatch ready = new CountDownLatch(1);
            Process p = new ProcessBuilder(command(ns, args)).start();
            PROCESSES.add(p);
            Iwarp i = new Iwarp(p, readyLine, ready);
            if (!ready.await(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the server did not start: " + i.await());
            }
            return i;
        }

        static Result run(String ns, String... args) throws Exception {
            Process p = new ProcessBuilder(command(ns, args)).start();
            PROCESSES.add(p);
            return new Iwarp(p, null, null).await();
        }

        Result await() throws Exception {
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return new Result(process.waitFor(), out.get(30, TimeUnit.SECONDS), err.get(30, TimeUnit.SECONDS));
        }

        private static CompletableFuture<String> collect(InputStream in, String readyLine, CountDownLatch ready) {
            CompletableFuture<String> f = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                StringBuilder b = new StringBuilder();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        b.append(line).append('\n');
                        if (ready != null && line.contains(readyLine)) {
                            ready.countDown();
                        }
                    }
                } catch (IOException e) {
                    b.append("[read failed: ").append(e).append("]\n");
                }
                f.complete(b.toString());
            }, "two-hosts-output");
            t.setDaemon(true);
            t.start();
            return f;
        }
    }

    private static Result must(String... cmd) throws Exception {
        Result r = run(30, cmd);
        assertThat(r.exit()).as(String.join(" ", cmd) + "\n" + r).isZero();
        return r;
    }

    private static Result run(long seconds, String... cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            return new Result(127, "", e.getMessage());
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new Result(p.waitFor(), out.get(), err.get());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static long uid() {
        try {
            Result r = run(10, "id", "-u");
            return Long.parseLong(r.out().strip());
        } catch (Exception e) {
            return -1;
        }
    }
}
