package org.iwarp4j.tools.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PacketDecoderTest {

    private static final Endpoint V4_A = new Endpoint(new byte[] {127, 0, 0, 1}, 40001);
    private static final Endpoint V4_B = new Endpoint(new byte[] {127, 0, 0, 2}, 50001);
    private static final Endpoint V6_A =
            new Endpoint(v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 40001);
    private static final Endpoint V6_B =
            new Endpoint(v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2), 50001);

    @ParameterizedTest(name = "{0} {1} v6={2}")
    @CsvSource({
            "ETHERNET, LITTLE_ENDIAN, false", "ETHERNET, BIG_ENDIAN, true",
            "RAW, LITTLE_ENDIAN, false", "RAW, BIG_ENDIAN, true",
            "IPV4, LITTLE_ENDIAN, false", "IPV6, LITTLE_ENDIAN, true",
            "LINUX_SLL, LITTLE_ENDIAN, false", "LINUX_SLL, LITTLE_ENDIAN, true",
            "LINUX_SLL2, BIG_ENDIAN, false", "LINUX_SLL2, LITTLE_ENDIAN, true",
            "NULL, LITTLE_ENDIAN, false", "NULL, BIG_ENDIAN, false", "NULL, LITTLE_ENDIAN, true",
            "NULL, BIG_ENDIAN, true", "LOOP, LITTLE_ENDIAN, false", "LOOP, LITTLE_ENDIAN, true"})
    void everyLinkTypeYieldsTheSameConversation(LinkType linkType, String order, boolean v6) throws Exception {
        ByteOrder o = order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Endpoint a = v6 ? V6_A : V4_A;
        Endpoint b = v6 ? V6_B : V4_B;
        byte[] file = new PcapBuilder(linkType, o, true)
                .tcp(a, b, 0x0a000000L, TcpSegment.SYN, new byte[0])
                .tcp(b, a, 0x0b000000L, TcpSegment.SYN | TcpSegment.ACK, new byte[0])
                .tcp(a, b, 0x0a000001L, TcpSegment.ACK, "hello ".getBytes())
                .tcp(a, b, 0x0a000007L, TcpSegment.ACK, "world".getBytes())
                .tcp(b, a, 0x0b000001L, TcpSegment.ACK, "ok".getBytes())
                .build();
        Capture c = Capture.read(file);
        assertThat(c.skipped()).isEmpty();
        assertThat(c.connections()).hasSize(1);
        TcpConnection conn = c.connections().get(0);
        assertThat(conn.opener()).contains(a);
        assertThat(new String(conn.from(a).bytes())).isEqualTo("hello world");
        assertThat(new String(conn.from(b).bytes())).isEqualTo("ok");
        assertThat(conn.from(a).firstSequence()).isEqualTo(0x0a000001L);
        assertThat(conn.from(b).firstSequence()).isEqualTo(0x0b000001L);
        assertThat(conn.from(a).framesFor(0, 11)).containsExactly(3, 4);
    }

    @ParameterizedTest
    @CsvSource({"24", "28", "30"})
    void nullLinkAcceptsEveryBsdIpv6Family(int family) throws Exception {
        byte[] file = new PcapBuilder(LinkType.NULL, ByteOrder.LITTLE_ENDIAN, false).nullFamilyV6(family)
                .tcp(V6_A, V6_B, 5, TcpSegment.ACK, new byte[] {9}).build();
        assertThat(Capture.read(file).connections()).hasSize(1);
    }

    @Test
    void ethernetVlanTagsAreSkipped() throws Exception {
        for (int tags = 1; tags <= 2; tags++) {
            byte[] file =
                    PcapBuilder.ethernet().vlanTags(tags).tcp(V4_A, V4_B, 5, TcpSegment.ACK, new byte[] {9, 8}).build();
            Capture c = Capture.read(file);
            assertThat(c.skipped()).isEmpty();
            assertThat(c.connections().get(0).from(V4_A).bytes()).containsExactly(9, 8);
        }
    }

    @Test
    void ethernetPaddingIsNotPayload() throws Exception {
        // A 2-octet segment makes a 56-octet frame, padded to 60 by Ethernet; IP Total Length says where it ends.
        byte[] frame = PcapBuilder.ethernet().tcp(V4_A, V4_B, 5, TcpSegment.ACK, new byte[] {9, 8}).build();
        PcapFile f = PcapFile.parse(frame);
        byte[] padded = Arrays.copyOf(f.records().get(0).data(), 60);
        byte[] file = PcapBuilder.ethernet().record(padded).build();
        assertThat(Capture.read(file).connections().get(0).from(V4_A).bytes()).containsExactly(9, 8);
    }

    @Test
    void nonTcpPacketsAreSkippedWithAReason() throws Exception {
        byte[] udp = PcapBuilder.ip(V4_A, V4_B, new byte[8]);
        udp[9] = 17;
        byte[] fragment = PcapBuilder.ip(V4_A, V4_B, PcapBuilder.tcpSegment(1, 2, 3, TcpSegment.ACK, new byte[4]));
        fragment[6] = 0x20; // More Fragments
        byte[] arp = new byte[42];
        ByteBuffer.wrap(arp).putShort(12, (short) 0x0806);
        byte[] file = new PcapBuilder(LinkType.RAW, ByteOrder.LITTLE_ENDIAN, false)
                .record(udp).record(fragment).record(new byte[] {0x45, 0}).build();
        Capture c = Capture.read(file);
        assertThat(c.connections()).isEmpty();
        assertThat(c.skipped()).extracting(PacketDecoder.Skipped::frame, PacketDecoder.Skipped::reason).containsExactly(
                Tuple.tuple(1, "not TCP"),
                Tuple.tuple(2, "IPv4 fragment (fragments are not reassembled)"),
                Tuple.tuple(3, "truncated or malformed IPv4 header"));
        Capture e = Capture.read(PcapBuilder.ethernet().record(arp).build());
        assertThat(e.skipped()).extracting(PacketDecoder.Skipped::reason).containsExactly("not IP");
    }

    @Test
    void endpointsPrintLikeWireshark() {
        assertThat(V4_A.toString()).isEqualTo("127.0.0.1:40001");
        assertThat(V6_A.toString()).isEqualTo("[2001:db8::1]:40001");
        assertThat(new Endpoint(v6(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 1).toString()).isEqualTo("[::1]:1");
        assertThat(new Endpoint(v6(0x20, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 1).addressText())
                .isEqualTo("2001:0:1::1");
        assertThat(new Endpoint(v6(0x20, 1, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1), 1).addressText())
                .isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(List.of(V4_B, V4_A).stream().sorted().toList()).containsExactly(V4_A, V4_B);
    }

    private static byte[] v6(int... octets) {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) octets[i];
        }
        return b;
    }
}
