package org.iwarp4j.tools.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser for tests, independent of the writer under test: objects become
 * {@code LinkedHashMap}, arrays {@code List}, integers {@code Long}, fractions {@code Double}, plus {@code String},
 * {@code Boolean} and {@code null}. Anything that is not RFC 8259 JSON throws.
 */
public final class TinyJson {

    private final String s;
    private int at;

    private TinyJson(String s) {
        this.s = s;
    }

    public static Object parse(String text) {
        TinyJson p = new TinyJson(text);
        p.ws();
        Object v = p.value();
        p.ws();
        if (p.at != text.length()) {
            throw p.error("trailing characters");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> parseArrayOfObjects(String text) {
        Object v = parse(text);
        if (!(v instanceof List<?> list)) {
            throw new IllegalArgumentException("not an array: " + text);
        }
        for (Object o : list) {
            if (!(o instanceof Map)) {
                throw new IllegalArgumentException("not an object: " + o);
            }
        }
        return (List<Map<String, Object>>) v;
    }

    private Object value() {
        if (at >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(at);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character");
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        at++;
        ws();
        if (peek() == '}') {
            at++;
            return m;
        }
        while (true) {
            ws();
            if (peek() != '"') {
                throw error("expected a key");
            }
            String k = string();
            ws();
            expect(':');
            ws();
            int before = m.size();
            m.put(k, value());
            if (m.size() == before) { // not containsKey: under Jazzer every Map lookup is a hooked comparison
                throw error("duplicate key " + k);
            }
            ws();
            char c = next();
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw error("expected , or }");
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        at++;
        ws();
        if (peek() == ']') {
            at++;
            return l;
        }
        while (true) {
            ws();
            l.add(value());
            ws();
            char c = next();
            if (c == ']') {
                return l;
            }
            if (c != ',') {
                throw error("expected , or ]");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("raw control character in string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"' -> b.append('"');
                case '\\' -> b.append('\\');
                case '/' -> b.append('/');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (at + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Object number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
        } else {
            while (at < s.length() && Character.isDigit(s.charAt(at))) {
                at++;
            }
        }
        if (at == start || at == start + 1 && s.charAt(start) == '-') {
            throw error("bad number");
        }
        String digits = s.substring(start, at);
        if (at < s.length() && s.charAt(at) == '.') {
            // A fraction (the tools write measurements so): RFC 8259 §6 frac = "." 1*DIGIT; no exponents are written.
            at++;
            int fraction = at;
            while (at < s.length() && Character.isDigit(s.charAt(at))) {
                at++;
            }
            if (at == fraction) {
                throw error("bad fraction");
            }
            return Double.parseDouble(s.substring(start, at));
        }
        if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E')) {
            throw error("exponents are not expected");
        }
        return Long.parseLong(digits);
    }

    private Object literal(String word, Object v) {
        for (int i = 0; i < word.length(); i++) {
            if (at + i >= s.length() || s.charAt(at + i) != word.charAt(i)) {
                throw error("bad literal");
            }
        }
        at += word.length();
        return v;
    }

    private void ws() {
        while (at < s.length() && isWhitespace(s.charAt(at))) {
            at++;
        }
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private char peek() {
        return at < s.length() ? s.charAt(at) : '\0';
    }

    private char next() {
        if (at >= s.length()) {
            throw error("unexpected end");
        }
        return s.charAt(at++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected " + c);
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at " + at + " in: " + s);
    }
}
