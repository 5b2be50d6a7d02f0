package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code explain} command line: options, usage errors (exit 2), help, and the README's explain example. */
class ExplainCommandTest {

    @TempDir
    Path dir;

    @Test
    void helpListsEveryOptionAndTheExitStatuses() {
        ExplainRun r = ExplainRun.run("explain", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: iwarp explain").contains("--hex=FILE").contains("--pcap=FILE")
                .contains("--fpdu").contains("--[no-]crc").contains("--markers").contains("--stream-offset=N")
                .contains("--json").contains("--all-octets").contains("--terminate-layout=rfc|siw")
                .contains("Exit status: 0").contains("2 usage error");
        assertThat(ExplainRun.run("help", "explain").out()).isEqualTo(r.out());
        assertThat(ExplainRun.run("--help").out()).contains("explain");
        assertThat(ExplainRun.run("explain", "--version").out()).startsWith("iwarp4j ");
    }

    /** The README's first explain example: {@code ./iwarp explain --hex samples/siw-rping-first-fpdus.hex}. */
    @Test
    void theReadmesExplainExampleWorks() throws Exception {
        Path readme = Path.of("..", "README.md");
        String command = "./iwarp explain --hex samples/siw-rping-first-fpdus.hex";
        assertThat(Files.readString(readme)).contains(command);
        assertThat(ExplainRun.run("explain", "--help").exit()).isZero();
        ExplainRun r =
                ExplainRun.run("explain", "--hex", Path.of("..", "samples", "siw-rping-first-fpdus.hex").toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("#1  MPA Request  input octets 0..23 (24 octets)")
                .contains("#2  FPDU  input octets 24..63 (40 octets)")
                .containsPattern("ULPDU_Length +0x0022 \\(34\\) +RFC 5044 §4\\.1")
                .containsPattern("CRC +0x00000000 +RFC 5044 §4\\.4 +not checked \\(CRC off, RFC 5044 §4\\.4\\)")
                .endsWith("2 frames (1 MPA Request, 1 FPDU), no errors.\n");
    }

    /** docs/tools.md's layered examples are excerpts of what explain prints: every line shown is printed as shown. */
    @Test
    void theReadmesLayeredExamplesAreWhatExplainPrints() throws Exception {
        String readme = Files.readString(Path.of("..", "docs", "tools.md"));
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("```(json)?\n(.*?)```", Pattern.DOTALL).matcher(
                readme.substring(readme.indexOf("Each FPDU nests its DDP segment")));
        while (m.find() && blocks.size() < 3) {
            blocks.add(m.group(2));
        }
        assertThat(blocks).hasSize(3);
        Path samples = Path.of("..", "samples");
        String send = ExplainRun.run("explain", "--hex", samples.resolve("siw-rping-first-fpdus.hex").toString()).out();
        String terminate = ExplainRun.run("explain", "--hex",
                samples.resolve("siw-terminate-read-bounds.hex").toString(), "--fpdu", "--no-crc").out();
        String json = ExplainRun.run("explain", "--hex", samples.resolve("siw-rping-first-fpdus.hex").toString(),
                "--json").out();
        for (String[] pair : new String[][] {{blocks.get(0), send}, {blocks.get(1), terminate}}) {
            for (String line : pair[0].split("\n")) {
                if (!line.trim().equals("...")) {
                    assertThat(pair[1]).contains(line + "\n");
                }
            }
        }
        for (String part : blocks.get(2).trim().split(",\\.\\.\\.,")) {
            assertThat(json).contains(part);
        }
    }

    @Test
    void everySampleInTheReadmeDecodesWithoutErrors() {
        Path samples = Path.of("..", "samples");
        assertThat(ExplainRun.run("explain", "--hex", samples.resolve("siw-terminate-read-bounds.hex").toString(),
                "--fpdu", "--no-crc").exit()).isZero();
        assertThat(ExplainRun.run("explain", "--hex", samples.resolve("markers-first-fpdus.hex").toString(),
                "--markers").exit()).isZero();
        assertThat(ExplainRun.run("explain", "--hex", samples.resolve("rfc5044-figure6-fpdu.hex").toString(),
                "--fpdu", "--markers", "--stream-offset", "492").out()).contains("FPDUPTR 0x0014 (20)");
        assertThat(ExplainRun.run("explain", "--pcap", samples.resolve("siw-rping-crc.pcap").toString()).exit())
                .isZero();
    }

    @Test
    void readsHexFromStandardInput() {
        InputStream saved = System.in;
        try {
            String hex = "# from a pipe\n" + GoldenVectors.named("mpa-req-rev1").field("hex") + "\n";
            System.setIn(new ByteArrayInputStream(hex.getBytes(StandardCharsets.UTF_8)));
            ExplainRun r = ExplainRun.run("explain", "--hex", "-", "--json");
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.entries()).singleElement().satisfies(e -> assertThat(e).containsEntry("type", "mpa-request"));
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void needsExactlyOneInput() {
        assertUsage(ExplainRun.run("explain"), "Missing required argument");
        Path hex = ExplainRun.write(dir, "00");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--pcap", hex.toString()), "mutually exclusive");
    }

    @Test
    void hexOnlyOptionsAreRefusedWithAPcap() {
        Path pcap = ExplainRun.writeBytes(dir, GoldenVectors.resource("iwarp-markers.pcap"), ".pcap");
        for (String option : new String[] {"--fpdu", "--crc", "--no-crc", "--markers"}) {
            assertUsage(ExplainRun.run("explain", "--pcap", pcap.toString(), option), "apply to --hex only");
        }
    }

    @Test
    void streamOffsetNeedsFpduAndMarkersAndA4AlignedValue() {
        Path hex = ExplainRun.write(dir, GoldenVectors.named("rfc5044-fig6").field("hex"));
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--stream-offset", "492"),
                "--stream-offset needs --fpdu --markers");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--stream-offset", "492"),
                "--stream-offset needs");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--markers", "--stream-offset", "490"),
                "not a multiple of 4");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--markers", "--stream-offset",
                "4294967296"), "outside 0..4294967295");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--markers", "--stream-offset", "-4"),
                "outside 0..4294967295");
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--markers", "--stream-offset",
                "lots"), "'lots' is not a number");
        ExplainRun hexOffset = ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--markers",
                "--stream-offset", "0x1ec", "--json");
        assertThat(hexOffset.exit()).as(hexOffset.toString()).isZero();
    }

    @Test
    void theTerminateLayoutIsRfcOrSiw() {
        Path hex = ExplainRun.write(dir, GoldenVectors.named("fpdu-terminate-llp-crc").field("hex"));
        assertUsage(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--terminate-layout", "mirrored"),
                "'mirrored' is not a layout: rfc or siw");
        assertThat(ExplainRun.run("explain", "--hex", hex.toString(), "--fpdu", "--terminate-layout", "SIW").exit())
                .isZero();
    }

    @Test
    void unknownOptionsAreUsageErrors() {
        assertUsage(ExplainRun.run("explain", "--hex", ExplainRun.write(dir, "00").toString(), "--colour"),
                "Unknown option");
    }

    @Test
    void unreadableFilesAreUsageErrors() {
        assertUsage(ExplainRun.run("explain", "--hex", dir.resolve("nope.hex").toString()), "no such file");
        assertUsage(ExplainRun.run("explain", "--pcap", dir.resolve("nope.pcap").toString()), "no such file");
        assertUsage(ExplainRun.run("explain", "--hex", dir.toString()), "it is a directory");
    }

    @Test
    void badHexIsAUsageErrorWithThePosition() {
        assertUsage(ExplainRun.run("explain", "--hex", ExplainRun.write(dir, "4d50\n41 2").toString()),
                "odd number of hex digits: the digit at line 2, column 4 has no partner");
        assertUsage(ExplainRun.run("explain", "--hex", ExplainRun.write(dir, "4d50 zz").toString()),
                "line 1, column 6: 'z' is not a hex digit");
        assertUsage(ExplainRun.run("explain", "--hex", ExplainRun.write(dir, "# nothing but a comment\n").toString()),
                "no octets in it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"text", "pcapng"})
    void somethingThatIsNotAClassicPcapIsAUsageError(String what) {
        byte[] bytes = what.equals("text") ? "just some text, not a capture".getBytes(StandardCharsets.US_ASCII)
                : new byte[] {0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28, 0x1a, 0x2b, 0x3c, 0x4d, 0, 1, 0, 0, -1, -1, -1, -1,
                        -1, -1, -1, -1, 0, 0, 0, 28};
        ExplainRun r = ExplainRun.run("explain", "--pcap", ExplainRun.writeBytes(dir, bytes, ".pcap").toString());
        assertUsage(r, what.equals("text") ? "not a pcap file" : "pcapng");
    }

    private static void assertUsage(ExplainRun r, String message) {
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).as(r.toString()).contains(message);
        assertThat(r.out()).isEmpty();
    }
}
