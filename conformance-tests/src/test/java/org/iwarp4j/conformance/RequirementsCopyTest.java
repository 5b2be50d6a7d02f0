package org.iwarp4j.conformance;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The copy of requirements.md in the test resources is the shared original, and it parses. */
class RequirementsCopyTest {

    @Test
    @DisplayName("the test-resource copy of requirements.md equals shared/spec/requirements.md")
    void copyEqualsTheSharedOriginal() throws IOException {
        Optional<Path> shared = ModuleFiles.sharedRequirements();
        assumeTrue(shared.isPresent(), "shared/spec/requirements.md is not on this machine");
        assertThat(RequirementCatalog.resourceText())
                .as("src/test/resources/requirements.md must be a verbatim copy of %s", shared.get())
                .isEqualTo(Files.readString(shared.get()));
    }

    @Test
    @DisplayName("the catalogue holds MPA-01…50, MPA-61…76, DDP-01…34, RDMAP-01…34, EXT-01…14")
    void catalogueHasTheExpectedIds() {
        RequirementCatalog c = RequirementCatalog.load();
        assertThat(c.entries().keySet().stream().filter(id -> id.startsWith("MPA-"))).hasSize(50 + 16);
        assertThat(c.entries().keySet().stream().filter(id -> id.startsWith("DDP-"))).hasSize(34);
        assertThat(c.entries().keySet().stream().filter(id -> id.startsWith("RDMAP-"))).hasSize(34);
        assertThat(c.entries().keySet().stream().filter(id -> id.startsWith("EXT-"))).hasSize(14);
        assertThat(c.entries().get("MPA-17").section()).isEqualTo("4.3, 7.1.2 r7");
        assertThat(c.entries().get("DDP-20").level()).isEqualTo("MUST NOT");
    }
}
