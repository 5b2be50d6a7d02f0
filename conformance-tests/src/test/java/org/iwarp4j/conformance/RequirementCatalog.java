package org.iwarp4j.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbered requirements of {@code requirements.md} (a copy in this module's test resources, checked
 * against the digest's original by {@link RequirementsCopyTest}; see docs/protocol/requirements.md): one table
 * row per ID.
 */
public final class RequirementCatalog {

    /** One row: {@code | MPA-17 | MUST | 4.3, 7.1.2 r7 | text | vectors |}. */
    public record Entry(String id, String level, String section, String text) {
        /** The ID block: MPA, DDP, RDMAP or EXT. */
        public String block() {
            return id.substring(0, id.indexOf('-'));
        }
    }

    static final Pattern ROW =
            Pattern.compile("^\\|\\s*((?:MPA|DDP|RDMAP|EXT)-\\d+)\\s*\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|");
    /** An ID as cited anywhere. */
    public static final Pattern ID = Pattern.compile("(?:MPA|DDP|RDMAP|EXT)-\\d{2}");

    private final Map<String, Entry> entries;

    private RequirementCatalog(Map<String, Entry> entries) {
        this.entries = entries;
    }

    /** The copy in the test resources. */
    public static RequirementCatalog load() {
        return parse(resourceText());
    }

    static String resourceText() {
        try (InputStream in = RequirementCatalog.class.getResourceAsStream("/requirements.md")) {
            if (in == null) {
                throw new IllegalStateException("requirements.md is missing from the test resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RequirementCatalog parse(String markdown) {
        Map<String, Entry> m = new LinkedHashMap<>();
        for (String line : markdown.lines().toList()) {
            Matcher r = ROW.matcher(line);
            if (r.find()) {
                String id = r.group(1);
                if (m.put(id, new Entry(id, r.group(2).trim(), r.group(3).trim(), r.group(4).trim())) != null) {
                    throw new IllegalStateException("requirement " + id + " is listed twice");
                }
            }
        }
        return new RequirementCatalog(m);
    }

    public Map<String, Entry> entries() {
        return entries;
    }

    public boolean contains(String id) {
        return entries.containsKey(id);
    }
}
