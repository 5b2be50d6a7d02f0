package org.iwarp4j.conformance;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The copy of requirements.md in the test resources is the shared original, and it parses. */
class RequirementsCopyTest {

    /**
     * SHA-256 of shared/spec/requirements.md when it was copied into src/test/resources
     * ({@code sha256sum shared/spec/requirements.md}).
     */
    private static final String SHARED_SHA256 = "4fed70056ad8d1e91c0fb3fe791c871d4dc4bebafca078c5c893bf0daf7cc65c";

    @Test
    @DisplayName("the test-resource copy of requirements.md is the shared original: both have the recorded SHA-256")
    void copyAndSharedOriginalHaveTheRecordedDigest() throws IOException {
        assertThat(sha256(RequirementCatalog.resourceText().getBytes(StandardCharsets.UTF_8)))
                .as("src/test/resources/requirements.md must be a verbatim copy of shared/spec/requirements.md")
                .isEqualTo(SHARED_SHA256);
        // where the shared original is on this machine (walking up from the module), it must not have moved on
        Optional<Path> shared = ModuleFiles.sharedRequirements();
        if (shared.isPresent()) {
            assertThat(sha256(Files.readAllBytes(shared.get())))
                    .as("%s changed since it was copied: copy it again and update SHARED_SHA256", shared.get())
                    .isEqualTo(SHARED_SHA256);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
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
