package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The siw lab's real Linux siw bytes ({@code conformance-tests/src/test/resources/siw}, see its
 * README and interop/FINDINGS.md): every {@code .vec} FPDU decodes to the fields the lab recorded —
 * siw's Terminates in their bit-mirrored layout included — and every capture decodes with DDP and
 * RDMAP on every FPDU. Where explain flags a header, siw itself answered it with the same Terminate.
 */
class ExplainSiwLabTest {

    private static final long PCAP_HEADER_LENGTH = 24;

    /** Captures of the probe's deliberate errors that explain annotates rather than refuses: the notes expected. */
    private static final Map<String, List<String>> EXPECTED_NOTES = Map.of("term-send-bad-msn.pcap", List.of(
            "I2R: MSN 7, expected 1: each queue numbers its messages 1, 2, 3, ... per direction [DDP-11]; a receiver "
                    + "has no buffer posted for this MSN and answers 0x1/0x2/0x02 or 0x1/0x2/0x03"));

    @TempDir
    Path dir;

    static Path lab() {
        Path at = Path.of("").toAbsolutePath();
        for (Path p = at; p != null; p = p.getParent()) {
            Path siw = p.resolve("conformance-tests/src/test/resources/siw");
            if (Files.isDirectory(siw)) {
                return siw;
            }
        }
        throw new AssertionError("no conformance-tests/src/test/resources/siw above " + at);
    }

    static Stream<GoldenVector> fpduVectors() {
        return vectors().stream().filter(v -> v.kind().equals("fpdu"));
    }

    /**
     * The fixtures' captures, then the other captures behind interop/FINDINGS.md ({@code interop/captures},
     * which also holds verbatim copies of the fixtures' ones: those are decoded once).
     */
    static Stream<Path> captures() {
        Path interop = lab().resolve("../../../../../interop/captures").normalize();
        assertThat(interop).isDirectory();
        List<Path> fixtures = pcaps(lab().resolve("pcap"));
        List<Path> others =
                pcaps(interop).stream().filter(p -> fixtures.stream().noneMatch(f -> sameOctets(f, p))).toList();
        assertThat(others).hasSizeGreaterThanOrEqualTo(40);
        return Stream.concat(fixtures.stream(), others.stream());
    }

