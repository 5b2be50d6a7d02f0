package org.iwarp4j.conformance.siw;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.SiwFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5, part (a): every frame of every Linux siw capture of the lab ({@code src/test/resources/siw/pcap})
 * decodes with the stack's decoders — MPA Request/Reply, FPDUs with the negotiated CRC, DDP/RDMAP control
 * fields, siw's bit-mirrored Terminates — and the only refusals are the deliberate errors the lab's probe
 * made to provoke siw (interop/FINDINGS.md names each cell).
 */
class SiwCaptureDecodeTest {

    /**
     * The refusals expected: capture → exactly the problems the walk must find (everything else decodes). All
     * but one are the deliberate errors of the lab's probe; {@code iwarp-mpa-from-siw-p2p-send-rtr} holds siw's
     * setup Terminate with a zero CRC field although CRC was negotiated (interop/FINDINGS.md M17).
     */
    static final Map<String, List<String>> DELIBERATE = Map.ofEntries(
            entry("iwarp-mpa-from-siw-p2p-send-rtr.pcap", List.of("I2R: 0x2/0x0/0x02 MPA CRC error CRC field "
                    + "0x00000000, computed 0xd6f8e511 over 24 octets (ULPDU_Length 22)")),
            entry("mpa-rep-extra.pcap", List.of("I2R: 4 octets after the Request, no Reply")),
            entry("term-crc.pcap", List.of("I2R: 0x2/0x0/0x02 MPA CRC error CRC field 0xab64042e, computed "
                    + "0x0ec1a18b over 36 octets (ULPDU_Length 34)")),
            entry("term-ddp-version-tagged.pcap", List.of("I2R: DDP version 2")),
            entry("term-ddp-version-untagged.pcap", List.of("I2R: DDP version 0")),
            entry("term-rdmap-version.pcap", List.of("I2R: RDMAP version 2")),
            entry("term-send-bad-qn.pcap", List.of("I2R: SEND on QN 5")));

    static List<String> pcaps() {
        return SiwFixtures.pcaps();
    }

    @Test
    @DisplayName("every capture holds packets (not only the pcap file header)")
    void noCaptureIsEmpty() {
        assertThat(SiwFixtures.pcaps()).isNotEmpty().allSatisfy(p ->
                assertThat(SiwFixtures.pcap(p).length).as(p).isGreaterThan(24));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pcaps")
    @Requirement({"MPA-19", "MPA-40", "RDMAP-07"})
    @DisplayName("MPA-19, MPA-40, RDMAP-07: every MPA frame, FPDU, DDP/RDMAP header and Terminate of a real siw "
            + "capture decodes with the stack's decoders, except the lab's deliberate errors")
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
