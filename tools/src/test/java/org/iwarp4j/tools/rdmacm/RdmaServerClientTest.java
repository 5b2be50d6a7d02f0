package org.iwarp4j.tools.rdmacm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code iwarp rdma-client} against {@code iwarp rdma-server} (docs/protocol/siw-interop.md §I). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaServerClientTest {

    @TempDir
    Path dir;

    @Test
    void clientAndServerEndWithZero() throws Exception {
        int port = ToolRun.freePort();
        Path pcap = dir.resolve("client.pcap");
        CompletableFuture<ToolRun> server = ToolRun.background("rdma-server", "-p", Integer.toString(port));
        ToolRun.awaitListening(port, server);
        ToolRun client = ToolRun.run("rdma-client", "-s", "127.0.0.1", "-p", Integer.toString(port), "--pcap",
                pcap.toString());
        ToolRun s = server.get(30, TimeUnit.SECONDS);
        assertThat(client.exit()).as(client.toString()).isZero();
        assertThat(client.out()).isEqualTo("rdma_client: start\nrdma_client: end 0\n");
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.out()).isEqualTo("rdma_server: start\nrdma_server: end 0\n");

        // On the wire: MPA rev 2 with IRD = ORD = 128 (librdmacm's device maximum on siw), one 16-octet Send each way.
        List<Map<String, Object>> e = ToolRun.explain(pcap);
        assertThat(e.get(0)).containsEntry("type", "mpa-request").containsEntry("rev", 2L).containsEntry("ird", 128L)
                .containsEntry("ord", 128L).containsEntry("pdLength", 4L);
        assertThat(e.get(1)).containsEntry("type", "mpa-reply").containsEntry("ird", 128L).containsEntry("ord", 128L);
        assertThat(e.subList(2, e.size())).extracting(x -> x.get("direction") + " " + x.get("ulpduLength"))
                .containsExactly("I2R 34", "R2I 34");
    }

    @Test
    void noServerEndsWithMinusOne() {
        ToolRun client = ToolRun.run("rdma-client", "-p", Integer.toString(ToolRun.freePort()));
        assertThat(client.exit()).isEqualTo(1);
        assertThat(client.out()).isEqualTo("rdma_client: start\nrdma_client: end -1\n");
        assertThat(client.err()).contains("UNREACHABLE");
    }

    @Test
    void usageErrors() {
        assertThat(ToolRun.run("rdma-client", "-p", "x").exit()).isEqualTo(2);
        assertThat(ToolRun.run("rdma-server", "-p", "70000").exit()).isEqualTo(2);
        assertThat(ToolRun.run("rdma-client", "-s", "no.such.host.invalid").exit()).isEqualTo(2);
        ToolRun help = ToolRun.run("rdma-server", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("-p=PORT", "default 7471", "--pcap=FILE");
    }
}
