package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.testkit.GoldenVector;

/**
 * Compares the {@code ddp} and {@code rdmap} objects of an FPDU entry with the fields a vector lists
 * ({@code ddp.*}, {@code rdmap.*}, {@code rr.*}, {@code term.*}, {@code atomic.*}, {@code immediate_data},
 * the payload lengths), key by key, with the JSON shape of issue 3. The expected values are the
 * vector's; the mapping of names is the only knowledge here. A vector field this class does not know
 * fails the test, so no listed field goes unchecked.
 */
final class VectorUpperLayers {

    /** Opcodes that carry ULP payload after their headers (RFC 5040 §4.2): Write, Read Response, the Sends. */
    private static final Set<Long> PAYLOAD_OPCODES = Set.of(0L, 2L, 3L, 4L, 5L, 6L);
    private static final Pattern RFC_READING = Pattern.compile(
            "layer (\\d+) etype (\\d+) code 0x(\\p{XDigit}+) m ([01]) d ([01]) r ([01]) reserved 0x(\\p{XDigit}+)");

    private VectorUpperLayers() {}

    /**
     * Every upper-layer field {@code v} lists, in {@code fpdu} (a parsed FPDU entry); and nothing outside the shape.
     */
    static void assertMatches(GoldenVector v, Map<String, Object> fpdu) {
        Map<String, Object> ddp = object(fpdu, "ddp", v);
        Map<String, Object> rdmap = object(fpdu, "rdmap", v);
        String what = v.name();
        boolean tagged = v.flag("ddp.t");
        assertThat(ddp.keySet()).as(what + " ddp keys").containsExactlyElementsOf(tagged
                ? List.of("tagged", "last", "rsvd", "dv", "rsvdUlp", "stag", "to")
                : List.of("tagged", "last", "rsvd", "dv", "rsvdUlp", "qn", "msn", "mo"));
        long opcode = v.number("rdmap.opcode");
        assertThat(rdmap.keySet()).as(what + " rdmap keys").containsExactlyInAnyOrderElementsOf(rdmapKeys(opcode));
        for (Map.Entry<String, String> field : v.fields().entrySet()) {
            String key = field.getKey();
            String as = what + " " + key;
            switch (key) {
                case "ddp.t" -> assertThat(ddp.get("tagged")).as(as).isEqualTo(v.flag(key));
                case "ddp.l" -> assertThat(ddp.get("last")).as(as).isEqualTo(v.flag(key));
                case "ddp.rsvd" -> assertThat(ddp.get("rsvd")).as(as).isEqualTo(v.number(key));
                case "ddp.dv" -> assertThat(ddp.get("dv")).as(as).isEqualTo(v.number(key));
                case "ddp.stag" -> assertHex(as, ddp.get("stag"), v.number(key), 8);
                case "ddp.to" -> assertHex(as, ddp.get("to"), v.number(key), 16);
                case "ddp.qn" -> assertThat(ddp.get("qn")).as(as).isEqualTo(v.number(key));
                case "ddp.msn" -> assertThat(ddp.get("msn")).as(as).isEqualTo(v.number(key));
                case "ddp.mo" -> assertThat(ddp.get("mo")).as(as).isEqualTo(v.number(key));
                case "ddp.rsvdulp_8_39" -> {
                    // RsvdULP is 40 bits: RDMAP's control octet, then these 32 bits (RFC 5041 §4.3).
                    String rsvdUlp = (String) ddp.get("rsvdUlp");
                    assertThat(rsvdUlp).as(as).matches("0x\\p{XDigit}{10}");
                    assertThat(Long.parseLong(rsvdUlp.substring(4), 16)).as(as).isEqualTo(v.number(key));
                    assertThat(Long.parseLong(rsvdUlp.substring(2, 4), 16)).as(as + " (RDMAP control octet)")
                            .isEqualTo(v.number("rdmap.rv") << 6 | v.number("rdmap.rsv") << 4 | opcode);
                    if (opcode == 4 || opcode == 6) {
                        assertHex(as + " as invalidateStag", rdmap.get("invalidateStag"), v.number(key), 8);
                    }
                }
                case "ddp_payload_length", "ulp_payload_length" -> {
                    // Everything after the DDP header; RDMAP counts it as payload only for Write, Read Response and the
                    // Sends.
                    assertThat(v.number("ulpdu_length") - (tagged ? 14 : 18)).as(as).isEqualTo(v.number(key));
                    assertThat(rdmap.get("payloadLength")).as(as)
                            .isEqualTo(PAYLOAD_OPCODES.contains(opcode) ? v.number(key) : null);
                }
                case "rdmap.rv" -> assertThat(rdmap.get("rv")).as(as).isEqualTo(v.number(key));
                case "rdmap.rsv" -> assertThat(rdmap.get("rsv")).as(as).isEqualTo(v.number(key));
                case "rdmap.opcode" -> assertThat(rdmap.get("opcodeCode")).as(as).isEqualTo(v.number(key));
                case "rdmap.opcode_name" -> assertThat(rdmap.get("opcode")).as(as)
                        .isEqualTo(field.getValue().trim().toUpperCase(Locale.ROOT).replace(' ', '_')
                                .replace('-', '_'));
                case "rr.sink_stag" -> assertHex(as, readRequest(rdmap, v).get("sinkStag"), v.number(key), 8);
                case "rr.sink_to" -> assertHex(as, readRequest(rdmap, v).get("sinkTo"), v.number(key), 16);
                case "rr.rdma_read_message_size",
                        "rr.rdma_rd_sz" -> assertThat(readRequest(rdmap, v).get("size")).as(as)
                        .isEqualTo(v.number(key));
                case "rr.src_stag" -> assertHex(as, readRequest(rdmap, v).get("srcStag"), v.number(key), 8);
                case "rr.src_to" -> assertHex(as, readRequest(rdmap, v).get("srcTo"), v.number(key), 16);
                case "atomic.aopcode" -> assertThat(atomic(rdmap, v).get("aopcode")).as(as).isEqualTo(v.number(key));
                case "atomic.request_id" ->
                        assertThat(atomic(rdmap, v).get("requestId")).as(as).isEqualTo(v.number(key));
                case "atomic.remote_stag" -> assertHex(as, atomic(rdmap, v).get("remoteStag"), v.number(key), 8);
                case "atomic.remote_to" -> assertHex(as, atomic(rdmap, v).get("remoteTo"), v.number(key), 16);
                case "atomic.add_or_swap_data" ->
                        assertHex(as, atomic(rdmap, v).get("addOrSwapData"), v.number(key), 16);
                case "atomic.add_or_swap_mask" ->
                        assertHex(as, atomic(rdmap, v).get("addOrSwapMask"), v.number(key), 16);
                case "atomic.compare_data" -> assertHex(as, atomic(rdmap, v).get("compareData"), v.number(key), 16);
                case "atomic.compare_mask" -> assertHex(as, atomic(rdmap, v).get("compareMask"), v.number(key), 16);
                case "atomic.orig_request_id" ->
                        assertThat(atomic(rdmap, v).get("originalRequestId")).as(as).isEqualTo(v.number(key));
                case "atomic.orig_remote_data" ->
                        assertHex(as, atomic(rdmap, v).get("originalRemoteData"), v.number(key), 16);
                case "immediate_data" -> assertThat(rdmap.get("immediate")).as(as)
                        .isEqualTo(String.format("%016x", v.number(key)));
                default -> {
                    if (key.startsWith("term.")) {
                        terminateField(v, key, terminate(rdmap, v));
                    } else if (key.startsWith("ddp.") || key.startsWith("rdmap.") || key.startsWith("rr.")
                            || key.startsWith("atomic.")) {
                        fail(what + ": vector field " + key + " is not mapped to explain's JSON");
                    }
                }
            }
        }
        if (opcode == 7 && v.has("term.d") && v.flag("term.d") && !copiedHex(v, "ddp").isEmpty()) {
            Map<String, Object> t = terminate(rdmap, v);
            // "copiedHeader": everything after the DDP Segment Length: the copied DDP header, then the RDMA header.
            assertThat(t.get("copiedHeader")).as(what + " copiedHeader")
                    .isEqualTo(copiedHex(v, "ddp") + (v.flag("term.r") ? copiedHex(v, "rdma") : ""));
        }
    }

