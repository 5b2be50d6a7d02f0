package org.iwarp4j.tools.report;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@link Json} values as RFC 8259 text: compact, members in order, strings escaped so that any
 * Java string (including control characters and lone surrogates) comes out as valid JSON.
 */
public final class JsonWriter {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final byte PLAIN = 0;
    private static final byte ESCAPED = 1;
    private static final byte SURROGATE = 2;
    /** What {@link #string} does with each char. */
    private static final byte[] KIND = kinds();

    private JsonWriter() {}

    public static String write(Json value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** Writes {@code value} to {@code file} as one line (UTF-8, ending in a newline), replacing what was there. */
    public static void writeFile(Path file, Json value) throws IOException {
        Files.writeString(file, write(value) + "\n", StandardCharsets.UTF_8);
    }

    public static void write(Json value, StringBuilder out) {
        if (value instanceof Json.Str s) {
            string(s.value(), out);
        } else if (value instanceof Json.Num n) {
            out.append(n.value());
        } else if (value instanceof Json.Real r) {
            out.append(BigDecimal.valueOf(r.value()).setScale(6, RoundingMode.HALF_EVEN)
                    .stripTrailingZeros().toPlainString());
        } else if (value instanceof Json.Bool b) {
            out.append(b.value());
        } else if (value == Json.Null.NULL) {
            out.append("null");
        } else if (value instanceof Json.Arr a) {
            out.append('[');
            for (int i = 0; i < a.items().size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(a.items().get(i), out);
            }
            out.append(']');
        } else if (value instanceof Json.Obj o) {
            out.append('{');
            for (int i = 0; i < o.members().size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                Json.Member m = o.members().get(i);
                string(m.key(), out);
                out.append(':');
                write(m.value(), out);
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("unknown JSON value " + value);
        }
    }

    /**
     * RFC 8259 §7: quote, reverse solidus and U+0000..U+001F must be escaped; lone surrogates too (not
     * UTF-8-encodable). DEL, U+2028 and U+2029 are escaped as well (JavaScript's line terminators).
     */
    static void string(String s, StringBuilder out) {
        out.append('"');
        int n = s.length();
        int copied = 0; // s[copied, i) goes out as it is, in one append
        // A table look-up per char, rather than comparing every char with each special one; and the plain start,
        // mostly the whole string, tested 8 chars at a time: an explanation is thousands of strings, and under the
        // fuzzer every comparison is a call.
        int i = 0;
        while (i + 8 <= n && (KIND[s.charAt(i)] | KIND[s.charAt(i + 1)] | KIND[s.charAt(i + 2)]
                | KIND[s.charAt(i + 3)] | KIND[s.charAt(i + 4)] | KIND[s.charAt(i + 5)] | KIND[s.charAt(i + 6)]
                | KIND[s.charAt(i + 7)]) == PLAIN) {
            i += 8;
        }
        for (; i < n; i++) {
            char c = s.charAt(i);
            switch (KIND[c]) {
                case PLAIN -> {
                    continue;
                }
                case SURROGATE -> {
                    if (paired(s, i)) {
                        continue;
                    }
                }
                default -> { }
            }
            out.append(s, copied, i);
            escape(c, out);
            copied = i + 1;
        }
        out.append(s, copied, n).append('"');
    }

    /** Whether the surrogate at {@code i} is half of a pair. */
    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static void escape(char c, StringBuilder out) {
        switch (c) {
            case '"' -> out.append("\\\"");
            case '\\' -> out.append("\\\\");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case '\b' -> out.append("\\b");
            case '\f' -> out.append("\\f");
            default -> out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15])
                    .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
        }
    }

    private static byte[] kinds() {
        byte[] kind = new byte[Character.MAX_VALUE + 1];
        for (int c = 0; c < 0x20; c++) {
            kind[c] = ESCAPED;
        }
        kind['"'] = ESCAPED;
        kind['\\'] = ESCAPED;
        kind[0x7f] = ESCAPED;
        kind['\u2028'] = ESCAPED;
        kind['\u2029'] = ESCAPED;
        for (int c = Character.MIN_SURROGATE; c <= Character.MAX_SURROGATE; c++) {
            kind[c] = SURROGATE;
        }
        return kind;
    }
}
