package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.BackgroundServer;
import org.iwarp4j.tools.cli.RawMpaClient;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code iwarp perf VERB --persistent}: client after client, surviving a bad one, stopped cleanly (issue 12). */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PerfPersistentTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int BAD_IN_A_ROW = 4;

    private static ToolRun client(int port) {
        return ToolRun.run("perf", "write", "127.0.0.1", "--protocol", "iwarp4j",
                "-p", Integer.toString(port), "-s", "4096", "-n", "200",
                "-t", "8");
    }

    @Test
    void servesClientAfterClientAndSurvivesABadOne() throws Exception {
        try (BackgroundServer server = BackgroundServer.start("perf", "write", "--protocol", "iwarp4j",
                "--persistent", "-p", "0")) {
            int port = server.address(WAIT).getPort();
            ToolRun first = client(port);
            assertThat(first.exit()).as(first.err()).isZero();
            // Until the server has taken up the next client it answers "busy" (R=1 too): ask again, as a client would.
            for (int attempt = 0; ; attempt++) {
                byte[] reply;
                try (RawMpaClient bad = RawMpaClient.connect(new InetSocketAddress("127.0.0.1", port))) {
                    reply = bad.requestAndReadReply(RawMpaClient.mpaRequest(new byte[44]));
                }
                assertThat(reply[16] & 0x20).as("a hello that is no perf client's is rejected (R=1)").isNotZero();
                if (!new String(reply, StandardCharsets.US_ASCII).contains("busy: ")) {
                    break;
                }
                assertThat(attempt).as("the server stays busy").isLessThan(200);
                Thread.sleep(50);
            }
            // a rejected hello leaves the listener up: bad clients back to back each find the port open and get an
            // answer that is not "busy" (the server that rejected them is still the one waiting for a client)
            for (int i = 0; i < BAD_IN_A_ROW; i++) {
                try (RawMpaClient bad = RawMpaClient.connect(new InetSocketAddress("127.0.0.1", port))) {
                    String reply = new String(bad.requestAndReadReply(RawMpaClient.mpaRequest(new byte[44])),
                            StandardCharsets.US_ASCII);
                    assertThat(reply).contains("iwarp perf: ").doesNotContain("busy: ");
                }
            }
            // the next client's server listens while a test runs: back-to-back clients never find the port closed
            for (int i = 0; i < 3; i++) {
                ToolRun next = client(port);
                assertThat(next.exit()).as(next.err() + server).isZero();
                assertThat(next.out()).contains("RDMA_Write BW Test");
            }
            // A client exits once its run is over, the server counts it once it has seen the close and printed the
            // report's footer: four reports of four rules each, before it is stopped.
            RawMpaClient.awaitLines(server, "^-{20,}$", 16);
            assertThat(server.stop(WAIT)).isZero();
            assertThat(server.out()).contains("perf server: stopped: 4 clients served, " + (1 + BAD_IN_A_ROW)
                    + " failed");
            assertThat(server.err()).contains("perf server: client failed:").doesNotContain("\tat ");
        }
    }

    @Test
    void persistentIsForTheServerOnly() {
        assertThat(ToolRun.run("perf", "write", "--persistent", "--loopback").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "write", "--persistent", "127.0.0.1").exit()).isEqualTo(2);
    }
}
