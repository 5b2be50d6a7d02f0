package org.iwarp4j.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Loads the golden vectors, streams and pcaps in this module's resources ({@code /vectors/}, described in
 * its README), which {@code scripts/sync-vectors.sh} copies verbatim from the project's shared spec.
 * {@code VectorsCopyTest} checks the copy against the shared original whenever that is present.
 */
public final class GoldenVectors {

    private static final String ROOT = "/vectors/";
    private static volatile List<String> index;

    private GoldenVectors() {}

    /** Every resource path under {@code vectors/}, relative to it (e.g. {@code rdmap/fpdu-send.vec}). */
    public static List<String> index() {
        List<String> i = index;
        if (i == null) {
            String text = new String(resource("index.txt"), StandardCharsets.UTF_8);
            i = text.lines().filter(l -> !l.isBlank()).toList();
            index = i;
        }
        return i;
    }

    /** Every {@code .vec} vector. */
    public static List<GoldenVector> all() {
        return index().stream().filter(p -> p.endsWith(".vec")).map(GoldenVectors::load).toList();
    }

    /** The vectors of the given kinds ({@code crc32c}, {@code mpa-request}, {@code fpdu}, ...). */
    public static List<GoldenVector> ofKind(String... kinds) {
        Set<String> wanted = Set.of(kinds);
        return all().stream().filter(v -> wanted.contains(v.kind())).toList();
    }

    /** The vectors in one folder ({@code crc}, {@code mpa}, {@code rdmap}, {@code markers}). */
    public static List<GoldenVector> inGroup(String group) {
        return all().stream().filter(v -> v.group().equals(group)).toList();
    }

    /** One vector by name (file name without {@code .vec}). */
    public static GoldenVector named(String name) {
        return index().stream()
                .filter(p -> p.endsWith("/" + name + ".vec"))
                .findFirst()
                .map(GoldenVectors::load)
                .orElseThrow(() -> new NoSuchElementException("no vector named " + name));
    }

    /** Every conversation stream ({@code streams/*.stream}). */
    public static List<ConversationStream> streams() {
        return index().stream().filter(p -> p.endsWith(".stream")).map(GoldenVectors::loadStream).toList();
    }

    public static ConversationStream stream(String name) {
        return loadStream("streams/" + name + ".stream");
    }

    /** The octets of a file under {@code vectors/}, e.g. {@code iwarp-markers.pcap}. */
    public static byte[] resource(String relativePath) {
        try (InputStream in = GoldenVectors.class.getResourceAsStream(ROOT + relativePath)) {
            if (in == null) {
                throw new NoSuchElementException("no golden vector resource " + relativePath);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GoldenVector load(String path) {
        Map<String, String> fields = parseFields(path);
        String group = path.contains("/") ? path.substring(0, path.indexOf('/')) : "";
        return new GoldenVector(fields.get("name"), group, fields.get("kind"), fields);
    }

    static ConversationStream loadStream(String path) {
        String text = new String(resource(path), StandardCharsets.UTF_8);
        String name = null;
        StringBuilder desc = new StringBuilder();
        List<ConversationStream.Segment> segments = new ArrayList<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int i = line.indexOf(": ");
            String key = line.substring(0, i);
            String value = line.substring(i + 2);
            switch (key) {
                case "name" -> name = value;
                case "desc" -> desc.append(desc.length() == 0 ? "" : "\n").append(value);
                case "segment" -> segments.add(ConversationStream.parseSegment(value));
                default -> throw new IllegalArgumentException(path + ": unknown key " + key);
            }
        }
        return new ConversationStream(name, desc.toString(), List.copyOf(segments));
    }

    private static Map<String, String> parseFields(String path) {
        String text = new String(resource(path), StandardCharsets.UTF_8);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int i = line.indexOf(": ");
            String key = i < 0 ? line.substring(0, line.length() - 1) : line.substring(0, i);
            String value = i < 0 ? "" : line.substring(i + 2);
            fields.merge(key, value, (a, b) -> a + "\n" + b);
        }
        return fields;
    }
}