    private static void terminateField(GoldenVector v, String key, Map<String, Object> t) {
        String as = v.name() + " " + key;
        String value = v.field(key).trim();
        switch (key) {
            case "term.layer" -> assertThat(t.get("layer")).as(as).isEqualTo(v.number(key));
            case "term.etype" -> assertThat(t.get("etype")).as(as).isEqualTo(v.number(key));
            case "term.error_code" -> assertThat(t.get("code")).as(as).isEqualTo(v.number(key));
            case "term.m" -> assertThat(t.get("m")).as(as).isEqualTo(v.flag(key));
            case "term.d" -> assertThat(t.get("d")).as(as).isEqualTo(v.flag(key));
            case "term.r" -> assertThat(t.get("r")).as(as).isEqualTo(v.flag(key));
            case "term.ddp_segment_length" -> assertThat(t.get("ddpSegmentLength")).as(as).isEqualTo(v.number(key));
            case "term.terminated_ddp_header_hex",
                    "term.ddp_header_hex" -> assertThat(t.get("copiedDdpHeader")).as(as).isEqualTo(value);
            case "term.terminated_rdma_header_hex",
                    "term.rdma_header_hex" -> assertThat(t.get("copiedRdmaHeader")).as(as).isEqualTo(value);
            case "term.control_word_hex" -> assertThat(t.get("controlWord")).as(as).isEqualTo(value);
            case "term.layout" -> {
                if (value.equals("bit-mirrored")) {
                    assertThat(t.get("layout")).as(as).isEqualTo("siw-mirrored");
                } else {
                    // "both readings plausible": whichever layout was chosen, the fields above must be siw's.
                    assertThat(value).as(as).startsWith("bit-mirrored (both readings plausible");
                    assertThat(t.get("layout")).as(as).isIn("siw-mirrored", "rfc");
                }
            }
            case "term.rfc5040_reading" -> {
                Matcher m = RFC_READING.matcher(value);
                assertThat(m.matches()).as(as + " parses").isTrue();
                Map<String,
                        Object> reading = Map.of("layer", Long.parseLong(m.group(1)), "etype",
                        Long.parseLong(m.group(2)),
                        "code", Long.parseLong(m.group(3), 16), "m", m.group(4).equals("1"), "d",
                        m.group(5).equals("1"),
                        "r", m.group(6).equals("1"), "reserved", Long.parseLong(m.group(7), 16));
                if ("siw-mirrored".equals(t.get("layout"))) {
                    assertThat(object(t, "rfcReading", v)).as(as).isEqualTo(reading);
                } else {
                    // Read as RFC layout: only possible when both readings mean the same.
                    reading.forEach((k, x) -> {
                        if (!k.equals("reserved")) {
                            assertThat(t.get(k)).as(as + " " + k).isEqualTo(x);
                        }
                    });
                }
            }
            default -> fail(v.name() + ": vector field " + key + " is not mapped to explain's JSON");
        }
    }

