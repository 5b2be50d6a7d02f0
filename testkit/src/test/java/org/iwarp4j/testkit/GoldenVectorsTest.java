package org.iwarp4j.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GoldenVectorsTest {

    @Test
    void loadsAllSixtyVectorsWithConsistentLengths() {
        var all = GoldenVectors.all();
        assertThat(all).hasSize(60);
        assertThat(all).extracting(GoldenVector::group).containsOnly("crc", "mpa", "rdmap", "markers");
        for (GoldenVector v : all) {
            assertThat(v.has("name")).as(v.toString()).isTrue();
            if (v.has("length")) {
                assertThat(v.bytes()).as(v.toString()).hasSize(v.intField("length"));
            }
        }
    }

    @Test
    void parsesFieldsOfAKnownVector() {
        GoldenVector v = GoldenVectors.named("mpa-req-rev2-p2p");
        assertThat(v.kind()).isEqualTo("mpa-request");
        assertThat(v.intField("enh.ird")).isEqualTo(16);
        assertThat(v.flag("enh.a_peer_to_peer")).isTrue();
        assertThat(v.hex("ulp_private_data_hex")).isEqualTo("p2p-hello".getBytes());
        assertThat(v.field("desc")).contains("\n");
    }

    @Test
    void parsesConversationStreams() {
        ConversationStream s = GoldenVectors.stream("conv-rev2-p2p-read-rtr");
        assertThat(s.segments()).hasSize(5);
        assertThat(s.segments().get(0).tcpSeq()).isEqualTo(0x10000001L);
        assertThat(s.bytes(ConversationStream.Direction.I2R)).hasSize(33 + 52 + 40);
        assertThat(GoldenVectors.streams()).hasSize(8);
    }

    /**
     * The copy in testkit is the shared original. {@code shared-vectors.sha256} holds the SHA-256 of every shared
     * vector file as it was copied ({@code cd shared/spec/vectors && sha256sum $(cat index.txt)}); the copy must
     * match it on any machine, and where {@code shared/spec/vectors} is present (walking up from the module
     * directory) the shared files must match it too, so a change on either side fails here.
     */
    @Test
    void copyAndSharedOriginalMatchTheRecordedDigests() throws IOException {
        Map<String, String> recorded = new LinkedHashMap<>();
        try (InputStream in = GoldenVectorsTest.class.getResourceAsStream("/shared-vectors.sha256")) {
            assertThat(in).as("test resource shared-vectors.sha256").isNotNull();
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank())
                    .forEach(l -> recorded.put(l.substring(66), l.substring(0, 64)));
        }
        assertThat(recorded.keySet()).as("the recorded digests cover exactly index.txt")
                .containsExactlyInAnyOrderElementsOf(GoldenVectors.index());
        for (String p : GoldenVectors.index()) {
            assertThat(sha256(GoldenVectors.resource(p))).as("testkit copy of %s", p).isEqualTo(recorded.get(p));
        }
        Path shared = sharedVectors();
        if (shared != null) {
            for (String p : GoldenVectors.index()) {
                assertThat(sha256(Files.readAllBytes(shared.resolve(p))))
                        .as("%s changed since it was copied into testkit", shared.resolve(p))
                        .isEqualTo(recorded.get(p));
            }
        }
    }

    /** Walks up from the module directory: /work/main/testkit and /work/wt/<helper>/testkit both reach /work/shared. */
    private static Path sharedVectors() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("spec").resolve("vectors");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
