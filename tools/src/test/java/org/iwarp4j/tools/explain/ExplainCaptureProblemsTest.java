package org.iwarp4j.tools.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.tools.explain.ExplainErrorTest.concat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.PcapBuilder;
import org.iwarp4j.tools.pcap.TcpSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code explain --pcap} on captures with something wrong or unusual, written by {@link PcapBuilder}. */
class ExplainCaptureProblemsTest {

    private static final Endpoint CLIENT = new Endpoint(new byte[] {10, 1, 1, 1}, 40000);
    private static final Endpoint SERVER = new Endpoint(new byte[] {10, 1, 1, 2}, 7174);
    private static final long ISN_C = 0xfffffff0L; // wraps inside the conversation
    private static final long ISN_S = 0x20000000L;

    @TempDir
    Path dir;

    private final byte[] request = GoldenVectors.named("mpa-req-rev1").bytes();          // C=1 M=0, 44 octets
    private final byte[] reply = GoldenVectors.named("mpa-rep-rev1-accept").bytes();     // C=1 M=0
    private final byte[] send = GoldenVectors.named("fpdu-send").bytes();                 // 40 octets, CRC valid
    private final byte[] write = GoldenVectors.named("fpdu-rdma-write").bytes();          // 84 octets, CRC valid

    @Test
    void aCleanConversationAcrossASequenceWrapDecodesWithoutErrors() {
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, reply);
        p.tcp(CLIENT, SERVER, ISN_C + 1 + request.length, TcpSegment.ACK, concat(send, write));
        ExplainRun r = run(p);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries())
                .extracting(e -> e.get("type"), e -> e.get("direction"), e -> e.get("offset"), e -> e.get("frames"))
                .containsExactly(
                        tuple("mpa-request", "I2R", 0L, List.of(4L)),
                        tuple("mpa-reply", "R2I", 0L, List.of(5L)),
                        tuple("fpdu", "I2R", (long) request.length, List.of(6L)),
                        tuple("fpdu", "I2R", (long) (request.length + send.length), List.of(6L)));
        assertThat(r.entries().get(3).get("tcpSeq"))
                .isEqualTo((ISN_C + 1 + request.length + send.length) & 0xffffffffL);
        assertThat(r.entries())
                .allSatisfy(e -> assertThat(e.get("connection")).isEqualTo("10.1.1.1:40000-10.1.1.2:7174"));
    }

    @Test
    void aHoleInTheCaptureIsATcpErrorAndNotAnMpaOne() {
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, reply);
        long seq = ISN_C + 1 + request.length;
        p.tcp(CLIENT, SERVER, seq, TcpSegment.ACK, Arrays.copyOf(send, 16));       // first part of the Send
        p.tcp(CLIENT, SERVER, seq + send.length, TcpSegment.ACK, write);            // rest of Send never captured
        ExplainRun r = run(p);
        assertThat(r.exit()).isEqualTo(1);
        Map<String, Object> error = r.entries().get(r.entries().size() - 1);
        assertThat(error).containsEntry("type", "error").containsEntry("layer", "TCP").containsEntry("code", null)
                .containsEntry("direction", "I2R").containsEntry("offset", (long) request.length + 16);
        assertThat((String) error.get("message")).contains("misses 24 octets")
                .contains("84 octets captured after the hole");
        // The FPDU cut by the hole is not reported as an MPA error as well.
        assertThat(r.entries()).filteredOn(e -> "MPA".equals(e.get("layer"))).isEmpty();
    }

    @Test
    void aRetransmissionWithOtherOctetsIsReported() {
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, reply);
        byte[] changed = send.clone();
        changed[25] ^= 1;
        p.tcp(CLIENT, SERVER, ISN_C + 1 + request.length, TcpSegment.ACK, send);
        p.tcp(CLIENT, SERVER, ISN_C + 1 + request.length, TcpSegment.ACK, changed);
        ExplainRun r = run(p);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.entries()).filteredOn(e -> e.get("type").equals("error")).singleElement().satisfies(e -> {
            assertThat(e).containsEntry("layer", "TCP").containsEntry("offset", (long) request.length + 25)
                    .containsEntry("frames", List.of(6L));
            assertThat((String) e.get("message")).contains("pcap frame 7 retransmits");
        });
        assertThat(r.entries()).filteredOn(e -> e.get("type").equals("fpdu")).singleElement()
                .satisfies(e -> assertThat(e).containsEntry("crcValid", true));
    }

    @Test
    void theInitiatorIsWhoeverSendsTheRequestNotTheSynSender() {
        // RFC 5044 §7.1: the TCP passive side may be the MPA Initiator.
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, request);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, reply);
        p.tcp(SERVER, CLIENT, ISN_S + 1 + request.length, TcpSegment.ACK, send);
        ExplainRun r = run(p);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).extracting(e -> e.get("type"), e -> e.get("direction"),
                e -> e.get("connection")).containsExactly( tuple("mpa-request", "I2R", "10.1.1.2:7174-10.1.1.1:40000"),
                tuple("mpa-reply", "R2I", "10.1.1.2:7174-10.1.1.1:40000"),
                tuple("fpdu", "I2R", "10.1.1.2:7174-10.1.1.1:40000"));
        ExplainRun text = ExplainRun.run("explain", "--pcap", pcapFile(p).toString());
        assertThat(text.out()).contains("Initiator 10.1.1.2:7174: its stream starts with the MPA Request key "
                + "(the other side opened the TCP connection, RFC 5044 §7.1)");
    }

    @Test
    void twoRequestsMeanTwoInitiators() {
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.tcp(SERVER, CLIENT, ISN_S + 1, TcpSegment.ACK, request);
        ExplainRun r = run(p);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.entries()).extracting(e -> e.get("type"), e -> e.get("direction"))
                .containsExactly(tuple("mpa-request", "I2R"), tuple("mpa-request", "R2I"), tuple("error", "R2I"));
        ExplainErrorTest.assertError(r.entries().get(2), 0, 0x04, "both ends act as Initiators");
    }

    @Test
    void aOneSidedCaptureDecodesWithTheRequestsOwnSettings() {
        byte[] sent = concat(request, send);
        PcapBuilder p = PcapBuilder.ethernet();
        p.tcp(CLIENT, SERVER, 1000, TcpSegment.ACK, Arrays.copyOfRange(sent, 0, 30));
        p.tcp(CLIENT, SERVER, 1030, TcpSegment.ACK, Arrays.copyOfRange(sent, 30, sent.length));
        ExplainRun r = run(p);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.entries()).extracting(e -> e.get("type"), e -> e.get("frames"))
                .containsExactly(tuple("mpa-request", List.of(1L, 2L)), tuple("fpdu", List.of(2L)));
        assertThat(r.entries().get(1)).containsEntry("crcValid", true);
    }

    @Test
    void nonTcpPacketsAreWarnedAboutOnStandardError() {
        PcapBuilder p = handshake(CLIENT, SERVER);
        p.tcp(CLIENT, SERVER, ISN_C + 1, TcpSegment.ACK, request);
        p.record(new byte[14]); // Ethernet type 0: not IP
        ExplainRun r = run(p);
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("warning: 1 packet skipped (not IP): frame 5");
        assertThat(ExplainRun.run("explain", "--pcap", pcapFile(p).toString()).out())
                .contains("warning: 1 packet skipped (not IP): frame 5");
    }

    @Test
    void aConnectionWithoutPayloadIsShownButHasNoEntries() {
        ExplainRun r = ExplainRun.run("explain", "--pcap", pcapFile(handshake(CLIENT, SERVER)).toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("no payload in either direction: nothing to decode")
                .endsWith("0 frames, no errors.\n");
    }

    private PcapBuilder handshake(Endpoint client, Endpoint server) {
        return PcapBuilder.ethernet()
                .tcp(client, server, ISN_C, TcpSegment.SYN, new byte[0])
                .tcp(server, client, ISN_S, TcpSegment.SYN | TcpSegment.ACK, new byte[0])
                .tcp(client, server, ISN_C + 1, TcpSegment.ACK, new byte[0]);
    }

    private ExplainRun run(PcapBuilder p) {
        return ExplainRun.run("explain", "--json", "--pcap", pcapFile(p).toString());
    }

    private Path pcapFile(PcapBuilder p) {
        return ExplainRun.writeBytes(dir, p.build(), ".pcap");
    }

    private static Tuple tuple(Object... values) {
        return Tuple.tuple(values);
    }
}
