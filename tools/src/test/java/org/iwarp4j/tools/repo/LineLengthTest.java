package org.iwarp4j.tools.repo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No line of a Java source of the repository is longer than 120 characters (CONTRIBUTING.md; issue 14). */
class LineLengthTest {

    /** The longest line CONTRIBUTING.md allows, in characters (Unicode code points, not octets). */
    static final int MAX = 120;

    /** Directories never walked: build output and version control. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git");

    /** The repository root: surefire runs the tools module's tests in tools/. */
    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();

    @Test
    @DisplayName("no line of a *.java file under any module's src/ is longer than 120 characters")
    void everyJavaLineFitsIn120Characters() throws IOException {
        assertThat(ROOT.resolve("pom.xml")).as("the repository root").exists();
        List<String> tooLong = scan(ROOT);
        assertThat(tooLong)
                .as("Java lines longer than %d characters (CONTRIBUTING.md: lines at most 120 characters); rewrap"
                        + " them (a text block line cannot be wrapped: shorten it or build the string another way):"
                        + "%n%s", MAX, String.join("\n", tooLong))
                .isEmpty();
    }

    @Test
    @DisplayName("the scanner names each planted long line as path:line:length, and skips target/ and .git")
    void findsPlantedLongLines(@TempDir Path root) throws IOException {
        String fits = "x".repeat(MAX);
        write(root, "mod/src/main/java/p/A.java", "package p;\n// " + "a".repeat(MAX - 3) + "\n// " + "b".repeat(MAX)
                + "\n");
        write(root, "mod/src/test/java/p/B.java", fits + "\n" + "§".repeat(MAX) + "\n" + "→".repeat(MAX + 1));
        write(root, "mod/src/test/resources/long.txt", fits + fits + "\n");
        write(root, "mod/target/generated-sources/C.java", fits + fits + "\n");
        write(root, ".git/D.java", fits + fits + "\n");

        assertThat(scan(root)).containsExactly(
                "mod/src/main/java/p/A.java:3:" + (MAX + 3),
                "mod/src/test/java/p/B.java:3:" + (MAX + 1));
    }

    /** Every line over {@link #MAX} of a {@code *.java} file under a {@code src} directory of {@code root}. */
    static List<String> scan(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(root) && SKIPPED_DIRECTORIES.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                Path relative = root.relativize(file);
                if (file.getFileName().toString().endsWith(".java") && isUnderSrc(relative)) {
                    files.add(relative);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        List<String> tooLong = new ArrayList<>();
        for (Path relative : files) {
            List<String> lines = Files.readAllLines(root.resolve(relative), StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int length = line.codePointCount(0, line.length());
                if (length > MAX) {
                    tooLong.add(relative.toString().replace('\\', '/') + ":" + (i + 1) + ":" + length);
                }
            }
        }
        return tooLong;
    }

    private static boolean isUnderSrc(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("src")) {
                return true;
            }
        }
        return false;
    }

    private static void write(Path root, String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
