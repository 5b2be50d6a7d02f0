package org.iwarp4j.tools.report;

import java.util.HexFormat;
import java.util.List;

/**
 * Renders layers for people: the heading, then one aligned line per field
 * ({@code label  value  RFC section  meaning}), hex dumps with printable ASCII, and nested layers
 * indented below their parent.
 */
public final class HumanRenderer {

    private static final int INDENT = 2;
    private static final int MAX_VALUE_COLUMN = 26;
    private static final int DUMP_WIDTH = 16;
    private static final HexFormat HEX_SPACED = HexFormat.ofDelimiter(" ");
    /** How a dump shows each octet after the hex: printable ASCII as itself, the rest as a dot. */
    private static final char[] SHOWN = shown();
    /** Octets a dump shows unless asked for all: enough for every header, short enough to read. */
    public static final int DEFAULT_DUMP_LIMIT = 64;

    private final int dumpLimit;

    /** @param dumpLimit octets each hex dump shows at most ({@code Integer.MAX_VALUE}: all) */
    public HumanRenderer(int dumpLimit) {
        this.dumpLimit = dumpLimit;
    }

    /** One block per frame, separated by blank lines, every octet dumped. */
    public static String render(List<Layer> frames) {
        return new HumanRenderer(Integer.MAX_VALUE).renderAll(frames);
    }

    /** One block per frame, separated by blank lines. */
    public String renderAll(List<Layer> frames) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < frames.size(); i++) {
            if (i > 0) {
                out.append('\n');
            }
            render("", frames.get(i), 0, out);
        }
        return out.toString();
    }

    /** {@code layer} and its nested layers, its heading prefixed by {@code prefix} (e.g. a frame number). */
    public void render(String prefix, Layer layer, int depth, StringBuilder out) {
        String pad = " ".repeat(depth * INDENT);
        out.append(pad).append(prefix).append(layer.heading()).append('\n');
        String inner = pad + " ".repeat(INDENT);
        int labelWidth = 0;
        int valueWidth = 0;
        int rfcWidth = 0;
        for (Layer.Item item : layer.items()) {
            if (item instanceof Layer.Row r) {
                labelWidth = Math.max(labelWidth, r.label().length());
                if (r.value().length() <= MAX_VALUE_COLUMN) {
                    valueWidth = Math.max(valueWidth, r.value().length());
                }
                rfcWidth = Math.max(rfcWidth, r.rfc().length());
            } else if (item instanceof Layer.Dump d) {
                labelWidth = Math.max(labelWidth, d.label().length());
                valueWidth = Math.max(valueWidth, octets(d.bytes().length).length());
                rfcWidth = Math.max(rfcWidth, d.rfc().length());
            }
        }
        for (Layer.Item item : layer.items()) {
            if (item instanceof Layer.Row r) {
                row(out, inner, r.label(), labelWidth, r.value(), valueWidth, r.rfc(), rfcWidth, r.meaning());
            } else if (item instanceof Layer.Dump d) {
                byte[] bytes = d.bytes();
                String value = octets(bytes.length);
                row(out, inner, d.label(), labelWidth, value, valueWidth, d.rfc(), rfcWidth, d.meaning());
                dump(out, inner + " ".repeat(INDENT), bytes, dumpLimit);
            } else if (item instanceof Layer.Note n) {
                out.append(inner).append(n.text()).append('\n');
            }
        }
        for (Layer child : layer.children()) {
            render("", child, depth + 1, out);
        }
    }

    private static void row(StringBuilder out, String indent, String label, int labelWidth, String value,
                            int valueWidth, String rfc, int rfcWidth, String meaning) {
        StringBuilder line = new StringBuilder(indent);
        line.append(padRight(label, labelWidth)).append("  ").append(padRight(value, valueWidth));
        if (rfcWidth > 0 || !meaning.isEmpty()) {
            line.append("  ").append(padRight(rfc, rfcWidth));
        }
        if (!meaning.isEmpty()) {
            line.append("  ").append(meaning);
        }
        out.append(stripTrailing(line)).append('\n');
    }

    /** {@code 0000  41 43 00 00 ...  |AC..|}, 16 octets a line. */
    static void dump(StringBuilder out, String indent, byte[] bytes, int limit) {
        dump(out, indent, bytes, limit, " (--all-octets shows them)");
    }

    /** The same, {@code moreHint} after the count of octets not shown. */
    static void dump(StringBuilder out, String indent, byte[] bytes, int limit, String moreHint) {
        int shown = bytes.length <= limit ? bytes.length : Math.max(DUMP_WIDTH, limit - limit % DUMP_WIDTH);
        for (int at = 0; at < shown; at += DUMP_WIDTH) {
            int n = Math.min(DUMP_WIDTH, bytes.length - at);
            StringBuilder line = new StringBuilder(indent);
            // HexFormat and a table, not String.format or a test per octet: a dump is most of an explanation's
            // octets (and of a fuzzer's time, where every test is a call).
            String offset = Integer.toHexString(at);
            line.append("0".repeat(Math.max(0, 4 - offset.length()))).append(offset).append(' ');
            int left = Math.min(n, DUMP_WIDTH / 2);
            line.append(' ').append(HEX_SPACED.formatHex(bytes, at, at + left))
                    .append("   ".repeat(DUMP_WIDTH / 2 - left)).append(' ');
            int right = n - left;
            if (right > 0) {
                line.append(' ').append(HEX_SPACED.formatHex(bytes, at + left, at + n));
            }
            line.append("   ".repeat(DUMP_WIDTH / 2 - right)).append("  |");
            for (int i = 0; i < n; i++) {
                line.append(SHOWN[bytes[at + i] & 0xff]);
            }
            line.append('|');
            out.append(line).append('\n');
        }
        if (shown < bytes.length) {
            out.append(indent).append("... ").append(bytes.length - shown).append(" more octets").append(moreHint)
                    .append('\n');
        }
    }

    private static String octets(int n) {
        return n + (n == 1 ? " octet" : " octets");
    }

    private static String padRight(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String stripTrailing(StringBuilder s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static char[] shown() {
        char[] shown = new char[256];
        for (int b = 0; b < shown.length; b++) {
            shown[b] = b >= 0x20 && b < 0x7f ? (char) b : '.';
        }
        return shown;
    }
}