    private static String copiedHex(GoldenVector v, String which) {
        for (String key : List.of("term.terminated_" + which + "_header_hex", "term." + which + "_header_hex")) {
            if (v.has(key)) {
                return v.field(key).trim();
            }
        }
        return "";
    }

    private static List<String> rdmapKeys(long opcode) {
        List<String> keys = new ArrayList<>(List.of("rv", "rsv", "opcode", "opcodeCode"));
        if (PAYLOAD_OPCODES.contains(opcode)) {
            keys.add("payloadLength");
        }
        if (opcode == 4 || opcode == 6) {
            keys.add("invalidateStag");
        } else if (opcode == 1) {
            keys.add("readRequest");
        } else if (opcode == 7) {
            keys.add("terminate");
        } else if (opcode == 8 || opcode == 9) {
            keys.add("immediate");
        } else if (opcode == 10 || opcode == 11) {
            keys.add("atomic");
        }
        return keys;
    }

    private static Map<String, Object> readRequest(Map<String, Object> rdmap, GoldenVector v) {
        Map<String, Object> rr = object(rdmap, "readRequest", v);
        assertThat(rr.keySet()).containsExactly("sinkStag", "sinkTo", "size", "srcStag", "srcTo");
        return rr;
    }

    private static Map<String, Object> atomic(Map<String, Object> rdmap, GoldenVector v) {
        Map<String, Object> a = object(rdmap, "atomic", v);
        assertThat(a.keySet()).as(v.name()).isIn(Set.of("originalRequestId", "originalRemoteData"),
                Set.of("reserved", "aopcode", "aopcodeName", "requestId", "remoteStag", "remoteTo", "addOrSwapData",
                        "addOrSwapMask", "compareData", "compareMask"));
        return a;
    }

    private static Map<String, Object> terminate(Map<String, Object> rdmap, GoldenVector v) {
        Map<String, Object> t = object(rdmap, "terminate", v);
        assertThat(t).containsKeys("layer", "etype", "code", "m", "d", "r", "ddpSegmentLength", "copiedHeader");
        return t;
    }

    /** {@code 0x} and exactly {@code digits} lower-case hex digits, of the value {@code expected}. */
    static void assertHex(String as, Object json, long expected, int digits) {
        assertThat(json).as(as).isInstanceOf(String.class);
        String s = (String) json;
        assertThat(s).as(as).matches("0x[0-9a-f]{" + digits + "}");
        assertThat(Long.parseUnsignedLong(s.substring(2), 16)).as(as).isEqualTo(expected);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> parent, String key, GoldenVector v) {
        Object o = parent.get(key);
        assertThat(o).as(v.name() + ": \"" + key + "\" in " + parent).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