    private static boolean sameOctets(Path a, Path b) {
        try {
            return a.getFileName().equals(b.getFileName()) && Files.mismatch(a, b) == -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> pcaps(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".pcap")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Each FPDU fixture on its own. A Terminate control word that is a registered cause in both layouts
     * (FINDINGS F1) cannot be told apart without context: with {@code --terminate-layout siw} it reads as
     * siw meant it; without, explain must say it is ambiguous and name siw's reading as the other one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fpduVectors")
    void everyFixtureDecodesToTheRecordedFields(GoldenVector v) {
        String crc = v.field("crc_check").equals("ok") ? "--crc" : "--no-crc";
        boolean bothPlausible = v.has("term.layout") && v.field("term.layout").contains("both readings plausible");
        ExplainRun siw = ExplainRun.json(dir, v.bytes(), "--fpdu", crc, "--terminate-layout", "siw");
        assertThat(siw.exit()).as(siw.toString()).isZero();
        assertThat(siw.entries()).singleElement().satisfies(e -> {
            assertThat(e.get("ulpduLength")).isEqualTo(v.number("ulpdu_length"));
            VectorUpperLayers.assertMatches(v, e);
        });
        ExplainRun plain = ExplainRun.json(dir, v.bytes(), "--fpdu", crc);
        assertThat(plain.exit()).as(plain.toString()).isZero();
        Map<String, Object> e = plain.entries().get(0);
        if (!bothPlausible) {
            VectorUpperLayers.assertMatches(v, e);
            return;
        }
        Map<String, Object> t = VectorUpperLayers.object(VectorUpperLayers.object(e, "rdmap", v), "terminate", v);
        Map<String, Object> meant = Map.of("layer", v.number("term.layer"), "etype", v.number("term.etype"),
                "code", v.number("term.error_code"));
        if (t.get("ambiguous").equals(true)) {
            assertThat(t.get("layout")).isEqualTo("rfc");
            assertThat(VectorUpperLayers.object(t, "alsoReadsAs", v)).containsAllEntriesOf(meant)
                    .containsEntry("layout", "siw-mirrored");
        } else {
            assertThat(t).containsAllEntriesOf(meant); // both layouts read the same (e.g. 11 04 00 00)
        }
    }

    /**
     * Every lab capture: DDP and RDMAP on every FPDU, no sequence warnings (siw keeps every rule explain
     * can see), each recorded fixture found in its capture with its recorded fields — now with the
     * conversation as context, so siw's Terminates read right without options — and each DDP or RDMAP
     * error explain reports is a segment siw answered with the same Terminate. The one exception is
     * documented: siw has no RFC 7306 and answers every opcode 0x8-0xB with 0x0/0x2/0x06 (FINDINGS F2).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void everyCaptureDecodesAtAllLayers(Path pcap) {
        ExplainRun r = ExplainRun.run("explain", "--json", "--pcap", pcap.toString());
        List<Map<String, Object>> entries = r.entries();
        assertThat(size(pcap)).as(pcap + " holds packets, not only the pcap header").isGreaterThan(PCAP_HEADER_LENGTH);
        long errors = entries.stream().filter(e -> e.get("type").equals("error")).count();
        assertThat(r.exit()).as(r.toString()).isEqualTo(errors == 0 ? 0 : 1);
        List<String> notes = new ArrayList<>();
        for (Map<String, Object> e : entries) {
            if (e.get("type").equals("fpdu")) {
                assertThat(e).as(pcap + " " + e).containsKeys("ddp", "rdmap");
                for (Object n : (List<?>) e.get("notes")) {
                    notes.add(e.get("direction") + ": " + ((Map<?, ?>) n).get("text"));
                }
            }
        }
        // Only the probe's deliberately wrong FPDUs get a note (the others are refused as errors, below).
        assertThat(notes).as(pcap.toString())
                .containsExactlyElementsOf(EXPECTED_NOTES.getOrDefault(pcap.getFileName().toString(), List.of()));
        String name = "pcap/" + pcap.getFileName();
        boolean fixtures = pcap.getParent().equals(lab().resolve("pcap"));
        for (GoldenVector v : fixtures ? vectors() : List.<GoldenVector>of()) {
            if (v.kind().equals("fpdu") && v.field("source").contains("(" + name + ")")) {
                Map<String, Object> entry = entries.stream()
                        .filter(e -> e.get("type").equals("fpdu") && e.get("ulpdu").equals(v.field("ulpdu_hex")))
                        .findFirst().orElseThrow(() -> new AssertionError(v.name() + " is not in " + pcap));
                VectorUpperLayers.assertMatches(v, entry);
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            Map<String, Object> error = entries.get(i);
            if (!error.get("type").equals("error")) {
                continue;
            }
            if (error.get("layer").equals("MPA")) {
                continue; // startup and framing errors: ExplainPcapTest, ExplainCaptureProblemsTest
            }
            Map<String, Object> answer = siwTerminateAfter(entries, i, (String) error.get("direction"));
            assertThat(answer).as(pcap + ": siw answered the segment explain flags").isNotNull();
            @SuppressWarnings("unchecked")
            Map<String, Object> mine = new LinkedHashMap<>((Map<String, Object>) error.get("terminate"));
            mine.remove("cause");
            long opcode = (Long) ((Map<?, ?>) entries.get(i - 1).get("rdmap")).get("opcodeCode");
            if (opcode >= 0x8 && opcode <= 0xB) {
                mine = Map.of("layer", 0L, "etype", 2L, "code", 6L);
            }
            assertThat(answer).as(pcap.toString()).containsAllEntriesOf(mine);
        }
    }

    /**
     * FINDINGS F1: {@code 20 06 00 00} is 0x2/0x0/0x06 (Insufficient IRD) in the RFC layout and 0x0/0x2/0x06
     * (Unexpected OpCode) in siw's. RFC 6581 §9.1 sends the MPA codes only as an Initiator's first FPDU: after
     * its MPA Request the RFC reading stands; after a Reply it cannot, so siw's does; alone it is ambiguous,
     * and {@code --terminate-layout} decides.
     */
    @Test
    void theTerminatesPlaceDecidesAnAmbiguousControlWord() {
        byte[] terminate = GoldenVectors.named("fpdu-terminate-insufficient-ird").bytes(); // RFC layout, 2/0/06
        byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();
        byte[] reply = GoldenVectors.named("mpa-rep-rev1-accept").bytes();
        Map<String, Object> rfc = Map.of("layer", 2L, "etype", 0L, "code", 6L, "layout", "rfc");
        Map<String, Object> siw = Map.of("layer", 0L, "etype", 2L, "code", 6L, "layout", "siw-mirrored");

        assertThat(terminate(ExplainRun.json(dir, ExplainErrorTest.concat(request, terminate)), 1))
                .containsAllEntriesOf(rfc).containsEntry("ambiguous", false);
        assertThat(terminate(ExplainRun.json(dir, ExplainErrorTest.concat(reply, terminate)), 1))
                .containsAllEntriesOf(siw).containsEntry("ambiguous", false);
        Map<String, Object> alone = terminate(ExplainRun.json(dir, terminate, "--fpdu"), 0);
        assertThat(alone).containsAllEntriesOf(rfc).containsEntry("ambiguous", true);
        assertThat((Map<?, ?>) alone.get("alsoReadsAs")).isEqualTo(siw);
        Map<String,
                Object> asSiw = terminate(ExplainRun.json(dir, terminate, "--fpdu", "--terminate-layout", "siw"), 0);
        assertThat(asSiw).containsAllEntriesOf(siw).containsEntry("ambiguous", true);
        assertThat((Map<?, ?>) asSiw.get("alsoReadsAs")).isEqualTo(rfc);
        assertThat(ExplainRun.text(dir, terminate, "--fpdu").out())
                .contains("Also reads as  0x0/0x2/0x06 RDMA Remote Operation Error: Unexpected OpCode");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> terminate(ExplainRun r, int index) {
        assertThat(r.exit()).as(r.toString()).isZero();
        return (Map<String, Object>) ((Map<String, Object>) r.entries().get(index).get("rdmap")).get("terminate");
    }

    /**
     * The Terminate cells (21) and the 3 MPA cells where siw terminates: one Terminate each, but in
     * term-ird-exceeded-busy and term-ird-pow2 (siw sends none: FINDINGS F5, M5).
     */
    @Test
    void theCapturesHoldSiwsTerminates() {
        int terminates = 0;
        for (Path pcap : pcaps(lab().resolve("../../../../../interop/captures").normalize())) {
            if (!pcap.getFileName().toString()
                    .matches("term-.*|mpa-req-(p2p-send|p2p-reply-a0|reply-ord-200)\\.pcap")) {
                continue; // the cells where siw terminates (FINDINGS F2)
            }
            for (Map<String, Object> e : ExplainRun.run("explain", "--json", "--pcap", pcap.toString()).entries()) {
                if (e.get("type").equals("fpdu") && "TERMINATE".equals(((Map<?, ?>) e.get("rdmap")).get("opcode"))) {
                    terminates++;
                }
            }
        }
        assertThat(terminates).isEqualTo(22);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first Terminate in the other direction after entry {@code i}: its terminate object. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> siwTerminateAfter(List<Map<String, Object>> entries, int i, String direction) {
        for (Map<String, Object> e : entries.subList(i + 1, entries.size())) {
            if (e.get("type").equals("fpdu") && !e.get("direction").equals(direction)) {
                Map<String, Object> rdmap = (Map<String, Object>) e.get("rdmap");
                if ("TERMINATE".equals(rdmap.get("opcode"))) {
                    return (Map<String, Object>) rdmap.get("terminate");
                }
            }
        }
        return null;
    }

    /** The lab's {@code .vec} files (the golden-vector format, testkit README). */
    static List<GoldenVector> vectors() {
        List<GoldenVector> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(lab())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".vec")).sorted().toList()) {
                Map<String, String> fields = new LinkedHashMap<>();
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (line.startsWith("#") || line.isBlank()) {
                        continue;
                    }
                    int at = line.indexOf(": ");
                    String key = at < 0 ? line.substring(0, line.length() - 1) : line.substring(0, at);
                    fields.merge(key, at < 0 ? "" : line.substring(at + 2), (a, b) -> a + "\n" + b);
                }
                out.add(new GoldenVector(fields.get("name"), "siw", fields.get("kind"), fields));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(38);
        return out;
    }
}
