package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perftest 4.5+0.17's control messages, octet by octet. The payloads marked "captured" are the Send payloads
 * siw-to-siw {@code ib_read_bw -R -s 64 -n 5} sent in the lab (docs/perftest-wire.md, section "A capture"); the
 * others are derived from the struct layouts there.
 */
class PerftestWireTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void versionIsTheConfigureVersionNulPadded() {
        byte[] captured = HEX.parseHex("362e3036000000000000000000000000");
        assertThat(PerftestWire.version(PerftestWire.VERSION)).isEqualTo(captured);
        assertThat(PerftestWire.decodeVersion(captured)).isEqualTo("6.06");
        assertThat(PerftestWire.versionNumber("6.06")).isEqualTo(6.06);
        assertThat(PerftestWire.versionNumber("5.70-rc1")).isEqualTo(5.70);
        assertThat(PerftestWire.versionNumber("x")).isZero();
    }

    @Test
    void versionsOutsideWhatWePairWithAreRefusedByName() {
        PerftestWire.checkVersion("6.06", "6.06");
        PerftestWire.checkVersion("6.06", "5.70");
        assertThatThrownBy(() -> PerftestWire.checkVersion("6.06", "5.60"))
                .hasMessageContaining("\"5.60\"").hasMessageContaining("\"6.06\"");
        assertThatThrownBy(() -> PerftestWire.checkVersion("6.06", "6.29"))
                .hasMessageContaining("\"6.29\"").hasMessageContaining("4.5+0.17");
    }

    @Test
    void aVersionMessageOfAnotherLengthOrWithoutNulIsRefused() {
        assertThatThrownBy(() -> PerftestWire.decodeVersion(new byte[15])).hasMessageContaining("15 octets, not 16");
        byte[] noNul = "6.066666666666666".substring(0, 16).getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> PerftestWire.decodeVersion(noNul)).hasMessageContaining("no NUL");
        byte[] control = new byte[16];
        control[0] = '6';
        control[1] = 0x07;
        assertThatThrownBy(() -> PerftestWire.decodeVersion(control)).hasMessageContaining("non-printable");
    }

    @Test
    void cycleBufferCacheLineAndMtuAsCaptured() {
        assertThat(PerftestWire.int32(4096)).isEqualTo(HEX.parseHex("00001000"));
        assertThat(PerftestWire.int32(64)).isEqualTo(HEX.parseHex("00000040"));
        assertThat(PerftestWire.decodeCycleBuffer(HEX.parseHex("00001000"))).isEqualTo(4096);
        assertThat(PerftestWire.decodeCacheLine(HEX.parseHex("00000040"))).isEqualTo(64);
        assertThat(PerftestWire.mtu(3)).isEqualTo(HEX.parseHex("3300"));
        assertThat(PerftestWire.decodeMtu(HEX.parseHex("3300"))).isEqualTo(3);
        assertThat(PerftestWire.mtuOctets(3)).isEqualTo(1024);
        assertThat(PerftestWire.decodeMtu(HEX.parseHex("3900"))).isEqualTo(-1);
        assertThat(PerftestWire.decodeMtu(HEX.parseHex("3131"))).isEqualTo(-1);
    }

    @Test
    void theSizesAPeerAnnouncesAreBoundedBeforeAnythingIsAllocated() {
        assertThatThrownBy(() -> PerftestWire.decodeCycleBuffer(HEX.parseHex("80000000")))
                .hasMessageContaining("2147483648 octets");
        assertThatThrownBy(() -> PerftestWire.decodeCycleBuffer(HEX.parseHex("00000000")))
                .hasMessageContaining("the peer's cycle buffer is 0 octets; 1..1048576");
        assertThatThrownBy(() -> PerftestWire.decodeCacheLine(HEX.parseHex("00010000")))
                .hasMessageContaining("the peer's cache line is 65536 octets; 1..4096");
        assertThatThrownBy(() -> PerftestWire.decodeCacheLine(HEX.parseHex("0040"))).hasMessageContaining(
                "cache line size").hasMessageContaining("2 octets, not 4");
        assertThatThrownBy(() -> PerftestWire.decodeCycleBuffer(HEX.parseHex("001000"))).hasMessageContaining(
                "3 octets, not 4");
    }

    @Test
    void pingpongDestAsCaptured() {
        // captured: the client's dest of siw-to-siw ib_read_bw (out_reads 128, QPN 3, its MR, siw's MAC-based GID)
        byte[] captured = HEX.parseHex("00000000" + "00000080" + "00000003" + "00036e56" + "60cf1000" + "00000000"
                + "000055d6935c6000" + "52540077000200000000000000000000" + "00000000" + "00000000");
        PerftestWire.Dest d = PerftestWire.Dest.decode(captured);
        assertThat(d.lid()).isZero();
        assertThat(d.outReads()).isEqualTo(128);
        assertThat(d.qpn()).isEqualTo(3);
        assertThat(d.psn()).isEqualTo(0x036e56);
        assertThat(d.rkey()).isEqualTo(0x60cf1000);
        assertThat(d.vaddr()).isEqualTo(0x55d6935c6000L);
        assertThat(d.gid()).isEqualTo(HEX.parseHex("52540077000200000000000000000000"));
        assertThat(d.encode()).isEqualTo(captured);
        assertThat(PerftestWire.Dest.ZERO.encode()).isEqualTo(new byte[56]);
    }

    @Test
    void aDestOfUpstreamsLengthIsRefusedWithAHint() {
        assertThatThrownBy(() -> PerftestWire.Dest.decode(new byte[64]))
                .hasMessageContaining("64 octets, not 56").hasMessageContaining("6.x");
    }

    @Test
    void bandwidthReportFieldsAreBigEndianLongsAndDoubles() {
        PerftestWire.BwReport r = new PerftestWire.BwReport(64, 100, 0.43, 0.31, 0.005119);
        List<byte[]> m = r.encode();
        assertThat(m).hasSize(5);
        assertThat(m.get(0)).isEqualTo(HEX.parseHex("0000000000000040"));
        assertThat(m.get(1)).isEqualTo(HEX.parseHex("0000000000000064"));
        // IEEE 754 binary64 of 0.43 is 0x3fdb851eb851eb85, sent most significant octet first
        assertThat(m.get(2)).isEqualTo(HEX.parseHex("3fdb851eb851eb85"));
        assertThat(PerftestWire.BwReport.decode(m)).isEqualTo(r);
    }

    @Test
    void aReportOfAnImpossibleSizeIsRefused() {
        List<byte[]> m = new ArrayList<>(new PerftestWire.BwReport(64, 100, 1, 1, 1).encode());
        m.set(0, HEX.parseHex("00007ffc8d6ad034")); // stack garbage, as a perftest server sends for its own
        assertThatThrownBy(() -> PerftestWire.BwReport.decode(m)).hasMessageContaining("reports message size "
                + 0x00007ffc8d6ad034L);
        m.set(0, HEX.parseHex("0000000000000040"));
        m.set(1, HEX.parseHex("8000000000000000"));
        assertThatThrownBy(() -> PerftestWire.BwReport.decode(m)).hasMessageContaining("iterations");
        assertThatThrownBy(() -> PerftestWire.BwReport.decode(m.subList(0, 4))).hasMessageContaining("5 messages");
    }
}
