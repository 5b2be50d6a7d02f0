package org.iwarp4j.testkit;

import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One golden vector from this module's {@code /vectors/} resources (a {@code .vec} file; format in that folder's
 * README): its name, kind and every {@code key: value} field in file order. Repeated keys (such as
 * {@code desc}) are joined with a newline.
 *
 * @param name   the file name without extension, e.g. {@code fpdu-send}
 * @param group  the folder it lives in: {@code crc}, {@code mpa}, {@code rdmap} or {@code markers}
 * @param kind {@code crc32c}, {@code mpa-request}, {@code mpa-reply}, {@code fpdu}, {@code fpdu-markers}, {@code table}
 * @param fields every field, in file order
 */
public record GoldenVector(String name, String group, String kind, Map<String, String> fields) {

    public GoldenVector {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** The exact octets of the vector ({@code hex}). */
    public byte[] bytes() {
        return hex("hex");
    }

    public boolean has(String key) {
        return fields.containsKey(key);
    }

    public String field(String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new NoSuchElementException(name + " has no field " + key);
        }
        return value;
    }

    /** A field holding hex octets ({@code -} or empty means no octets). */
    public byte[] hex(String key) {
        String value = field(key).trim();
        return value.isEmpty() || value.equals("-") ? new byte[0] : HexFormat.of().parseHex(value);
    }

    /** A numeric field, decimal or {@code 0x} hexadecimal, as an unsigned 64-bit value. */
    public long number(String key) {
        String value = field(key).trim();
        return value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value);
    }

    public int intField(String key) {
        return (int) number(key);
    }

    /** A {@code 0}/{@code 1} flag field. */
    public boolean flag(String key) {
        String value = field(key).trim();
        if (!value.equals("0") && !value.equals("1")) {
            throw new IllegalArgumentException(name + ": " + key + " is not a flag: " + value);
        }
        return value.equals("1");
    }

    @Override
    public String toString() {
        return group + "/" + name;
    }
}
