package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every golden MPA frame and FPDU vector decodes through {@code explain --json} to exactly the fields
 * the vector lists. Expected objects are built from the vector's own fields, never from the code.
 */
class ExplainGoldenVectorTest {

    @TempDir
    Path dir;

    static Stream<GoldenVector> startupFrames() {
        return GoldenVectors.ofKind("mpa-request", "mpa-reply").stream();
    }

    static Stream<GoldenVector> fpdus() {
        return GoldenVectors.ofKind("fpdu", "fpdu-markers").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("startupFrames")
    void mpaRequestsAndRepliesDecodeToTheVectorsFields(GoldenVector v) {
        ExplainRun r = ExplainRun.json(dir, v.bytes());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).containsExactly(expectedFrame(v));

        ExplainRun text = ExplainRun.text(dir, v.bytes());
        assertThat(text.exit()).as(text.toString()).isZero();
        assertThat(text.out())
                .contains(v.kind().equals("mpa-request") ? "#1  MPA Request  input octets 0.."
                        : "#1  MPA Reply  input octets 0..")
                .containsPattern("Key +\"" + v.field("key_ascii") + "\" +RFC 5044 §7\\.1\\.1")
                .containsPattern("M \\(markers\\) +" + v.field("m") + " +RFC 5044 §7\\.1\\.1")
                .containsPattern("C \\(CRC\\) +" + v.field("c") + " +RFC 5044 §4\\.4")
                .containsPattern("R \\(rejected\\) +" + v.field("r") + " +RFC 5044 §7\\.1\\.1")
                .containsPattern("S \\(enhanced\\) +" + v.field("s_rfc6581") + " +RFC 6581 §6")
                .containsPattern("Rev +" + v.field("rev") + " +RFC")
                .containsPattern(String.format("PD_Length +0x%04x \\(%d\\) +RFC 5044 §7\\.1\\.1",
                        v.number("pd_length"), v.number("pd_length")));
        if (v.has("enh.ird")) {
            assertThat(text.out())
                    .containsPattern("A \\(peer-to-peer\\) +" + v.field("enh.a_peer_to_peer") + " +RFC 6581 §9\\.2")
                    .containsPattern("IRD +" + v.field("enh.ird") + " +RFC 6581 §9\\.1")
                    .containsPattern("ORD +" + v.field("enh.ord") + " +RFC 6581 §9\\.1");
        }
        String pd = (String) expectedFrame(v).get("privateData");
        if (!pd.isEmpty()) {
            // the dump's first line: offset 0000 then the first octets, as in xxd
            String first = pd.substring(0, Math.min(pd.length(), 16)).replaceAll("(..)(?!$)", "$1 ");
            assertThat(text.out()).contains("0000  " + first);
        } else {
            assertThat(text.out()).containsPattern("Private Data +none");
        }
    }

    /**
     * Each FPDU vector three ways: JSON with CRCs on (every field as the vector lists it, MPA members and
     * the nested {@code ddp} and {@code rdmap} objects), JSON with CRCs off (the CRC shown but not
     * checked), and the human view (fields with their RFC sections).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fpdus")
    void fpdusDecodeToTheVectorsFields(GoldenVector v) {
        ExplainRun on = ExplainRun.json(dir, v.bytes(), fpduOptions(v, "--crc"));
        assertThat(on.exit()).as(on.toString()).isZero();
        assertThat(on.entries()).hasSize(1);
        assertThat(mpaMembers(on.entries().get(0))).isEqualTo(expectedFpdu(v, true));
        VectorUpperLayers.assertMatches(v, on.entries().get(0));
        assertThat(on.entries().get(0).get("notes")).as("one FPDU on its own breaks no sequence rule")
                .isEqualTo(List.of());

        ExplainRun off = ExplainRun.json(dir, v.bytes(), fpduOptions(v, "--no-crc"));
        assertThat(off.exit()).as(off.toString()).isZero();
        assertThat(off.entries()).hasSize(1);
        assertThat(mpaMembers(off.entries().get(0))).isEqualTo(expectedFpdu(v, null));
        VectorUpperLayers.assertMatches(v, off.entries().get(0));

        ExplainRun text = ExplainRun.text(dir, v.bytes(), fpduOptions(v, "--crc"));
        assertThat(text.exit()).as(text.toString()).isZero();
        int len = v.intField("ulpdu_length");
        assertThat(text.out())
                .containsPattern(String.format("ULPDU_Length +0x%04x \\(%d\\) +RFC 5044 §4\\.1", len, len))
                .containsPattern(String.format("CRC +0x%08x +RFC 5044 §4\\.4 +valid", v.number("crc32c_value")))
                .containsPattern("PAD +" + v.intField("pad_length") + " octets? +RFC 5044 §4\\.1")
                .endsWith("1 frame (1 FPDU), no errors.\n");
        for (Map<String, Object> m : markers(v)) {
            assertThat(text.out()).containsPattern(String.format("Marker +FPDUPTR 0x%04x \\(%d\\) +RFC 5044 §4\\.3 +at "
                    + "FPDU\\+%d ", m.get("fpduPtr"), m.get("fpduPtr"), m.get("offset")));
        }
        assertUpperLayersShown(v, text.out());
    }

    /** People see each DDP and RDMAP field the vector lists, with its value and RFC section. */
    static void assertUpperLayersShown(GoldenVector v, String text) {
        boolean tagged = v.flag("ddp.t");
        assertThat(text).contains(tagged ? "  DDP  tagged, 14-octet header + " : "  DDP  untagged, 18-octet header + ")
                .containsPattern("T \\(tagged\\) +" + v.field("ddp.t") + " +RFC 5041 §4\\.1")
                .containsPattern("L \\(last\\) +" + v.field("ddp.l") + " +RFC 5041 §4\\.1")
                .containsPattern("DV +" + v.field("ddp.dv") + " +RFC 5041 §4\\.1")
                .contains("RDMAP  " + v.field("rdmap.opcode_name") + " (RFC ")
                .containsPattern(String.format("RV +%d +RFC 5040 §4\\.1", v.number("rdmap.rv")))
                .containsPattern(String.format("Opcode +0x%x +RFC ", v.number("rdmap.opcode")));
        if (tagged) {
            assertThat(text).containsPattern(String.format("STag +0x%08x +RFC 5041 §4\\.2", v.number("ddp.stag")))
                    .containsPattern(String.format("TO +0x%016x +RFC 5041 §4\\.2", v.number("ddp.to")));
        } else {
            assertThat(text).containsPattern(String.format("QN +%d +RFC 5041 §4\\.3", v.number("ddp.qn")))
                    .containsPattern(String.format("MSN +%d +RFC 5041 §4\\.3", v.number("ddp.msn")))
                    .containsPattern(String.format("MO +%d +RFC 5041 §4\\.3", v.number("ddp.mo")));
        }
        if (v.has("rr.src_stag")) {
            assertThat(text)
                    .containsPattern(String.format("Data Source STag +0x%08x +RFC 5040 §4\\.4",
                            v.number("rr.src_stag")));
        }
        if (v.has("term.error_code")) {
            assertThat(text).containsPattern(String.format("Error Code +0x%02x +RFC ", v.number("term.error_code")));
        }
        if (v.has("atomic.request_id")) {
            assertThat(text)
                    .containsPattern("Request Identifier +" + v.number("atomic.request_id") + " +RFC 7306 §5\\.2\\.1");
        }
        if (v.has("immediate_data")) {
            assertThat(text).containsPattern("Immediate Data +" + String.format("%016x", v.number("immediate_data"))
                    .replaceAll("(..)(?!$)", "$1 ") + " +RFC 7306 §6\\.2");
        }
    }

