package org.iwarp4j.conformance.ddp;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpRecorder;
import org.iwarp4j.conformance.support.DdpRecorder.TaggedDelivered;
import org.iwarp4j.conformance.support.DdpRecorder.UntaggedDelivered;
import org.iwarp4j.conformance.support.TestRegion;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.DdpSegments.*;

/** Placement and delivery at the Data Sink (RFC 5041 §5.2–§5.4). */
class DdpPlacementTest {

    private static final long PD = 3;
    private static final Object STREAM = new Object();

    /**
     * DDP-16 (RFC 5041 §5.2): untagged messages are identified by (QN, MSN) and each segment goes to MO in
     * its message's buffer: segments of messages on QN 0 and QN 1, and of two messages of QN 0, interleaved
     * on the wire, each land in the right buffer at the right offset.
     */
    @Test
    @Requirement("DDP-16")
    @DisplayName("DDP-16: untagged segments are placed by (QN, MSN) at their MO")
    void untaggedIdentity() {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            ulp.post(rx, 0, 8);  // posted(0): QN 0 MSN 1
            ulp.post(rx, 1, 8);  // posted(1): QN 1 MSN 1
            ulp.post(rx, 0, 8);  // posted(2): QN 0 MSN 2
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 2, 4, Bytes.pattern(4, 0x24))));
            rx.receive(Bytes.direct(untagged(false, 0x41, 1, 1, 0, Bytes.pattern(4, 0x10))));
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 1, 0, Bytes.pattern(4, 0x00))));
            rx.receive(Bytes.direct(untagged(true, 0x41, 1, 1, 4, Bytes.pattern(4, 0x14))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 4, Bytes.pattern(4, 0x04))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 2, 0, Bytes.pattern(4, 0x20))));
            assertThat(ulp.posted(0)).isEqualTo(Bytes.pattern(8, 0x00));
            assertThat(ulp.posted(1)).isEqualTo(Bytes.pattern(8, 0x10));
            assertThat(ulp.posted(2)).isEqualTo(Bytes.pattern(8, 0x20));
        }
    }

    /**
     * DDP-18 (RFC 5041 §5.2): the sink places the payload of every valid segment. Random tagged messages cut
     * into random segments, delivered in a random order of segments, leave the region holding exactly the
     * sent octets.
     */
    @Test
    @Requirement("DDP-18")
    @DisplayName("DDP-18: the payload of every valid segment is placed")
    void everyPayloadIsPlaced() {
        Random r = new Random(18);
        for (int round = 0; round < 50; round++) {
            int length = 1 + r.nextInt(5000);
            byte[] data = Bytes.random(r, length);
            try (TestRegion region = TestRegion.writable(0x77, 0x1000, length, PD);
                    DdpRecorder ulp = new DdpRecorder()) {
                DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
                List<byte[]> segs = new ArrayList<>();
                for (int at = 0; at < length; ) {
                    int n = Math.min(length - at, 1 + r.nextInt(700));
                    segs.add(tagged(at + n == length, 0x40, 0x77, 0x1000 + at, Arrays.copyOfRange(data, at, at + n)));
                    at += n;
                }
                byte[] last = segs.remove(segs.size() - 1);
                Collections.shuffle(segs, r);
                segs.add(last);
                segs.forEach(s -> rx.receive(Bytes.direct(s)));
                assertThat(region.content()).isEqualTo(data);
                assertThat(ulp.all(DdpRecorder.Rejected.class)).isEmpty();
            }
        }
    }

    /**
     * DDP-20 (RFC 5041 §5.2): STag and TO of a zero-length tagged segment are not checked: with no region
     * registered at all, the golden zero-length Write RTR (STag 1) and zero-length segments with absurd
     * STag/TO are accepted and complete their messages.
     */
    @Test
    @Requirement("DDP-20")
    @DisplayName("DDP-20: STag and TO of a zero-length tagged segment are not checked")
    void zeroLengthTaggedIsNotChecked() {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            rx.receive(Bytes.direct(GoldenVectors.named("fpdu-rtr-zero-length-write").hex("ulpdu_hex")));
            rx.receive(Bytes.direct(tagged(true, 0x40, 0xDEADBEEF, 0xFFFFFFFFFFFFFFFFL, new byte[0])));
            assertThat(ulp.all(DdpRecorder.Rejected.class)).isEmpty();
            assertThat(ulp.all(TaggedDelivered.class)).containsExactly(new TaggedDelivered(0x40, 1, 0, 0),
                    new TaggedDelivered(0x40, 0xDEADBEEF, 0xFFFFFFFFFFFFFFFFL, 0));
        }
    }

    /**
     * DDP-22, DDP-23 (RFC 5041 §5.3, §5.4): the sink may place out of order but delivers each message at
     * most once and in the order sent, and only when its L=1 segment arrived, all its segments and all
     * earlier messages are placed and every earlier message delivered. MSN 2 — one of its segments placed
     * twice — is complete before MSN 1 and waits; when MSN 1 completes both are delivered, 1 then 2, once
     * each; a segment of MSN 1 arriving again after its delivery does not deliver it again.
     */
    @Test
    @Requirement({"DDP-22", "DDP-23"})
    @DisplayName("DDP-22, DDP-23: messages are delivered once, in order, only when complete and after all earlier")
    void deliveryOrder() {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            ulp.post(rx, 0, 16);
            ulp.post(rx, 0, 16);
            ulp.post(rx, 0, 16);
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 1, 0, Bytes.pattern(4, 0))));
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 2, 0, Bytes.pattern(3, 2))));
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 2, 0, Bytes.pattern(3, 2)))); // placed again
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 2, 3, Bytes.pattern(3, 5))));
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 3, 0, Bytes.pattern(2, 3))));
            assertThat(ulp.all(UntaggedDelivered.class)).as("MSN 2 waits for MSN 1").isEmpty();
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 4, Bytes.pattern(4, 4))));
            assertThat(ulp.all(UntaggedDelivered.class)).extracting(UntaggedDelivered::msn).containsExactly(1, 2);
            assertThat(ulp.all(UntaggedDelivered.class).get(0).content()).isEqualTo(Bytes.pattern(8, 0));
            assertThat(ulp.all(UntaggedDelivered.class).get(1).content()).isEqualTo(Bytes.pattern(6, 2));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 3, 2, Bytes.pattern(1, 5))));
            assertThat(ulp.all(UntaggedDelivered.class)).extracting(UntaggedDelivered::msn).containsExactly(1, 2, 3);
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 4, Bytes.pattern(4, 4))));
            assertThat(ulp.all(UntaggedDelivered.class)).as("at most once").hasSize(3);
        }
    }

    /**
     * DDP-24 (RFC 5041 §5.4): on delivery of an untagged message DDP reports its length — MO + payload
     * length of the L=1 segment — and the RsvdULP value.
     */
    @Test
    @Requirement("DDP-24")
    @DisplayName("DDP-24: untagged delivery reports MO + payload of the L=1 segment and the RsvdULP")
    void deliveryReport() {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            ulp.post(rx, 0, 100);
            ulp.post(rx, 0, 100);
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 1, 0, Bytes.pattern(30, 0))));
            rx.receive(Bytes.direct(untagged(control(false, true, 0, 1), 0x46, 0x1a2b3c4d, 0, 1, 30,
                    Bytes.pattern(13, 30))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 2, 0, new byte[0])));
            List<UntaggedDelivered> d = ulp.all(UntaggedDelivered.class);
            assertThat(d.get(0).length()).isEqualTo(43);
            assertThat(d.get(0).rsvdUlp()).isEqualTo(0x46);
            assertThat(d.get(0).rsvdUlpWord()).isEqualTo(0x1a2b3c4d);
            assertThat(d.get(0).content()).isEqualTo(Bytes.pattern(43, 0));
            assertThat(d.get(1).length()).as("a zero-length message still consumes its buffer").isZero();
            assertThat(rx.postedCount(0)).isZero();
        }
    }
}
