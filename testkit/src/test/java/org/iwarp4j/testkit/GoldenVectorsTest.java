package org.iwarp4j.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

    /** The copy in testkit must equal the shared original (run where ../shared is present). */
    @Test
    void copyIsIdenticalToTheSharedVectors() throws IOException {
        // walk up from the module directory: /work/main/testkit and /work/wt/<helper>/testkit both reach /work/shared
        Path shared = null;
        for (Path p = Path.of("").toAbsolutePath(); p != null && shared == null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("spec").resolve("vectors");
            if (Files.isDirectory(candidate)) {
                shared = candidate;
            }
        }
        assumeTrue(shared != null, "shared/spec/vectors not present on this machine");
        for (String p : GoldenVectors.index()) {
            assertThat(Arrays.equals(Files.readAllBytes(shared.resolve(p)), GoldenVectors.resource(p)))
                    .as("testkit copy of %s equals %s", p, shared.resolve(p)).isTrue();
        }
    }
}
