package org.iwarp4j.tools.explain;

import java.io.ByteArrayOutputStream;

/**
 * Octets written as hex text, the way people paste them: whitespace anywhere is ignored (digits pair
 * up across it), and {@code #} starts a comment that runs to the end of the line.
 */
public final class HexInput {

    /** Hex text that is not octets; the message names the line and column. */
    public static final class BadHexException extends Exception {
        public BadHexException(String message) {
            super(message);
        }
    }

    private HexInput() {}

    public static byte[] parse(CharSequence text) throws BadHexException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() / 2);
        int line = 1;
        int column = 0;
        int pending = -1;
        int pendingLine = 0;
        int pendingColumn = 0;
        boolean comment = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            column++;
            if (c == '\n') {
                line++;
                column = 0;
                comment = false;
                continue;
            }
            if (comment || Character.isWhitespace(c)) {
                continue;
            }
            if (c == '#') {
                comment = true;
                continue;
            }
            int digit = Character.digit(c, 16);
            if (digit < 0 || c > 'f') {
                throw new BadHexException(String.format("line %d, column %d: '%s' is not a hex digit",
                        line, column, printable(c)));
            }
            if (pending < 0) {
                pending = digit;
                pendingLine = line;
                pendingColumn = column;
            } else {
                out.write(pending << 4 | digit);
                pending = -1;
            }
        }
        if (pending >= 0) {
            throw new BadHexException(String.format(
                    "odd number of hex digits: the digit at line %d, column %d has no partner", pendingLine,
                    pendingColumn));
        }
        return out.toByteArray();
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }
}
