package org.iwarp4j.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The options the siw interop matrix drives (interop/cells.table), iwarp against iwarp in this JVM: MPA
 * revision, peer-to-peer RTRs, IRD/ORD, private data, rejects, and {@code --inject}, whose Terminates both
 * sides must name with the right Layer/EType/Code (docs/protocol/errors.md §5) and exit status.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpingInteropOptionsTest {

    private record Pair(ToolRun server, ToolRun client) {}

    private static Pair pair(List<String> serverArgs, List<String> clientArgs) throws Exception {
        int port = ToolRun.freePort();
        List<String> s = new ArrayList<>(List.of("rping", "-s", "-a", "127.0.0.1", "-p", Integer.toString(port)));
        s.addAll(serverArgs);
        CompletableFuture<ToolRun> server = ToolRun.background(s.toArray(String[]::new));
        ToolRun.awaitListening(port, server);
        List<String> c = new ArrayList<>(List.of("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(port),
                "-C", "3", "-V"));
        c.addAll(clientArgs);
        ToolRun client = ToolRun.run(c.toArray(String[]::new));
        return new Pair(server.get(60, TimeUnit.SECONDS), client);
    }

    /**
     * Each fault: which side runs {@code --inject}, the Terminate, and which side sends it. The other side
     * reports it as received; both fail (exit 1) and neither hangs.
     */
    @ParameterizedTest(name = "{0} on the {1}")
    @CsvSource({
            "bad-stag,         server, 0x1/0x1/0x00, client",
            "read-beyond,      server, 0x0/0x1/0x01, client",
            "no-recv,          server, 0x1/0x2/0x02, client",
            "no-recv,          client, 0x1/0x2/0x02, server",
            "peer-bad-stag,    client, 0x1/0x1/0x00, client",
            "peer-read-beyond, client, 0x0/0x1/0x01, client",
            "peer-no-recv,     server, 0x1/0x2/0x02, server",
            "peer-no-recv,     client, 0x1/0x2/0x02, client"})
    void injectedFaultsEndInTheRightTerminateOnBothSides(String fault, String where, String lec, String sender)
            throws Exception {
        List<String> inject = List.of("--inject", fault);
        Pair p = where.equals("server") ? pair(inject, List.of()) : pair(List.of(), inject);
        ToolRun injecting = where.equals("server") ? p.server() : p.client();
        ToolRun sending = sender.equals("server") ? p.server() : p.client();
        ToolRun receiving = sender.equals("server") ? p.client() : p.server();
        assertThat(injecting.err()).contains("rping: --inject " + fault + ":");
        assertThat(sending.exit()).as(sending.toString()).isEqualTo(1);
        assertThat(receiving.exit()).as(receiving.toString()).isEqualTo(1);
        assertThat(sending.err()).as(sending.toString()).contains("sent " + lec);
        assertThat(receiving.err()).as(receiving.toString()).contains("received " + lec);
    }

    @Test
    void rejectWithPrivateDataReachesTheClient() throws Exception {
        Pair p = pair(List.of("--reject-data", "c0ffee"), List.of());
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        assertThat(p.server().err()).contains("rejected the connection request").contains("private data c0ffee");
        assertThat(p.client().exit()).isEqualTo(1);
        assertThat(p.client().err()).contains("connect error: REJECTED").contains("private data 3 octets c0ffee")
                .doesNotContain("Insufficient IRD");
    }

    @Test
    void requiredOrdRejectsAnInitiatorWithTooSmallAnIrd() throws Exception {
        Pair p = pair(List.of("--required-ord", "4"), List.of());
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        assertThat(p.server().err()).contains("its IRD 1 is below the required ORD 4 (RFC 6581 §9.1)");
        assertThat(p.client().exit()).isEqualTo(1);
        assertThat(p.client().err()).contains("REJECTED").contains("Insufficient IRD").contains("ORD 4,");
        // an Initiator with IRD 4 is accepted
        Pair ok = pair(List.of("--required-ord", "4"), List.of("--ird", "4"));
        assertThat(ok.client().exit()).as(ok.client().toString()).isZero();
        assertThat(ok.server().exit()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"write, WRITE", "read, READ"})
    void peerToPeerWithEachRtr(String rtr, String named) throws Exception {
        Pair p = pair(List.of("--p2p", rtr), List.of("--p2p", rtr, "-d"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        assertThat(p.client().out()).contains("peer-to-peer, RTR " + named);
    }

    @Test
    void noMatchingRtrIsTerminate0x07FromTheInitiator() throws Exception {
        Pair p = pair(List.of("--p2p", "write,read"), List.of("--p2p", "send"));
        assertThat(p.client().exit()).isEqualTo(1);
        assertThat(p.client().err()).contains("0x2/0x0/0x07");
        assertThat(p.server().exit()).isEqualTo(1);
        assertThat(p.server().err()).contains("received 0x2/0x0/0x07");
    }

    /** {@code --peer rfc}: no Linux siw accommodation (and no first-FPDU nudge) is needed between two iwarp4j. */
    @Test
    void strictPeersInteroperate() throws Exception {
        Pair p = pair(List.of("--peer", "rfc"), List.of("--peer", "rfc"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
    }

    @Test
    void revisionOneAndPrivateDataBothWays() throws Exception {
        Pair p = pair(List.of("--mpa-rev", "1", "-d", "--private-data", "5eed"),
                List.of("--mpa-rev", "1", "-d", "--private-data", "0a:0b"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().exit()).as(p.server().toString()).isZero();
        assertThat(p.client().out()).contains("MPA rev 1").contains("peer private data 5eed");
        assertThat(p.server().out()).contains("MPA revision 1").contains("private data 0a0b");
    }

    @Test
    void irdAndOrdAreOfferedAndAdopted() throws Exception {
        Pair p = pair(List.of("-d"), List.of("--ird", "5", "--ord", "3", "-d"));
        assertThat(p.client().exit()).as(p.client().toString()).isZero();
        assertThat(p.server().out()).contains("IRD 5, ORD 3, peer-to-peer false");
        // the server answers IRD >= the client's ORD and ORD <= the client's IRD (RFC 6581 §9.1)
        assertThat(p.client().out()).contains("IRD 5, ORD 3,");
    }

    @ParameterizedTest
    @CsvSource({
            "-c, --inject bad-stag",
            "-c, --inject read-beyond",
            "-s, --inject peer-bad-stag",
            "-s, --inject peer-read-beyond",
            "-c, --reject",
            "-c, --required-ord 2",
            "-c, --p2p send --mpa-rev 1",
            "-c, --p2p write --p2p write",
            "-c, --private-data 0g",
            "-c, --mpa-rev 3",
            "-c, --ird 16384",
            "-c, --inject sideways",
            "-c, --peer chelsio",
            "-c, --nudge -1"})
    void impossibleCombinationsAreUsageErrors(String role, String options) {
        List<String> args = new ArrayList<>(List.of("rping", role, "-a", "127.0.0.1", "-p", "1"));
        args.addAll(List.of(options.split(" ")));
        ToolRun r = ToolRun.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    }
}
