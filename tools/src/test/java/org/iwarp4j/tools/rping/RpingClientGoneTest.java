package org.iwarp4j.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.RawMpaClient;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that leaves right after its MPA Request, before the server decided (issue 13): the server says the
 * client went away, not that the request "was already accepted or rejected", and prints no exception.
 */
class RpingClientGoneTest {

    @ParameterizedTest
    @ValueSource(strings = {"FIN", "RST"})
    void aClientThatLeavesAfterItsRequestIsReportedAsGone(String how) throws Exception {
        int port = ToolRun.freePort();
        CompletableFuture<ToolRun> server = ToolRun.background("rping", "-s", "-a", "127.0.0.1", "-p",
                Integer.toString(port));
        ToolRun.awaitListening(port, server);
        RawMpaClient c = RawMpaClient.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        c.send(RawMpaClient.mpaRequest());
        if (how.equals("RST")) {
            c.reset();
        } else {
            c.close();
        }
        ToolRun r = server.get(30, TimeUnit.SECONDS);
        String all = r.out() + r.err();
        assertThat(all).doesNotContain("already accepted or rejected").doesNotContain("IllegalStateException")
                .doesNotContain("\tat ");
        // Which of three true reports comes depends on when the close is seen: before the server's decision
        // (the MPA startup failed: the connection closed while the Request awaited a decision), during it (the
        // client closed the connection before the request was decided), or after the Reply (a disconnect).
        assertThat(all).containsAnyOf("the client closed the connection (FIN or RST) before this request was "
                + "accepted or rejected", "the connection closed during MPA startup (AWAITING_DECISION)",
                "DISCONNECT");
    }
}
