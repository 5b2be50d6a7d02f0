package org.iwarp4j.tools.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A JSON value: just enough of JSON for the tools' machine-readable output. Numbers are integers
 * (every protocol field is one) or, for measurements, {@link Real}s; {@link JsonWriter} turns a value into text.
 */
public sealed interface Json {

    /** A JSON string. */
    record Str(String value) implements Json {
        public Str {
            Objects.requireNonNull(value);
        }
    }

    /** A JSON integer. */
    record Num(long value) implements Json {}

    /** A finite JSON number with a fraction (measurements); written with up to 6 decimals. */
    record Real(double value) implements Json {
        public Real {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("JSON has no " + value);
            }
        }
    }

    /** {@code true} or {@code false}. */
    record Bool(boolean value) implements Json {}

    /** {@code null}. */
    enum Null implements Json { NULL }

    /** A JSON array. */
    record Arr(List<Json> items) implements Json {
        public Arr {
            items = List.copyOf(items);
        }
    }

    /** A JSON object; members keep their order. */
    record Obj(List<Member> members) implements Json {
        public Obj {
            members = List.copyOf(members);
        }

        /** The value of member {@code key}, or {@code null} when there is none. */
        public Json get(String key) {
            for (Member m : members) {
                if (m.key().equals(key)) {
                    return m.value();
                }
            }
            return null;
        }
    }

    /** One {@code "key": value} pair of an object. */
    record Member(String key, Json value) {
        public Member {
            Objects.requireNonNull(key);
            Objects.requireNonNull(value);
        }
    }

    static Json str(String value) {
        return new Str(value);
    }

    static Json num(long value) {
        return new Num(value);
    }

    static Json real(double value) {
        return new Real(value);
    }

    /** {@code null} when {@code value} is not finite (not measured), else a {@link Real}. */
    static Json realOrNull(double value) {
        return Double.isFinite(value) ? new Real(value) : Null.NULL;
    }

    static Json bool(boolean value) {
        return new Bool(value);
    }

    /** {@code null} when {@code value} is null, else a boolean. */
    static Json boolOrNull(Boolean value) {
        return value == null ? Null.NULL : new Bool(value);
    }

    static Json arr(List<? extends Json> items) {
        return new Arr(new ArrayList<>(items));
    }

    /** An object from alternating keys and values: {@code obj("offset", num(4), "fpduPtr", num(0))}. */
    static Obj obj(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate");
        }
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            members.add(new Member((String) keysAndValues[i], (Json) keysAndValues[i + 1]));
        }
        return new Obj(members);
    }
}
