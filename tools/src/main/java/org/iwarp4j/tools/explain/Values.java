package org.iwarp4j.tools.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.HexFormat;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.verbs.Stag;

/**
 * How explain writes the values of DDP and RDMAP fields: STags, TOs and 64-bit values as {@code 0x}
 * hex (strings in JSON, so no script loses bits to a double), other fields as unsigned numbers.
 */
final class Values {

    private Values() {}

    /** {@code 0x1a2b3c4d}. */
    static String stag(int stag) {
        return hex(stag, 8);
    }

    /** {@code 0x0000000000100040}: a Tagged Offset or any other 64-bit value. */
    static String hex64(long value) {
        return hex(value, 16);
    }

    /**
     * {@code 0x} and the value's hex digits (two's complement, as {@code %x} writes an int), at least {@code digits}
     * of them. Not {@code String.format}: explain writes thousands of these per capture.
     */
    static String hex(int value, int digits) {
        return padded(Integer.toHexString(value), digits);
    }

    /** The same for a 64-bit value ({@code %x} of a long). */
    static String hex(long value, int digits) {
        return padded(Long.toHexString(value), digits);
    }

    /** {@code 0x0040 (64)}: hex with at least {@code digits} digits, then the signed decimal. */
    static String hexAndDecimal(int value, int digits) {
        return hex(value, digits) + " (" + value + ")";
    }

    /** The same for a 64-bit value. */
    static String hexAndDecimal(long value, int digits) {
        return hex(value, digits) + " (" + value + ")";
    }

    /**
     * A Terminate's notes one by one: {@code notes.split("; ")} without a regular expression (explain splits them
     * per Terminate; a two-character separator is no fast path of {@code String.split}).
     */
    static List<String> notes(String notes) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int at = notes.indexOf("; "); at >= 0; at = notes.indexOf("; ", from)) {
            parts.add(notes.substring(from, at));
            from = at + 2;
        }
        parts.add(notes.substring(from));
        int n = parts.size();
        if (n > 1) { // as String.split: trailing empty strings go, when there was a separator
            while (n > 0 && parts.get(n - 1).isEmpty()) {
                n--;
            }
        }
        return parts.subList(0, n);
    }

    /** The hex digits alone, at least {@code digits} of them ({@code %0Nx} of an int). */
    static String digits(int value, int digits) {
        String hexDigits = Integer.toHexString(value);
        if (hexDigits.length() >= digits) {
            return hexDigits;
        }
        StringBuilder b = new StringBuilder(digits);
        for (int i = hexDigits.length(); i < digits; i++) {
            b.append('0');
        }
        return b.append(hexDigits).toString();
    }

    private static String padded(String hexDigits, int digits) {
        StringBuilder b = new StringBuilder(2 + Math.max(digits, hexDigits.length())).append("0x");
        for (int i = hexDigits.length(); i < digits; i++) {
            b.append('0');
        }
        return b.append(hexDigits).toString();
    }

    /** The usual split of an STag (Linux siw, iwarp4j): {@code index 0x1a2b3c, key 0x4d}. */
    static String stagParts(int stag) {
        Stag s = new Stag(stag);
        return "index " + hex(s.index(), 6) + ", key " + hex(s.key(), 2);
    }

    /** An unsigned 32-bit field for people. */
    static String u32(int value) {
        return Integer.toUnsignedString(value);
    }

    static Json stagJson(int stag) {
        return Json.str(stag(stag));
    }

    static Json hex64Json(long value) {
        return Json.str(hex64(value));
    }

    static Json u32Json(int value) {
        return Json.num(Integer.toUnsignedLong(value));
    }

    /** Octets as lower-case hex without separators, e.g. the {@code ulpdu} member. */
    static String hex(byte[] octets) {
        return HexFormat.of().formatHex(octets);
    }

    /** Octets as spaced hex for people: {@code 01 23 45 67}. */
    static String spacedHex(byte[] octets) {
        return HexFormat.ofDelimiter(" ").formatHex(octets);
    }
}
