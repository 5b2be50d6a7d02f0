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

    /** Where a Reply's ULP private data starts: after the 20-octet frame header and the 4-octet IRD/ORD block. */
    private static final int REPLY_PD = 24;

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static ToolRun client(int port) {
        return ToolRun.run("perf", "write", "127.0.0.1", "-p", Integer.toString(port), "-s", "4096", "-n", "200",
                "-t", "8");
    }

    @Test
    void servesClientAfterClientAndSurvivesABadOne() throws Exception {
        try (BackgroundServer server = BackgroundServer.start("perf", "write", "--persistent", "-p", "0")) {
            int port = server.address(WAIT).getPort();
            ToolRun first = client(port);
            assertThat(first.exit()).as(first.err()).isZero();
            String reason;
            try (RawMpaClient bad = RawMpaClient.connect(new InetSocketAddress("127.0.0.1", port))) {
                byte[] reply = bad.requestAndReadReply(RawMpaClient.mpaRequest(new byte[44]));
                assertThat(reply[16] & 0x20).as("a hello that is no perf client's is rejected (R=1)").isNotZero();
                reason = new String(reply, REPLY_PD, reply.length - REPLY_PD, StandardCharsets.US_ASCII);
            }
            // the first client's run may still be ending on the server: then the next server refuses as busy
            // (not a failure); else it reads the hello and refuses it (a failed client)
            boolean busy = reason.startsWith("busy");
            // the next client's server listens while a test runs: back-to-back clients never find the port closed
            for (int i = 0; i < 3; i++) {
                ToolRun next = client(port);
                assertThat(next.exit()).as(next.err() + server).isZero();
                assertThat(next.out()).contains("RDMA_Write BW Test");
            }
            assertThat(server.stop(WAIT)).isZero();
            assertThat(server.out()).as(reason).contains("perf server: stopped: 4 clients served, " + (busy ? 0 : 1)
                    + " failed");
            if (!busy) {
                assertThat(server.err()).contains("perf server: client failed:");
            }
            assertThat(server.err()).doesNotContain("\tat ");
        }
    }

    @Test
    void persistentIsForTheServerOnly() {
        assertThat(ToolRun.run("perf", "write", "--persistent", "--loopback").exit()).isEqualTo(2);
        assertThat(ToolRun.run("perf", "write", "--persistent", "127.0.0.1").exit()).isEqualTo(2);
    }
}
