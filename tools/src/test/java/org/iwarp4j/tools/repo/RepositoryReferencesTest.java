package org.iwarp4j.tools.repo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every file a source or document of the repository names exists in the repository (issue 14, item 2). */
class RepositoryReferencesTest {

    /** The repository root: surefire runs the tools module's tests in tools/. */
    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();

    @Test
    @DisplayName("every markdown link and file reference in sources, poms, scripts and docs names a file of the repo")
    void everyReferenceResolvesInTheRepository() {
        assertThat(ROOT.resolve("pom.xml")).as("the repository root").exists();
        assertThat(ROOT.resolve("README.md")).exists();
        List<RepositoryReferences.Dangling> dangling = RepositoryReferences.scan(ROOT);
        assertThat(dangling)
                .as("references to files the repository lacks (write the page into docs/ or cite the RFC section):%n%s",
                        dangling.stream().map(Object::toString).collect(Collectors.joining("\n")))
                .isEmpty();
    }

    @Test
    @DisplayName("the scanner names each planted bad reference, and only those")
    void findsPlantedBadReferences(@TempDir Path root) throws IOException {
        write(root, "README.md", """
                # A repo
                [the guide](docs/guide.md), [a section](docs/guide.md#threads), [a page](https://example.org/x.md),
                [here](#a-repo), ![a picture](docs/images/missing.png) and [gone](docs/gone.md),
                [the matrix's figures](target/siw-matrix/results.md) as a run writes them.
                The digest lives in ../shared/spec/mpa.md; see also docs/guide.md and scripts/run.sh.
                """);
        write(root, "docs/guide.md", "[back](../README.md), [wrong base](docs/guide.md), [ok](protocol/errors.md)\n");
        write(root, "docs/protocol/errors.md", "# Errors\n");
        write(root, "docs/images/ladder.png", "not really a picture");
        write(root, "scripts/run.sh",
                "#!/bin/sh\n# the vectors come from ../shared/spec/vectors, see interop/README.md\n");
        write(root, "mod/EXCLUSIONS.md", "| ID | [catalog.md](src/test/resources/catalog.md) |\n");
        write(root, "mod/src/test/resources/catalog.md", "| MPA-01 |\n");
        write(root, "mod/src/main/java/p/A.java", """
                package p;
                /** catalog.md, EXCLUSIONS.md and errors.md §5; docs/protocol/errors.md §5 is the right one. */
                final class A {
                    // RFC 5040 §4.8, https://www.rfc-editor.org/rfc/rfc5040.md, /tmp/out/results.md
                }
                """);
        write(root, "mod/target/classes/B.java", "// docs/never-looked-at.md\n");
        write(root, "mod/pom.xml", "<description>one test per ID of ../shared/spec/ids.md</description>\n");
        write(root, "mod/peer.c", "/* built by scripts/run.sh, see docs/peer.md */\n");
        write(root, "run", "#!/usr/bin/env bash\n# runs scripts/run.sh and scripts/gone.sh\n");
        write(root, "data/blob", "docs/not-a-script.md\n");
        write(root, "notes.txt", "see docs/guide.md and interop/FINDINGS.md; the run writes DIR/results.md\n"
                + "and target/siw-matrix/results.md, [a built page](target/site/index.md)\n");

        List<String> dangling = RepositoryReferences.scan(root).stream().map(Object::toString).toList();

        assertThat(dangling).containsExactly(
                "README.md:3: docs/images/missing.png",
                "README.md:3: docs/gone.md",
                "README.md:5: ../shared/spec/mpa.md",
                "docs/guide.md:1: docs/guide.md",
                "mod/peer.c:1: docs/peer.md",
                "mod/pom.xml:1: ../shared/spec/ids.md",
                "mod/src/main/java/p/A.java:2: errors.md",
                "notes.txt:1: interop/FINDINGS.md",
                "run:2: scripts/gone.sh",
                "scripts/run.sh:2: ../shared/spec/vectors",
                "scripts/run.sh:2: interop/README.md");
    }

    private static void write(Path root, String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