    /** An FPDU entry without what DDP and RDMAP add to it. */
    static Map<String, Object> mpaMembers(Map<String, Object> entry) {
        Map<String, Object> m = new LinkedHashMap<>(entry);
        m.keySet().removeAll(List.of("ddp", "rdmap", "notes"));
        return m;
    }

    private static String[] fpduOptions(GoldenVector v, String crc) {
        return v.kind().equals("fpdu-markers")
                ? new String[] {"--fpdu", crc, "--markers", "--stream-offset", v.field("stream_offset")}
                : new String[] {"--fpdu", crc};
    }

    static Map<String, Object> expectedFrame(GoldenVector v) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", v.kind());
        e.put("offset", 0L);
        e.put("m", v.flag("m"));
        e.put("c", v.flag("c"));
        e.put("r", v.flag("r"));
        e.put("s", v.flag("s_rfc6581"));
        e.put("rev", v.number("rev"));
        e.put("pdLength", v.number("pd_length"));
        boolean enhanced = v.has("enh.ird");
        e.put("privateData", hexOrEmpty(v, enhanced ? "ulp_private_data_hex" : "private_data_hex"));
        if (enhanced) {
            e.put("ird", v.number("enh.ird"));
            e.put("ord", v.number("enh.ord"));
            e.put("peerToPeer", v.flag("enh.a_peer_to_peer"));
            List<Object> rtr = new ArrayList<>();
            if (v.flag("enh.b_zero_len_send_rtr")) {
                rtr.add("send");
            }
            if (v.flag("enh.c_zero_len_write_rtr")) {
                rtr.add("write");
            }
            if (v.flag("enh.d_zero_len_read_rtr")) {
                rtr.add("read");
            }
            e.put("rtr", rtr);
        }
        return e;
    }

    static Map<String, Object> expectedFpdu(GoldenVector v, Boolean crcValid) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", "fpdu");
        e.put("offset", 0L);
        e.put("ulpduLength", v.number("ulpdu_length"));
        e.put("padLength", v.number("pad_length"));
        e.put("crc", String.format("0x%08x", v.number("crc32c_value")));
        e.put("crcValid", crcValid);
        e.put("markers", markers(v));
        e.put("ulpdu", hexOrEmpty(v, "ulpdu_hex"));
        return e;
    }

    /**
     * The vector's {@code markers} field ({@code index:fpduptr=N ...} or {@code -}) as the JSON {@code markers} array.
     */
    static List<Map<String, Object>> markers(GoldenVector v) {
        List<Map<String, Object>> out = new ArrayList<>();
        String field = v.has("markers") ? v.field("markers").trim() : "-";
        if (!field.equals("-")) {
            for (String m : field.split("\\s+")) {
                String[] parts = m.split(":fpduptr=");
                Map<String, Object> marker = new LinkedHashMap<>();
                marker.put("offset", Long.parseLong(parts[0]));
                marker.put("fpduPtr", Long.parseLong(parts[1]));
                out.add(marker);
            }
        }
        if (v.has("marker_count")) {
            assertThat(out).as("marker_count of " + v).hasSize(v.intField("marker_count"));
        }
        return out;
    }

    private static String hexOrEmpty(GoldenVector v, String key) {
        String s = v.field(key).trim();
        return s.equals("-") ? "" : s;
    }
}
