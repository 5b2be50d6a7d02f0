package org.iwarp4j.oracle;

import java.util.HexFormat;

/** Hex dumps and diffs for failure messages. */
public final class Hex {

    private static final HexFormat HEX = HexFormat.of();
    /** Octets shown around the first difference. */
    private static final int CONTEXT = 16;
    /** Longest dump printed in full. */
    private static final int MAX_DUMP = 256;

    private Hex() {}

    /** Lower-case hex of all octets (long inputs are shortened in the middle). */
    public static String of(byte[] b) {
        if (b.length <= MAX_DUMP) {
            return HEX.formatHex(b);
        }
        return HEX.formatHex(b, 0, MAX_DUMP / 2) + "…(" + (b.length - MAX_DUMP) + " octets)…"
                + HEX.formatHex(b, b.length - MAX_DUMP / 2, b.length);
    }

    public static byte[] parse(String hex) {
        return HEX.parseHex(hex.replaceAll("\\s+", ""));
    }

    /** Index of the first octet where the two differ, or -1 if equal. */
    public static int firstDifference(byte[] expected, byte[] actual) {
        int n = Math.min(expected.length, actual.length);
        for (int i = 0; i < n; i++) {
            if (expected[i] != actual[i]) {
                return i;
            }
        }
        return expected.length == actual.length ? -1 : n;
    }

    /** A readable comparison: lengths, first differing offset, and both sides around it. */
    public static String diff(byte[] expected, byte[] actual) {
        int d = firstDifference(expected, actual);
        if (d < 0) {
            return "identical (" + expected.length + " octets)";
        }
        int from = Math.max(0, d - CONTEXT);
        return "first difference at octet " + d + " (expected " + expected.length + " octets, got " + actual.length
                + ")\n  expected [" + from + "..]: " + window(expected, from, d)
                + "\n  arrived  [" + from + "..]: " + window(actual, from, d);
    }

    private static String window(byte[] b, int from, int mark) {
        if (from >= b.length) {
            return "(ends at " + b.length + ")";
        }
        int to = Math.min(b.length, mark + CONTEXT);
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            if (i == mark) {
                sb.append('>');
            }
            sb.append(HEX.toHexDigits(b[i]));
            if (i == mark) {
                sb.append('<');
            }
            sb.append(i + 1 < to ? " " : "");
        }
        return sb + (to < b.length ? " …" : "");
    }
}
