package org.iwarp4j.tools.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.Test;

/** The tool against peers that break the rules on purpose: it fails them, shows the octets, and never hangs. */
class ConformanceBrokenPeerTest {

    @Test
    void aMirroredTerminateFailsAStrictRunWithTheOctetsShown() throws Exception {
        try (BrokenPeer peer = new BrokenPeer(BrokenPeer.Behaviour.MIRRORED_TERMINATE)) {
            ToolRun r = ToolRun.run("conformance", "--target", peer.target(), "--only", "4.1", "--timeout", "2000");
            assertThat(r.exit()).as(r.out()).isEqualTo(1);
            assertThat(r.out())
                    .contains("✘ 4.1 answers a Write to an STag it never advertised")
                    .contains("expected: Terminate 0x1/0x1/0x00")
                    .contains("the control word is bit-mirrored")
                    .contains("DDP Segment Length 16 where our segment had 30 octets")
                    .contains("→ peer offending FPDU: 001ec1401badbe5a")
                    .contains("peer → FPDU: ")
                    .contains("1 checks, 0 passed, 1 failed, 0 known deviations, 0 skipped");
        }
    }

    @Test
    void theSiwProfileReportsTheSameOctetsAsKnownDeviations() throws Exception {
        try (BrokenPeer peer = new BrokenPeer(BrokenPeer.Behaviour.MIRRORED_TERMINATE)) {
            ToolRun r = ToolRun.run("conformance", "--target", peer.target(), "--only", "4.1", "--profile", "siw",
                    "--timeout", "2000");
            assertThat(r.exit()).as(r.out()).isZero();
            assertThat(r.out()).contains("~ 4.1").contains("known deviation")
                    .contains("F1/R12").contains("F2/R5")
                    .contains("1 checks, 0 passed, 0 failed, 1 known deviations, 0 skipped");
        }
    }

    @Test
    void aReadResponseWithDataForAZeroLengthReadFailsAtOnceAndIsKnownForSiw() throws Exception {
        try (BrokenPeer peer = new BrokenPeer(BrokenPeer.Behaviour.STALE_READ_DATA)) {
            ToolRun strict = ToolRun.run("conformance", "--target", peer.target(), "--only", "3.7", "--timeout",
                    "5000");
            assertThat(strict.exit()).as(strict.out()).isEqualTo(1);
            assertThat(strict.out()).contains("✘ 3.7")
                    .contains("a Read Response of 16 octets (abababababababababababababababab) to our zero-length "
                            + "Read Request")
                    .doesNotContain("no answer within");
            ToolRun siw = ToolRun.run("conformance", "--target", peer.target(), "--only", "3.7", "--profile", "siw",
                    "--timeout", "5000");
            assertThat(siw.exit()).as(siw.out()).isZero();
            assertThat(siw.out()).contains("~ 3.7").contains("C11");
        }
    }

    @Test
    void aSilentPeerIsAFailureWithinTheTimeoutNotAHang() throws Exception {
        try (BrokenPeer peer = new BrokenPeer(BrokenPeer.Behaviour.SILENT)) {
            long start = System.nanoTime();
            ToolRun r = ToolRun.run("conformance", "--target", peer.target(), "--only", "4.1,5.1", "--timeout", "500");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.exit()).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("no Terminate and no close within 500 ms")
                    .contains("2 checks, 0 passed, 2 failed");
            assertThat(ms).as("two checks bounded by 500 ms waits").isLessThan(15_000);
        }
    }

    @Test
    void aFloodingPeerIsCutOffNotBuffered() throws Exception {
        try (BrokenPeer peer = new BrokenPeer(BrokenPeer.Behaviour.FLOOD)) {
            ToolRun r = ToolRun.run("conformance", "--target", peer.target(), "--only", "4.1", "--timeout", "5000");
            assertThat(r.exit()).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("✘ 4.1").contains("more than " + Wire.MAX_RECEIVED + " octets")
                    .contains("more FPDUs, not listed");
        }
    }

    @Test
    void nothingListeningIsAFailedCheckNotAStackTrace() {
        ToolRun r = ToolRun.run("conformance", "--target", "127.0.0.1:" + ToolRun.freePort(), "--only", "1.1",
                "--timeout", "300");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("cannot connect to");
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertThat(ToolRun.run("conformance").exit()).isEqualTo(2);
        assertThat(ToolRun.run("conformance", "--target", "nohostport").exit()).isEqualTo(2);
        assertThat(ToolRun.run("conformance", "--target", "127.0.0.1:1", "--only", "99.1").exit()).isEqualTo(2);
        assertThat(ToolRun.run("conformance", "--target", "127.0.0.1:1", "--role", "sideways").exit()).isEqualTo(2);
    }

    @Test
    void theListNamesEveryCheckWithItsRuleAndCautions() {
        ToolRun r = ToolRun.run("conformance", "--list");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("1.1   accepts an ordinary Rev 2 Request").contains("MPA-24")
                .contains("caution: waits up to the startup timeout");
        int checks = Integer.parseInt(r.out().replaceAll("(?s).*\\n(\\d+) checks\\s*$", "$1"));
        assertThat(checks).isGreaterThanOrEqualTo(100);
    }
}
