package org.iwarp4j.tools.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonWriterTest {

    @Test
    void writesEveryKindOfValue() {
        Json v = Json.obj("s", Json.str("a\"b\\c"), "n", Json.num(-5), "big", Json.num(0xffffffffL),
                "t", Json.bool(true), "f", Json.bool(false), "z", Json.Null.NULL,
                "a", Json.arr(List.of(Json.num(1), Json.obj())), "e", Json.arr(List.of()));
        assertThat(JsonWriter.write(v)).isEqualTo(
                "{\"s\":\"a\\\"b\\\\c\",\"n\":-5,\"big\":4294967295,\"t\":true,\"f\":false,\"z\":null,"
                        + "\"a\":[1,{}],\"e\":[]}");
    }

    /** A measurement that was not taken (NaN, or infinite from a division by nothing) is written as null. */
    @Test
    void aRealThatIsNotFiniteIsNull() {
        assertThat(JsonWriter.write(Json.arr(List.of(Json.realOrNull(1.25), Json.realOrNull(Double.NaN),
                Json.realOrNull(Double.POSITIVE_INFINITY), Json.realOrNull(-0.5))))).isEqualTo("[1.25,null,null,-0.5]");
    }

    /** A file of JSON holds one line, UTF-8, ended by a newline, and replaces what the file held. */
    @Test
    void writesAFileAsOneLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("out.json");
        Files.writeString(file, "an older and much longer content\n\n");
        JsonWriter.writeFile(file, Json.obj("name", Json.str("\u00e9"), "n", Json.num(3)));
        assertThat(Files.readAllBytes(file)).isEqualTo("{\"name\":\"\u00e9\",\"n\":3}\n"
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void escapesControlCharactersAndLoneSurrogates() {
        assertThat(JsonWriter.write(Json.str("\n\r\t\b\f\u0000\u001f\u007f")))
                .isEqualTo("\"\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f\"");
        assertThat(JsonWriter.write(Json.str("\ud800x"))).isEqualTo("\"\\ud800x\"");
        assertThat(JsonWriter.write(Json.str("\udc00"))).isEqualTo("\"\\udc00\"");
        assertThat(JsonWriter.write(Json.str("\ud83d\ude00 §"))).isEqualTo("\"\ud83d\ude00 §\"");
        assertThat(JsonWriter.write(Json.str("\u2028"))).isEqualTo("\"\\u2028\"");
    }

    /** Each char between plain ones: escaped exactly when it must be (or is a line terminator for JavaScript). */
    @Test
    void everyCharIsEscapedExactlyWhenItMustBe() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String expected = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                default -> c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029 || Character.isSurrogate((char) c)
                        ? String.format("\\u%04x", c) : String.valueOf((char) c);
            };
            assertThat(JsonWriter.write(Json.str("ab" + (char) c + "cd"))).isEqualTo("\"ab" + expected + "cd\"");
        }
        assertThat(JsonWriter.write(Json.str("\"\ud83d\ude00\"\ud83d"))).isEqualTo("\"\\\"\ud83d\ude00\\\"\\ud83d\"");
    }

    /** RFC 8259 §7: any string written and parsed back is the same string. */
    @Test
    void everyStringRoundTrips() {
        qt().withExamples(500).forAll(strings().allPossible().ofLengthBetween(0, 40)).checkAssert(s -> {
            String json = JsonWriter.write(Json.obj(s, Json.str(s)));
            @SuppressWarnings("unchecked")
            Map<String, Object> back = (Map<String, Object>) TinyJson.parse(json);
            assertThat(back).containsExactly(Map.entry(s, s));
            assertThat(json.chars().noneMatch(c -> c < 0x20)).isTrue();
        });
    }

    @Test
    void layersBecomeObjectsWithNestedLayersAfterTheirMembers() {
        Layer frame = new Layer("FPDU", null)
                .json("type", Json.str("fpdu"))
                .field("ULPDU_Length", "0x0022 (34)", "RFC 5044 §4.1", "octets", "ulpduLength", Json.num(34))
                .row("people only", "x", "", "")
                .child(new Layer("DDP", "ddp").json("t", Json.bool(false)))
                .child(new Layer("people only", null).json("hidden", Json.num(1)));
        assertThat(JsonWriter.write(frame.toJson()))
                .isEqualTo("{\"type\":\"fpdu\",\"ulpduLength\":34,\"ddp\":{\"t\":false}}");
        assertThat(frame.member("ulpduLength")).isEqualTo(Json.num(34));
        assertThat(frame.member("nope")).isNull();
    }

    @Test
    void rendersAnArrayOneFramePerLine() {
        Layer a = new Layer("a", null).json("type", Json.str("x"));
        Layer b = new Layer("b", null).json("type", Json.str("y"));
        assertThat(JsonRenderer.render(List.of(a, b))).isEqualTo("[\n{\"type\":\"x\"},\n{\"type\":\"y\"}\n]\n");
        assertThat(JsonRenderer.render(List.of())).isEqualTo("[]\n");
        assertThat(TinyJson.parseArrayOfObjects(JsonRenderer.render(List.of(a, b)))).hasSize(2);
    }
}
