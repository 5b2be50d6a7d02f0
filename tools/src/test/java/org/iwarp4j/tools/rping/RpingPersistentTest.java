package org.iwarp4j.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.tools.cli.RawMpaClient.awaitLines;
import static org.iwarp4j.tools.cli.RawMpaClient.clientLines;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.BackgroundServer;
import org.iwarp4j.tools.cli.RawMpaClient;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code iwarp rping -s -P}: client after client, concurrently, whatever each client does. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpingPersistentTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static BackgroundServer persistent(String... extra) {
        List<String> args = new ArrayList<>(List.of("rping", "-s", "-P", "-a", "127.0.0.1", "-p", "0"));
        args.addAll(List.of(extra));
        return BackgroundServer.start(args.toArray(String[]::new));
    }

    private static ToolRun client(int port, String... extra) {
        List<String> args = new ArrayList<>(List.of("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(port)));
        args.addAll(List.of(extra));
        return ToolRun.run(args.toArray(String[]::new));
    }

    @Test
    void servesClientAfterClientThenStopsWithZero() throws Exception {
        try (BackgroundServer server = persistent()) {
            int port = server.address(WAIT).getPort();
            assertThat(port).isPositive();
            for (int i = 0; i < 3; i++) {
                ToolRun c = client(port, "-C", "10", "-V");
                assertThat(c.exit()).as(c.toString()).isZero();
            }
            awaitLines(server, "^\\[client \\d+ 127\\.0\\.0\\.1:\\d+\\] ended: disconnected after 10 pings$", 3);
            assertThat(server.isDone()).as("still serving").isFalse();
            assertThat(server.stop(WAIT)).as(server.toString()).isZero();
            assertThat(server.out()).startsWith("rping server: listening on 127.0.0.1:" + port + " (persistent")
                    .contains("[client 1 ", "[client 2 ", "[client 3 ")
                    .endsWith("rping server: stopped: 3 clients, 3 ended, 0 failed, 0 refused\n");
            assertThat(server.err()).doesNotContain("failed", "Exception");
        }
    }

    /**
     * While one client is connected and silent, three more ping side by side to the end: a client in progress
     * never holds the others up. The stop then disconnects the silent one, which the server reports as stopped.
     */
    @Test
    void servesClientsConcurrently() throws Exception {
        try (BackgroundServer server = persistent()) {
            int port = server.address(WAIT).getPort();
            try (RawMpaClient silent = RawMpaClient.connect(server.address(WAIT))) {
                silent.requestAndReadReply();
                List<CompletableFuture<ToolRun>> three = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    three.add(ToolRun.background("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(port), "-C",
                            "500", "-V"));
                }
                for (CompletableFuture<ToolRun> f : three) {
                    ToolRun c = f.get(60, TimeUnit.SECONDS);
                    assertThat(c.exit()).as(c + "\n" + server).isZero();
                }
                awaitLines(server, "ended: disconnected after 500 pings$", 3);
                assertThat(clientLines(server, silent.localPort())).as("still connected").isEmpty();
                assertThat(server.stop(WAIT)).as(server.toString()).isZero();
                assertThat(silent.closedByServer()).isTrue();
                assertThat(clientLines(server, silent.localPort())).contains("] ended: the server is stopping\n");
                assertThat(server.out()).endsWith("rping server: stopped: 4 clients, 4 ended, 0 failed, 0 refused\n");
            }
        }
    }

    @Test
    void survivesHostileClientsThenServesAGoodOne() throws Exception {
        try (BackgroundServer server = persistent()) {
            int port = server.address(WAIT).getPort();
            try (RawMpaClient garbage = RawMpaClient.connect(server.address(WAIT))) {
                garbage.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nnot an MPA Request at all".getBytes(
                        StandardCharsets.US_ASCII));
                assertThat(garbage.closedByServer()).as("garbage instead of a Request: closed").isTrue();
            }
            try (RawMpaClient badKey = RawMpaClient.connect(server.address(WAIT))) {
                byte[] request = RawMpaClient.mpaRequest();
                request[15] = 'X'; // "MPA ID Req FramX": RFC 5044 §7.1.2, not an MPA Request
                badKey.send(request);
                assertThat(badKey.closedByServer()).as("a bad key: closed").isTrue();
            }
            RawMpaClient reset = RawMpaClient.connect(server.address(WAIT));
            byte[] reply = reset.requestAndReadReply();
            assertThat(new String(reply, 0, 16, StandardCharsets.US_ASCII)).isEqualTo("MPA ID Rep Frame");
            assertThat(reply[16] & 0x20).as("R=0: accepted").isZero();
            int resetPort = reset.localPort();
            reset.reset(); // RST in full operation, before the first advert
            awaitLines(server, "127\\.0\\.0\\.1:" + resetPort + "\\] (ended|failed): ", 1);

            // A Terminate: the client advertises an STag the server's RDMA Write cannot use (RFC 5040 §7.1).
            ToolRun terminated = client(port, "-C", "1", "--inject", "peer-bad-stag");
            assertThat(terminated.exit()).as(terminated.toString()).isEqualTo(1);
            awaitLines(server, "\\] failed: cq completion failed status TERMINATE_RECEIVED", 1);

            // A client the server cannot serve: a larger -S than the server's.
            ToolRun tooLarge = client(port, "-C", "1", "-S", "1000");
            assertThat(tooLarge.exit()).as(tooLarge.toString()).isEqualTo(1);
            awaitLines(server, "\\] failed: the client advertises 1000 octets, more than this server's -S 64", 1);

            ToolRun good = client(port, "-C", "5", "-V");
            assertThat(good.exit()).as(good.toString()).isZero();
            awaitLines(server, "ended: disconnected after 5 pings$", 1);
            assertThat(server.isDone()).isFalse();
            assertThat(server.stop(WAIT)).as(server.toString()).isZero();
            assertThat(server.err()).doesNotContain("Exception", "\tat ");
            // one line that ends each client, whatever it did
            assertThat(clientLines(server, resetPort).lines()
                    .filter(l -> l.matches(".*\\] (ended|failed|refused): .*"))).hasSize(1);
        }
    }

    /**
     * A harness's hundred checks, one connection each: every one is accepted and ends in its line, which says its
     * queue pair, regions, queue and protection domain were released (the domain refuses to close otherwise).
     */
    @Test
    void aHundredConnectionsOneAfterAnother() throws Exception {
        try (BackgroundServer server = persistent()) {
            for (int i = 1; i <= 100; i++) {
                try (RawMpaClient c = RawMpaClient.connect(server.address(WAIT))) {
                    assertThat(c.requestAndReadReply()[16] & 0x20).as("R=0: accepted").isZero();
                }
                awaitLines(server, "\\] ended: disconnected after 0 pings$", i);
            }
            assertThat(server.stop(WAIT)).isZero();
            assertThat(server.out()).endsWith("stopped: 100 clients, 100 ended, 0 failed, 0 refused\n");
        }
    }

    @Test
    void refusesAClientBeyondMaxClientsWithAReason() throws Exception {
        try (BackgroundServer server = persistent("--max-clients", "1")) {
            int port = server.address(WAIT).getPort();
            try (RawMpaClient holder = RawMpaClient.connect(server.address(WAIT))) {
                holder.requestAndReadReply(); // accepted: the one client allowed, silent
                ToolRun refused = client(port, "-C", "1");
                assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
                String reason = "busy: 1 clients connected (--max-clients 1)";
                assertThat(refused.err()).contains("REJECTED")
                        .contains(HexFormat.of().formatHex(reason.getBytes(StandardCharsets.US_ASCII)));
                awaitLines(server, "^\\[client 2 127\\.0\\.0\\.1:\\d+\\] refused: 1 clients connected "
                        + "\\(--max-clients 1\\)$", 1);
            }
            // the holder's FIN ends it and frees its place
            awaitLines(server, "^\\[client 1 .*\\] ended: disconnected after 0 pings$", 1);
            ToolRun next = client(port, "-C", "3", "-V");
            assertThat(next.exit()).as(next.toString()).isZero();
            awaitLines(server, "^\\[client 3 .*\\] ended: disconnected after 3 pings$", 1);
            assertThat(server.stop(WAIT)).isZero();
            assertThat(server.out()).endsWith("stopped: 3 clients, 2 ended, 0 failed, 1 refused\n");
        }
    }

    /** Without -P the server is rping's: one client, then it ends by itself. */
    @Test
    void withoutPersistentTheServerEndsAfterOneClient() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("rping", "-s", "-a", "127.0.0.1", "-p",
                Integer.toString(port));
        ToolRun.awaitListening(port, server);
        ToolRun c = client(port, "-C", "2", "-V");
        assertThat(c.exit()).as(c.toString()).isZero();
        ToolRun s = server.get(30, TimeUnit.SECONDS);
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).doesNotContain("listening on");
        assertThat(s.err()).doesNotContain("[client ");
    }

    @Test
    void usage() {
        ToolRun clientP = ToolRun.run("rping", "-c", "-P", "-a", "127.0.0.1");
        assertThat(clientP.exit()).isEqualTo(2);
        assertThat(clientP.err()).contains("-P is a server option");
        ToolRun noP = ToolRun.run("rping", "-s", "--max-clients", "3");
        assertThat(noP.exit()).isEqualTo(2);
        assertThat(noP.err()).contains("--max-clients needs -P");
        assertThat(ToolRun.run("rping", "-s", "-P", "--max-clients", "0").exit()).isEqualTo(2);
        ToolRun help = ToolRun.run("rping", "--help");
        assertThat(help.out()).contains("-P ", "--max-clients=N", "rping -s -P -a 127.0.0.1 -p 0");
    }
}
