package org.iwarp4j.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The module's own files ({@code EXCLUSIONS.md}) and the shared spec, if present. */
final class ModuleFiles {

    private static final Pattern ROW = Pattern.compile("^\\|\\s*((?:MPA|DDP|RDMAP|EXT)-\\d+)\\s*\\|(.*)\\|\\s*$");

    private ModuleFiles() {}

    /** The module directory (surefire's {@code basedir}, else the working directory). */
    static Path moduleDir() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    }

    /**
     * ID → the rest of its table row, for every {@code | ID | … |} row of a markdown file of this module;
     * empty if the file does not exist.
     */
    static Map<String, String> tableRows(String fileName) {
        Path file = moduleDir().resolve(fileName);
        Map<String, String> rows = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return rows;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                Matcher m = ROW.matcher(line);
                if (m.find()) {
                    String rest = m.group(2).replaceAll("\\s*\\|\\s*", " | ").trim();
                    if (rows.put(m.group(1), rest) != null) {
                        throw new IllegalStateException(fileName + " lists " + m.group(1) + " twice");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return rows;
    }

    /**
     * {@code shared/spec/requirements.md} found by walking up from the module directory (the layout of
     * the project's machines: {@code /work/shared} next to {@code /work/main} and {@code /work/wt/*}).
     */
    static Optional<Path> sharedRequirements() {
        for (Path p = moduleDir(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("spec").resolve("requirements.md");
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
