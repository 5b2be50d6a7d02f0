package org.iwarp4j.conformance.siw;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.SiwFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5, part (a): every frame of every Linux siw capture of the lab ({@code src/test/resources/siw/pcap})
 * decodes with the stack's decoders — MPA Request/Reply, FPDUs with the negotiated CRC, DDP/RDMAP control
 * fields, siw's bit-mirrored Terminates — and the only refusals are the deliberate errors the lab's probe
 * made to provoke siw (interop/FINDINGS.md names each cell).
 */
class SiwCaptureDecodeTest {

    /** The deliberate errors: capture → exactly the problems the walk must find (everything else decodes). */
    static final Map<String, List<String>> DELIBERATE = Map.ofEntries(
            entry("term-ddp-version-tagged.pcap", List.of("I2R: DDP version 2")));

    /**
     * Captures that hold no packet at all (only the pcap file header), as delivered by the lab; their facts
     * are kept in the {@code .vec} fixtures, which {@link SiwFixtureDecodeTest} decodes.
     */
    static final Set<String> EMPTY = Set.of("mpa-rep-extra.pcap", "mpa-rep-markers.pcap", "mpa-rep-pd-253.pcap",
            "mpa-rep-rev1.pcap", "mpa-rep-siw-crc-strict.pcap", "mpa-req-crc.pcap", "term-crc.pcap",
            "term-ddp-version-untagged.pcap", "term-opcode-8.pcap", "term-rdmap-version.pcap", "term-send-bad-msn.pcap",
            "term-send-bad-qn.pcap", "term-send-no-recv.pcap", "term-write-invalid-stag.pcap");

    static List<String> pcaps() {
        return SiwFixtures.pcaps().stream().filter(p -> !EMPTY.contains(p)).toList();
    }

    @Test
    @DisplayName("the captures without packets are exactly the known ones (decode them when the lab fills them)")
    void emptyCapturesAreKnown() {
        List<String> empty = SiwFixtures.pcaps().stream().filter(p -> SiwFixtures.pcap(p).length == 24).toList();
        assertThat(empty).containsExactlyInAnyOrderElementsOf(EMPTY);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pcaps")
    @Requirement({"MPA-19", "MPA-40", "RDMAP-07"})
    @DisplayName("MPA-19, MPA-40, RDMAP-07: every MPA frame, FPDU, DDP/RDMAP header and Terminate of a real siw capture decodes "
            + "with the stack's decoders, except the lab's deliberate errors")
    void everyFrameDecodes(String pcap) {
        SiwCaptureWalk walk = SiwCaptureWalk.of(pcap, SiwFixtures.pcap(pcap));
        List<String> expected = DELIBERATE.getOrDefault(pcap, List.of());
        assertThat(walk.problems).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(walk.problems.get(i)).startsWith(expected.get(i));
        }
        assertThat(walk.frames).as("at least the MPA Request").isNotEmpty();
        assertThat(walk.terminates).allSatisfy(t -> assertThat(t.terminate().cause()).isNotNull());
    }
}
