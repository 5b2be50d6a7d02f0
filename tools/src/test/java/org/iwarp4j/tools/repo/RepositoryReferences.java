package org.iwarp4j.tools.repo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the references in a repository's sources and documents that name a file the repository lacks: markdown
 * links ({@code [text](path)}, in {@code .md} files) and file-like words in any scanned file, that is paths ending
 * in {@code .md} and paths starting with {@code docs/}, {@code interop/}, {@code scripts/}, {@code samples/} or
 * {@code ../shared}. A markdown link resolves against its file's directory, as a markdown viewer resolves it; a
 * file-like word against its file's directory or any directory above it up to the root (so that a module may name
 * its own {@code EXCLUSIONS.md} and any file may name {@code docs/guide.md}), and in those directories' {@code
 * src/test/resources} and {@code src/main/resources} (a Java resource name such as {@code requirements.md}). Nothing
 * outside the root counts as found: {@code ../shared/...} never resolves. The text of a markdown link
 * ({@code [requirements.md](../x/requirements.md)}) is not a reference; its target is.
 */
final class RepositoryReferences {

    /** The kinds of file scanned, besides scripts without an extension ({@link #script}). */
    static final Set<String> EXTENSIONS = Set.of(".java", ".md", ".sh", ".py", ".txt", ".xml", ".c");

    /** Directories never scanned: build output and version control. */
    static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", "node_modules", "__pycache__");

    /**
     * Verbatim copies of the project's spec digest, pinned by SHA-256 ({@code RequirementsCopyTest},
     * {@code GoldenVectorsTest}) and therefore not edited: their bare file names mean the digest's own pages,
     * which docs/protocol/ replaces (docs/protocol/requirements.md says so).
     */
    static final List<String> VERBATIM_COPIES = List.of(
            "conformance-tests/src/test/resources/requirements.md",
            "testkit/src/main/resources/vectors/",
            // this scanner and its test, whose fixtures plant bad references on purpose
            "tools/src/test/java/org/iwarp4j/tools/repo/");

    /**
     * Names that are not references to a file of the repository, each with the reason. Keep this short: a
     * reference that can be rewritten to an in-repo page is rewritten.
     */
    static final Map<String, String> NOT_REFERENCES = Map.of(
            "results.md", "a file run-matrix.sh writes into its --out directory",
            "conformance-siw.md", "a file the matrix writes into its --out directory (docs/conformance-siw.md is one)",
            "shared/spec/requirements.md", "the digest's original outside the clone, which RequirementsCopyTest"
                    + " compares the pinned copy with when a machine has it");

    /** A placeholder directory in an example path ({@code DIR/results.md}, {@code OUT/...}). */
    private static final Pattern PLACEHOLDER = Pattern.compile("^[A-Z][A-Z_]*/.*");

