package org.iwarp4j.conformance.support;

import org.iwarp4j.testkit.ConversationStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Linux siw fixtures of {@code src/test/resources/siw/} (made by the interop lab, see its README):
 * {@code .vec} files in the golden-vector format and whole-connection pcaps.
 */
public final class SiwFixtures {

    /** One {@code .vec} fixture: its {@code key: value} fields ({@code desc} lines joined). */
    public record Fixture(String name, Map<String, String> fields) {
        public String field(String key) {
            String v = fields.get(key);
            if (v == null) {
                throw new IllegalArgumentException(name + " has no field " + key);
            }
            return v;
        }

        public boolean has(String key) {
            return fields.containsKey(key) && !fields.get(key).equals("-");
        }

        public byte[] hex(String key) {
            return HexFormat.of().parseHex(field(key));
        }

        public byte[] bytes() {
            return hex("hex");
        }

        public int intField(String key) {
            String v = field(key);
            return v.startsWith("0x") ? Integer.parseUnsignedInt(v.substring(2), 16) : Integer.parseInt(v);
        }

        public String kind() {
            return field("kind");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private SiwFixtures() {}

    private static Path root() {
        try {
            return Path.of(SiwFixtures.class.getResource("/siw/README.md").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every {@code .vec} fixture, by file name. */
    public static List<Fixture> all() {
        try (Stream<Path> files = Files.list(root())) {
            return files.filter(p -> p.toString().endsWith(".vec")).sorted().map(SiwFixtures::load).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Fixture named(String name) {
        return load(root().resolve(name + ".vec"));
    }

    /** Every pcap file name under {@code siw/pcap/}. */
    public static List<String> pcaps() {
        try (Stream<Path> files = Files.list(root().resolve("pcap"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".pcap")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] pcap(String name) {
        try {
            return Files.readAllBytes(root().resolve("pcap").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The conversation of pcap {@code name} (under {@code siw/pcap/}), checked to be its one MPA connection. */
    public static ConversationStream conversation(String name) {
        List<ConversationStream> streams = CaptureStreams.conversations(name, pcap(name));
        assertThat(streams).hasSize(1);
        return streams.get(0);
    }

    private static Fixture load(Path p) {
        Map<String, String> fields = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                int i = line.indexOf(": ");
                String key = i < 0 ? line.replace(":", "").trim() : line.substring(0, i);
                String value = i < 0 ? "" : line.substring(i + 2).trim();
                fields.merge(key, value, (a, b) -> a + " " + b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String file = p.getFileName().toString();
        return new Fixture(file.substring(0, file.length() - 4), fields);
    }
}
