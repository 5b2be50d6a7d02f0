package org.iwarp4j.tools.rdmacm;

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

/** {@code iwarp rdma-server --persistent} against {@code iwarp rdma-client}, good and hostile. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RdmaServerPersistentTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String ENDED = "] ended: received 16 octets, sent 16$";

    private static BackgroundServer persistent(String... extra) {
        List<String> args = new ArrayList<>(List.of("rdma-server", "--persistent", "-a", "127.0.0.1", "-p", "0"));
        args.addAll(List.of(extra));
        return BackgroundServer.start(args.toArray(String[]::new));
    }

    private static ToolRun client(int port) {
        return ToolRun.run("rdma-client", "-s", "127.0.0.1", "-p", Integer.toString(port));
    }

    @Test
    void servesClientsOneAfterAnotherAndSideBySide() throws Exception {
        try (BackgroundServer server = persistent()) {
            int port = server.address(WAIT).getPort();
            for (int i = 0; i < 3; i++) {
                ToolRun c = client(port);
                assertThat(c.out()).as(c.toString()).isEqualTo("rdma_client: start\nrdma_client: end 0\n");
            }
            awaitLines(server, ENDED, 3);
            try (RawMpaClient silent = RawMpaClient.connect(server.address(WAIT))) {
                silent.requestAndReadReply(); // in progress while the next three come and go
                List<CompletableFuture<ToolRun>> three = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    three.add(ToolRun.background("rdma-client", "-s", "127.0.0.1", "-p", Integer.toString(port)));
                }
                for (CompletableFuture<ToolRun> f : three) {
                    ToolRun c = f.get(60, TimeUnit.SECONDS);
                    assertThat(c.exit()).as(c + "\n" + server).isZero();
                }
                awaitLines(server, ENDED, 6);
                assertThat(clientLines(server, silent.localPort())).as("still connected").isEmpty();
                assertThat(server.stop(WAIT)).as(server.toString()).isZero();
                assertThat(clientLines(server, silent.localPort())).contains("] ended: the server is stopping\n");
            }
            assertThat(server.out()).startsWith("rdma_server: start\nrdma_server: listening on 127.0.0.1:" + port)
                    .endsWith("rdma_server: stopped: 7 clients, 7 ended, 0 failed, 0 refused\nrdma_server: end 0\n");
        }
    }

    @Test
    void survivesHostileClientsAndRefusesBeyondMaxClients() throws Exception {
        try (BackgroundServer server = persistent("--max-clients", "1")) {
            int port = server.address(WAIT).getPort();
            try (RawMpaClient garbage = RawMpaClient.connect(server.address(WAIT))) {
                garbage.send(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
                assertThat(garbage.closedByServer()).isTrue();
            }
            RawMpaClient reset = RawMpaClient.connect(server.address(WAIT));
            reset.requestAndReadReply();
            int resetPort = reset.localPort();
            // the one place is taken: the next client is refused with the reason as private data
            ToolRun refused = client(port);
            assertThat(refused.out()).as(refused.toString()).endsWith("rdma_client: end -1\n");
            assertThat(refused.err()).contains("REJECTED").contains(HexFormat.of().formatHex(
                    "busy: 1 clients connected (--max-clients 1)".getBytes(StandardCharsets.US_ASCII)));
            awaitLines(server, "refused: 1 clients connected \\(--max-clients 1\\)$", 1);
            reset.reset(); // RST while the server waits for the client's Send
            awaitLines(server, "127\\.0\\.0\\.1:" + resetPort + "\\] failed: rdma_get_recv_comp: ", 1);

            ToolRun good = client(port);
            assertThat(good.exit()).as(good + "\n" + server).isZero();
            awaitLines(server, ENDED, 1);
            assertThat(server.stop(WAIT)).isZero();
            assertThat(server.err()).doesNotContain("Exception", "\tat ");
            assertThat(server.out()).endsWith("stopped: 3 clients, 1 ended, 1 failed, 1 refused\nrdma_server: end 0\n");
        }
    }

    @Test
    void withoutPersistentTheServerEndsAfterOneClient() throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("rdma-server", "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        assertThat(client(port).exit()).isZero();
        ToolRun s = server.get(30, TimeUnit.SECONDS);
        assertThat(s.out()).isEqualTo("rdma_server: start\nrdma_server: end 0\n");
    }

    @Test
    void usage() {
        ToolRun noPersistent = ToolRun.run("rdma-server", "--max-clients", "2");
        assertThat(noPersistent.exit()).isEqualTo(2);
        assertThat(noPersistent.err()).contains("--max-clients needs --persistent");
        assertThat(ToolRun.run("rdma-server", "--persistent", "--max-clients", "0").exit()).isEqualTo(2);
        assertThat(ToolRun.run("rdma-server", "--help").out()).contains("--persistent", "--max-clients=N",
                "rdma-server --persistent -a 127.0.0.1 -p 0");
    }
}
