package org.iwarp4j.tools.rdmacm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MPA options of {@code iwarp rdma-server}/{@code rdma-client} the siw matrix drives: private data both
 * ways (Request and accepting Reply), a reject with private data, MPA revision 1, and {@code -d}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaCmOptionsTest {

    private record Pair(ToolRun server, ToolRun client) {}

    private static Pair pair(List<String> serverArgs, List<String> clientArgs) throws Exception {
        int port = ToolRun.freePort();
        List<String> s = new ArrayList<>(List.of("rdma-server", "-a", "127.0.0.1", "-p", Integer.toString(port)));
        s.addAll(serverArgs);
        CompletableFuture<ToolRun> server = ToolRun.background(s.toArray(String[]::new));
        ToolRun.awaitListening(port, server);
        List<String> c = new ArrayList<>(List.of("rdma-client", "-s", "127.0.0.1", "-p", Integer.toString(port)));
        c.addAll(clientArgs);
        ToolRun client = ToolRun.run(c.toArray(String[]::new));
        return new Pair(server.get(30, TimeUnit.SECONDS), client);
    }

    @Test
    void privateDataBothWays() throws Exception {
        Pair p = pair(List.of("-d", "--private-data", "5eed0002"), List.of("-d", "--private-data", "01020304"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        assertThat(p.server().out()).contains("private data 01020304").contains("rdma_server: end 0");
        assertThat(p.client().out()).contains("peer private data 5eed0002").contains("rdma_client: end 0");
    }

    @Test
    void rejectWithPrivateData() throws Exception {
        Pair p = pair(List.of("--reject-data", "0a0b0c0d0e"), List.of());
        assertThat(p.server().out()).contains("rejected the connection request (--reject), private data 0a0b0c0d0e")
                .contains("rdma_server: end 0");
        assertThat(p.client().exit()).isEqualTo(1);
        assertThat(p.client().out()).contains("rdma_client: end -1");
        assertThat(p.client().err()).contains("REJECTED").contains("private data 5 octets 0a0b0c0d0e");
    }

    @Test
    void revisionOne() throws Exception {
        Pair p = pair(List.of("-d"), List.of("-d", "--mpa-rev", "1"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.client().out()).contains("MPA rev 1");
        assertThat(p.server().out()).contains("MPA revision 1, IRD -1, ORD -1");
    }
}
