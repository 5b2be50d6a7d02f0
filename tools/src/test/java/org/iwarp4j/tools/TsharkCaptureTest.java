package org.iwarp4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.cli.ToolRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The captures of {@code iwarp demo --pcap} and {@code iwarp rping --pcap} (both ends) decoded by Wireshark's
 * own iWARP dissectors: every FPDU has its DDP/RDMAP layer, every CRC is "Good CRC32", nothing is malformed,
 * no expert item of severity Error (as the golden pcaps were checked, testkit/src/main/resources/vectors/README.md).
 * Runs where tshark is installed ({@code .ci/run} installs it); elsewhere it is skipped with that reason.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TsharkCaptureTest {

    /** Wireshark's heuristic RPC-over-RDMA and SMB Direct dissectors claim Send payloads. */
    private static final List<String> DISABLE =
            List.of("--disable-protocol", "rpcordma", "--disable-protocol", "smb_direct");
    private static final Pattern GOOD_CRC = Pattern.compile("name=\"iwarp_mpa\\.crc_check\"[^>]*\\(Good CRC32\\)");

    @TempDir
    Path dir;

    @BeforeAll
    static void tsharkIsInstalled() {
        assumeTrue(tsharkVersion() != null, "tshark is not installed (apt-get install -y tshark; .ci/run does): "
                + "the Wireshark cross-check of the captures is skipped");
    }

    @Test
    void theDemoCaptureDecodesAsIwarp() throws Exception {
        Path pcap = dir.resolve("demo.pcap");
        ToolRun r = ToolRun.run("demo", "--pcap", pcap.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertDecodes(pcap, 13, 2);
    }

    @Test
    void bothRpingCapturesDecodeAsIwarp() throws Exception {
        int port = ToolRun.freePort();
        Path server = dir.resolve("rping-server.pcap");
        Path client = dir.resolve("rping-client.pcap");
        CompletableFuture<ToolRun> s = ToolRun.background("rping", "-s", "-a", "127.0.0.1", "-p",
                Integer.toString(port), "-S", "4000", "--pcap", server.toString());
        ToolRun.awaitListening(port, s);
        ToolRun c = ToolRun.run("rping", "-c", "-a", "127.0.0.1", "-p", Integer.toString(port), "-C", "10", "-S",
                "4000", "-V", "--pcap", client.toString());
        assertThat(c.exit()).as(c.toString()).isZero();
        assertThat(s.get(60, TimeUnit.SECONDS).exit()).isZero();
        // 7 FPDUs per ping: Send, Read Request, Read Response, Send, Send, Write, Send.
        assertDecodes(client, 70, 2);
        assertDecodes(server, 70, 2);
    }

    /**
     * Wireshark finds {@code fpdus} FPDUs with DDP/RDMAP layers and good CRCs, and the MPA frames, and nothing wrong.
     */
    private static void assertDecodes(Path pcap, int fpdus, int startupFrames) throws Exception {
        String pdml = tshark(pcap, "-T", "pdml");
        assertThat(pdml).as(pcap + ": malformed packets").doesNotContain("_ws.malformed");
        assertThat(pdml).as(pcap + ": bad CRCs").doesNotContain("Bad CRC32");
        assertThat(count(pdml, Pattern.compile("<proto name=\"iwarp_ddp_rdmap\""))).as(pcap + ": DDP/RDMAP layers")
                .isEqualTo(fpdus);
        assertThat(count(pdml, GOOD_CRC)).as(pcap + ": good CRCs").isEqualTo(fpdus);
        assertThat(count(pdml, Pattern.compile("<proto name=\"iwarp_mpa\""))).as(pcap + ": MPA layers")
                .isEqualTo(fpdus + startupFrames);
        String expert = tshark(pcap, "-q", "-z", "expert");
        assertThat(expert).as(pcap + ": expert items of severity Error").doesNotContain("Errors (");
    }

    private static int count(String text, Pattern p) {
        Matcher m = p.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static String tshark(Path pcap, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", pcap.toString()));
        cmd.addAll(DISABLE);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("tshark exit status for " + pcap).isZero();
        return out;
    }

    private static String tsharkVersion() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out.lines().findFirst().orElse("") : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
