package org.iwarp4j.tools.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PcapFileTest {

    private static final Endpoint A = new Endpoint(new byte[] {10, 0, 0, 1}, 1234);
    private static final Endpoint B = new Endpoint(new byte[] {10, 0, 0, 2}, 80);

    @ParameterizedTest
    @CsvSource({"iwarp-rev1-crc.pcap, 32", "iwarp-rev2-enhanced.pcap, 40", "iwarp-markers.pcap, 27"})
    void goldenCapturesAreEthernetWithEveryFrame(String name, int frames) throws Exception {
        PcapFile f = PcapFile.parse(GoldenVectors.resource(name));
        assertThat(f.linkType()).isEqualTo(LinkType.ETHERNET);
        assertThat(f.records()).hasSize(frames);
        assertThat(f.records()).extracting(PcapRecord::frameNumber).startsWith(1, 2, 3).endsWith(frames);
        assertThat(f.warnings()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"LITTLE_ENDIAN, false", "LITTLE_ENDIAN, true", "BIG_ENDIAN, false", "BIG_ENDIAN, true"})
    void readsBothByteOrdersAndBothTimestampResolutions(String order, boolean nanos) throws Exception {
        ByteOrder o = order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        byte[] file = new PcapBuilder(LinkType.ETHERNET, o, nanos)
                .tcp(A, B, 7, TcpSegment.ACK, new byte[] {1, 2, 3})
                .tcp(B, A, 9, TcpSegment.ACK, new byte[] {4})
                .build();
        PcapFile f = PcapFile.parse(file);
        assertThat(f.records()).hasSize(2);
        // The builder stamps second 1_700_000_001, 1_700_000_002 with fraction 123456789 ns or 123456 us.
        long fraction = nanos ? 123_456_789L : 123_456_000L;
        assertThat(f.records().get(0).epochNanos()).isEqualTo(1_700_000_001L * 1_000_000_000L + fraction);
        assertThat(f.records().get(1).epochNanos()).isEqualTo(1_700_000_002L * 1_000_000_000L + fraction);
        assertThat(f.records().get(0).data()).hasSize(14 + 20 + 20 + 3);
    }

    @Test
    void rejectsPcapng() {
        byte[] ng = new byte[32];
        ByteBuffer.wrap(ng).putInt(0x0a0d0d0a);
        assertThatThrownBy(() -> PcapFile.parse(ng)).isInstanceOf(PcapFormatException.class)
                .hasMessageContaining("pcapng").hasMessageContaining("editcap");
    }

    @Test
    void rejectsSomethingElse() {
        byte[] text = "this is not a capture at all, just text".getBytes();
        assertThatThrownBy(() -> PcapFile.parse(text)).isInstanceOf(PcapFormatException.class)
                .hasMessageContaining("magic number 0x74686973");
        assertThatThrownBy(() -> PcapFile.parse(new byte[10])).isInstanceOf(PcapFormatException.class)
                .hasMessageContaining("shorter than the 24-octet");
    }

    @Test
    void rejectsUnknownLinkTypeByNumber() {
        byte[] file = PcapBuilder.ethernet().build();
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 147);
        assertThatThrownBy(() -> PcapFile.parse(file)).isInstanceOf(PcapFormatException.class)
                .hasMessageContaining("unsupported link type 147");
    }

    @Test
    void ignoresFcsBitsAboveTheLinkType() throws Exception {
        byte[] file = PcapBuilder.ethernet().build();
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 0x1000_0000 | 1);
        assertThat(PcapFile.parse(file).linkType()).isEqualTo(LinkType.ETHERNET);
    }

    @Test
    void keepsEveryCompleteRecordOfAFileCutShort() throws Exception {
        byte[] file = PcapBuilder.ethernet()
                .tcp(A, B, 7, TcpSegment.ACK, new byte[] {1, 2, 3})
                .tcp(B, A, 9, TcpSegment.ACK, new byte[] {4})
                .build();
        PcapFile f = PcapFile.parse(Arrays.copyOf(file, file.length - 5));
        assertThat(f.records()).hasSize(1);
        assertThat(f.warnings()).containsExactly("the capture ends inside frame 2 (file cut short)");

        PcapFile g = PcapFile.parse(Arrays.copyOf(file, 24 + 16 + 57 + 8));
        assertThat(g.records()).hasSize(1);
        assertThat(g.warnings()).containsExactly("the capture ends inside the header of frame 2 (file cut short)");
    }

    @Test
    void recordsCutBySnapLengthKeepTheirOriginalLength() throws Exception {
        byte[] file = PcapBuilder.ethernet().snapLength(60).tcp(A, B, 7, TcpSegment.ACK, new byte[100]).build();
        PcapRecord r = PcapFile.parse(file).records().get(0);
        assertThat(r.data()).hasSize(60);
        assertThat(r.originalLength()).isEqualTo(14 + 20 + 20 + 100);
        assertThat(r.truncated()).isTrue();
    }
}