    private static final Pattern MARKDOWN_LINK =
            Pattern.compile("!?\\[[^\\]\\n]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"\\n]*\")?\\s*\\)");

    /** A file-like word: not part of a longer path, URL or identifier (no word, '/', '.', '-', '@' or ':' before). */
    private static final Pattern FILE_WORD = Pattern.compile(
            "(?<![\\w./@:\\-\"$])("
                    + "(?:\\.\\./)*(?:[\\w.\\-]+/)*[\\w\\-][\\w.\\-]*\\.md"
                    + "|(?:\\.\\./)*(?:docs|interop|scripts|samples)/[\\w./\\-]*[\\w\\-]"
                    + "|(?:\\.\\./)+shared(?:/[\\w.\\-]*[\\w\\-])*"
                    + ")(?![\\w/\\-])");

    private RepositoryReferences() {}

    /** One reference that names a missing file: where it is and what it says. */
    record Dangling(String file, int line, String reference) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + reference;
        }
    }

    /** Every dangling reference under {@code root}, in file and line order. */
    static List<Dangling> scan(Path root) {
        Path top = root.toAbsolutePath().normalize();
        List<Dangling> found = new ArrayList<>();
        for (Path file : files(top)) {
            String relative = top.relativize(file).toString().replace('\\', '/');
            if (VERBATIM_COPIES.stream().anyMatch(relative::startsWith)) {
                continue;
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            boolean markdown = relative.endsWith(".md");
            for (int i = 0; i < lines.size(); i++) {
                Set<String> seen = new LinkedHashSet<>();
                String line = lines.get(i);
                if (markdown) {
                    StringBuilder masked = new StringBuilder(line);
                    Matcher m = MARKDOWN_LINK.matcher(line);
                    while (m.find()) {
                        for (int c = m.start(); c < m.start(1); c++) {
                            masked.setCharAt(c, ' '); // the link's text is no reference
                        }
                        String target = linkTarget(m.group(1));
                        if (target != null && !buildOutput(target) && seen.add(target)
                                && !exists(top, file.getParent(), target, false)) {
                            found.add(new Dangling(relative, i + 1, target));
                        }
                    }
                    line = masked.toString();
                }
                Matcher w = FILE_WORD.matcher(line);
                while (w.find()) {
                    String word = w.group(1);
                    if (NOT_REFERENCES.containsKey(word) || PLACEHOLDER.matcher(word).matches() || buildOutput(word)) {
                        continue;
                    }
                    if (seen.add(word) && !exists(top, file.getParent(), word, true)) {
                        found.add(new Dangling(relative, i + 1, word));
                    }
                }
            }
        }
        return found;
    }

    /**
     * Whether a reference names what a build or tool writes ({@code target/siw-matrix/results.md}): a clone lacks
     * it until something runs, and a machine that ran it has it, so its existence proves nothing either way.
     */
    private static boolean buildOutput(String reference) {
        for (String part : reference.split("/")) {
            if (SKIPPED_DIRECTORIES.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /** The file part of a link target, or null for a link that names no file of the repository. */
    private static String linkTarget(String raw) {
        String t = raw;
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.matches("^[a-z][a-z0-9+.\\-]*:.*") || t.startsWith("#") || t.startsWith("/")) {
            return null; // a URL (https:, mailto:), an anchor in the same page, or an absolute path
        }
        int cut = t.indexOf('#');
        if (cut >= 0) {
            t = t.substring(0, cut);
        }
        cut = t.indexOf('?');
        if (cut >= 0) {
            t = t.substring(0, cut);
        }
        return t.isEmpty() ? null : URLDecoder.decode(t, StandardCharsets.UTF_8);
    }

    /** Whether {@code reference} names a file or directory inside {@code root}. */
    private static boolean exists(Path root, Path dir, String reference, boolean searchUpwards) {
        for (Path base = dir; base != null && base.startsWith(root); base = base.getParent()) {
            Path candidate = base.resolve(reference).normalize();
            if (candidate.startsWith(root) && Files.exists(candidate)) {
                return true;
            }
            if (!searchUpwards) {
                return false;
            }
            for (String resources : List.of("src/test/resources", "src/main/resources")) {
                Path resource = base.resolve(resources).resolve(reference).normalize();
                if (resource.startsWith(root) && Files.exists(resource)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<Path> files(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> !skipped(root, p))
                    .filter(Files::isRegularFile)
                    .filter(p -> EXTENSIONS.stream().anyMatch(e -> p.getFileName().toString().endsWith(e))
                            || script(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
    }

    /** Whether {@code p} is a script without an extension ({@code .ci/run}, {@code iwarp}): it starts with #!. */
    static boolean script(Path p) {
        if (p.getFileName().toString().contains(".")) {
            return false;
        }
        try (var in = Files.newInputStream(p)) {
            byte[] start = in.readNBytes(2);
            return start.length == 2 && start[0] == '#' && start[1] == '!';
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }

    private static boolean skipped(Path root, Path p) {
        for (Path part : root.relativize(p)) {
            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }
}
