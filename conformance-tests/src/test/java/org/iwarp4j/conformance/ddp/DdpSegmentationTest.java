package org.iwarp4j.conformance.ddp;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpRecorder;
import org.iwarp4j.conformance.support.DdpRecorder.UntaggedDelivered;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.DdpSegments.*;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

/** Segmentation at the Data Source (RFC 5041 §4.1, §5.2, §5.3). */
class DdpSegmentationTest {

    /**
     * DDP-03 (RFC 5041 §4.1, §5.2): L=1 on the last segment of every message and only there; it is handed
     * to the LLP after all others and, untagged, carries the highest MO. The receiver delivers an untagged
     * message only once its L=1 segment arrived.
     */
    @Test
    @Requirement("DDP-03")
    @DisplayName("DDP-03: L=1 only on the last segment, written last, with the highest MO")
    void lastFlag() {
        for (boolean isTagged : new boolean[] {true, false}) {
            CapturingLlp llp = new CapturingLlp(64);
            DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
            (isTagged ? s.tagged(0x40, 9, 100, Bytes.direct(new byte[500]))
                    : s.untagged(0, 0x43, 0, Bytes.direct(new byte[500])))
                    .writeAll();
            List<byte[]> segs = llp.segments;
            for (int i = 0; i < segs.size(); i++) {
                assertThat(isLast(segs.get(i))).isEqualTo(i == segs.size() - 1);
            }
            if (!isTagged) {
                int lastMo = moOf(segs.get(segs.size() - 1));
                assertThat(segs).allSatisfy(x -> assertThat(moOf(x)).isLessThanOrEqualTo(lastMo));
            }
        }
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), 1, this);
            ulp.post(rx, 0, 16);
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 1, 0, Bytes.pattern(8, 0))));
            assertThat(ulp.all(UntaggedDelivered.class)).isEmpty();
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 8, Bytes.pattern(2, 8))));
            assertThat(ulp.all(UntaggedDelivered.class)).hasSize(1);
        }
    }

    /**
     * DDP-14 (RFC 5041 §5.2): each segment (header + payload) is no larger than MULPDU — for any MULPDU and
     * message size, tagged or untagged, and when the LLP lowers MULPDU in the middle of a message (the next
     * segment follows the new value; RFC 5041 §3 item 2: segments already written are not redone).
     */
    @Test
    @Requirement("DDP-14")
    @DisplayName("DDP-14: every segment is at most MULPDU, also when MULPDU changes mid-message")
    void segmentsWithinMulpdu() {
        qt().withExamples(300).forAll(integers().between(19, 9000), integers().between(0, 40_000), booleans().all())
                .checkAssert((mulpdu, length, isTagged) -> {
                    CapturingLlp llp = new CapturingLlp(mulpdu);
                    DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
                    (isTagged ? s.tagged(0x40, 1, 0, Bytes.direct(new byte[length]))
                            : s.untagged(0, 0x43, 0, Bytes.direct(new byte[length]))).writeAll();
                    assertThat(llp.segments).allSatisfy(x -> assertThat(x.length).isLessThanOrEqualTo(mulpdu));
                });
        CapturingLlp llp = new CapturingLlp(1000);
        OutboundMessage m = new DdpSender(llp, Bytes.ALLOC, 3).tagged(0x40, 1, 0, Bytes.direct(new byte[3000]));
        m.writeNextSegment();
        llp.mulpdu = 300;
        m.writeAll();
        assertThat(llp.segments.get(0)).hasSize(1000);
        assertThat(llp.segments.subList(1, llp.segments.size()))
                .allSatisfy(x -> assertThat(x.length).isLessThanOrEqualTo(300));
    }

    /**
     * DDP-15 (RFC 5041 §5.2): a ULP message (below 2^32 octets) is sent completely: the payloads of its
     * segments, in order, are exactly the message.
     */
    @Test
    @Requirement("DDP-15")
    @DisplayName("DDP-15: all of a message is sent, segment payloads concatenating to the message")
    void allOfTheMessageIsSent() {
        qt().withExamples(200).forAll(integers().between(19, 3000), integers().between(0, 20_000), booleans().all())
                .checkAssert((mulpdu, length, isTagged) -> {
                    byte[] message = Bytes.pattern(length, length);
                    CapturingLlp llp = new CapturingLlp(mulpdu);
                    DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
                    (isTagged ? s.tagged(0x40, 1, 0, Bytes.direct(message))
                            : s.untagged(1, 0x41, 0, Bytes.direct(message)))
                            .writeAll();
                    ByteArrayOutputStream sent = new ByteArrayOutputStream();
                    llp.segments.forEach(x -> sent.writeBytes(payloadOf(x)));
                    assertThat(sent.toByteArray()).isEqualTo(message);
                });
    }

    /**
     * DDP-17 (RFC 5041 §5.2): the ULP supplies STag and start TO; each tagged segment's TO is start TO +
     * payload offset. The RFC's example (MULPDU 1500, 2048 octets) as the golden vectors
     * fpdu-rdma-write-seg1/2-of-2: the sender reproduces both ULPDUs octet for octet (TO 0x10000 and
     * 0x105ce).
     */
    @Test
    @Requirement("DDP-17")
    @DisplayName("DDP-17: tagged TO = start TO + payload offset (RFC 5041 §5.2 example, golden vectors)")
    void taggedOffsets() {
        GoldenVector seg1 = GoldenVectors.named("fpdu-rdma-write-seg1-of-2");
        GoldenVector seg2 = GoldenVectors.named("fpdu-rdma-write-seg2-of-2");
        byte[] u1 = seg1.hex("ulpdu_hex");
        byte[] u2 = seg2.hex("ulpdu_hex");
        byte[] message = Bytes.concat(payloadOf(u1), payloadOf(u2));
        assertThat(message).hasSize(2048);
        CapturingLlp llp = new CapturingLlp(1500);
        new DdpSender(llp, Bytes.ALLOC, 3).tagged(rsvdUlpOf(u1), stagOf(u1), 0x10000, Bytes.direct(message)).writeAll();
        assertThat(llp.segments).containsExactly(u1, u2);
        assertThat(toOf(llp.segments.get(1))).isEqualTo(0x10000 + 1486);
    }

    /**
     * DDP-19 (RFC 5041 §5.2): a zero-length message uses exactly one segment (L=1, header only) — tagged and
     * untagged, as the golden RTR vectors fpdu-rtr-zero-length-write and fpdu-rtr-zero-length-send.
     */
    @Test
    @Requirement("DDP-19")
    @DisplayName("DDP-19: a zero-length message is exactly one header-only L=1 segment (golden RTRs)")
    void zeroLengthMessage() {
        CapturingLlp llp = new CapturingLlp(1500);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        OutboundMessage w = s.tagged(0x40, 1, 0, Bytes.direct(new byte[0]));
        assertThat(w.writeNextSegment()).as("no further segment").isFalse();
        s.untagged(0, 0x43, 0, Bytes.direct(new byte[0])).writeAll();
        assertThat(llp.segments).containsExactly(GoldenVectors.named("fpdu-rtr-zero-length-write").hex("ulpdu_hex"),
                GoldenVectors.named("fpdu-rtr-zero-length-send").hex("ulpdu_hex"));
    }

    /**
     * DDP-21 (RFC 5041 §5.3): the source transmits messages in submission order and should send a message's
     * segments in increasing offset order: MSNs follow the order of transmission, and MO/TO grow segment by
     * segment.
     */
    @Test
    @Requirement("DDP-21")
    @DisplayName("DDP-21: messages go out in submission order, segments in increasing offset order")
    void order() {
        CapturingLlp llp = new CapturingLlp(100);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        OutboundMessage first = s.untagged(0, 0x43, 0, Bytes.direct(new byte[200]));
        OutboundMessage second = s.untagged(0, 0x43, 0, Bytes.direct(new byte[200]));
        first.writeAll();
        second.writeAll();
        s.tagged(0x40, 5, 0x500, Bytes.direct(new byte[300])).writeAll();
        List<byte[]> untaggedSegs = llp.segments.stream().filter(x -> !isTagged(x)).toList();
        List<byte[]> taggedSegs = llp.segments.stream().filter(x -> isTagged(x)).toList();
        assertThat(untaggedSegs).extracting(x -> msnOf(x) + "@" + moOf(x))
                .containsExactly("1@0", "1@82", "1@164", "2@0", "2@82", "2@164");
        for (int i = 1; i < taggedSegs.size(); i++) {
            assertThat(toOf(taggedSegs.get(i))).isGreaterThan(toOf(taggedSegs.get(i - 1)));
        }
        assertThat(first.msn()).isEqualTo(1);
        assertThat(second.msn()).isEqualTo(2);
    }
}
