package org.iwarp4j.conformance.ddp;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpRecorder;
import org.iwarp4j.conformance.support.DdpRecorder.TaggedDelivered;
import org.iwarp4j.conformance.support.DdpRecorder.TaggedPlaced;
import org.iwarp4j.conformance.support.DdpRecorder.UntaggedDelivered;
import org.iwarp4j.conformance.support.TestRegion;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.receive.MsnWrapBridge;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.DdpSegments.*;

/** The DDP header fields (RFC 5041 §4): what the sender puts there and what the receiver makes of them. */
class DdpHeaderFieldsTest {

    private static final long PD = 7;
    private static final Object STREAM = new Object();

    /** Segments of one tagged and one untagged message (payload {@code n} octets each) at MULPDU {@code mulpdu}. */
    private static List<byte[]> sendBoth(int mulpdu, int n, int rsvdUlp) {
        CapturingLlp llp = new CapturingLlp(mulpdu);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        s.tagged(rsvdUlp, 0x1a2b3c4d, 0x1000, Bytes.direct(Bytes.pattern(n, 1))).writeAll();
        s.untagged(0, rsvdUlp, 0x5e6f7081, Bytes.direct(Bytes.pattern(n, 2))).writeAll();
        return llp.segments;
    }

    /**
     * DDP-02 (RFC 5041 §4.1): T=1 places the payload into a tagged buffer, T=0 into an untagged buffer. The
     * sender sets T by the buffer model; the receiver puts the same payload into the STag's region for T=1
     * and into the posted buffer for T=0, touching nothing else.
     */
    @Test
    @Requirement("DDP-02")
    @DisplayName("DDP-02: T=1 goes to a tagged buffer, T=0 to a posted untagged buffer")
    void taggedFlag() {
        List<byte[]> sent = sendBoth(200, 10, 0x40);
        assertThat(isTagged(sent.get(0))).isTrue();
        assertThat(isTagged(sent.get(1))).isFalse();

        byte[] payload = Bytes.pattern(10, 0x30);
        try (TestRegion region = TestRegion.writable(0x100, 0, 64, PD); DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(stag -> stag == 0x100 ? region : null, PD, STREAM);
            ulp.post(rx, 0, 64);
            rx.receive(Bytes.direct(tagged(true, 0x40, 0x100, 0, payload)));
            assertThat(Arrays.copyOf(region.content(), 10)).isEqualTo(payload);
            assertThat(ulp.posted(0)).containsOnly(TestRegion.FILL);
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 0, payload)));
            assertThat(Arrays.copyOf(ulp.posted(0), 10)).isEqualTo(payload);
            assertThat(Arrays.copyOfRange(region.content(), 10, 64)).containsOnly(TestRegion.FILL);
        }
    }

    /**
     * DDP-04 (RFC 5041 §4.1): the Rsvd bits of the control field are sent as 0 and not checked: every
     * segment the sender writes has Rsvd 0; segments with all Rsvd bits set are placed and delivered.
     */
    @Test
    @Requirement("DDP-04")
    @DisplayName("DDP-04: control-field Rsvd bits are sent as 0 and not checked on receipt")
    void reservedBits() {
        assertThat(sendBoth(60, 300, 0x40)).allSatisfy(s -> assertThat(rsvdOf(s)).isZero());
        try (TestRegion region = TestRegion.writable(0x100, 0, 64, PD); DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
            ulp.post(rx, 0, 64);
            rx.receive(Bytes.direct(tagged(control(true, true, 0xF, 1), 0x40, 0x100, 0, Bytes.pattern(5, 1))));
            rx.receive(Bytes.direct(untagged(control(false, true, 0xF, 1), 0x43, 0, 0, 1, 0, Bytes.pattern(5, 2))));
            assertThat(ulp.all(DdpRecorder.Rejected.class)).isEmpty();
            assertThat(ulp.all(TaggedDelivered.class)).hasSize(1);
            assertThat(ulp.all(UntaggedDelivered.class)).hasSize(1);
        }
    }

    /**
     * DDP-05 (RFC 5041 §4.1, §7.2): DV is 1 on every segment of a stream. The sender writes DV 1 on every
     * segment; a receiver rejects DV 0, 2 and 3 — tagged with 0x1/0x1/0x04, untagged with 0x1/0x2/0x06 —
     * also mid-stream after segments with DV 1, placing nothing of the offending segment.
     */
    @Test
    @Requirement("DDP-05")
    @DisplayName("DDP-05: DV is 1 on every segment; any other DV is rejected with the version error")
    void ddpVersion() {
        assertThat(sendBoth(60, 300, 0x40)).allSatisfy(s -> assertThat(dvOf(s)).isEqualTo(1));
        for (int dv : new int[] {0, 2, 3}) {
            for (boolean isTagged : new boolean[] {true, false}) {
                try (TestRegion region = TestRegion.writable(0x100, 0, 64, PD); DdpRecorder ulp = new DdpRecorder()) {
                    DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
                    ulp.post(rx, 0, 64);
                    ulp.post(rx, 0, 64);
                    // a good first message, then the bad DV
                    rx.receive(Bytes.direct(isTagged ? tagged(true, 0x40, 0x100, 0, Bytes.pattern(4, 0))
                            : untagged(true, 0x43, 0, 1, 0, Bytes.pattern(4, 0))));
                    rx.receive(Bytes.direct(isTagged
                            ? tagged(control(true, true, 0, dv), 0x40, 0x100, 8, Bytes.pattern(4, 9))
                            : untagged(control(false, true, 0, dv), 0x43, 0, 0, 2, 0, Bytes.pattern(4, 9))));
                    DdpException e = ulp.rejection();
                    assertThat(e.error()).isEqualTo(isTagged ? DdpError.TAGGED_INVALID_DDP_VERSION
                            : DdpError.UNTAGGED_INVALID_DDP_VERSION);
                    if (isTagged) {
                        assertThat(Arrays.copyOfRange(region.content(), 8, 12)).containsOnly(TestRegion.FILL);
                    } else {
                        assertThat(ulp.posted(1)).containsOnly(TestRegion.FILL);
                    }
                }
            }
        }
    }

    /**
     * DDP-06 (RFC 5041 §4.2): the tagged RsvdULP carries the ULP's value, is the same on every segment of a
     * message and is passed to the ULP (at admission, placement and delivery).
     */
    @Test
    @Requirement("DDP-06")
    @DisplayName("DDP-06: tagged RsvdULP is the ULP's value on every segment and is passed up")
    void taggedRsvdUlp() {
        List<byte[]> sent = sendBoth(100, 500, 0x5A);
        assertThat(sent.stream().filter(s -> isTagged(s))).hasSizeGreaterThan(1)
                .allSatisfy(s -> assertThat(rsvdUlpOf(s)).isEqualTo(0x5A));
        try (TestRegion region = TestRegion.writable(0x100, 0, 64, PD); DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
            rx.receive(Bytes.direct(tagged(false, 0x41, 0x100, 0, Bytes.pattern(4, 0))));
            rx.receive(Bytes.direct(tagged(true, 0x41, 0x100, 4, Bytes.pattern(4, 4))));
            assertThat(ulp.admittedRsvdUlp).containsExactly(0x41, 0x41);
            assertThat(ulp.all(TaggedPlaced.class)).extracting(TaggedPlaced::rsvdUlp).containsExactly(0x41, 0x41);
            assertThat(ulp.all(TaggedDelivered.class)).extracting(TaggedDelivered::rsvdUlp).containsExactly(0x41);
        }
    }

    /**
     * DDP-07 (RFC 5041 §4.2, §7.1): the STag is valid for the stream and the same on every segment of a
     * message. The sender repeats the STag on every segment; the receiver rejects an unknown or
     * invalidated STag with 0x1/0x1/0x00.
     */
    @Test
    @Requirement("DDP-07")
    @DisplayName("DDP-07: the STag is the same on every segment and must be valid for the stream")
    void stag() {
        assertThat(sendBoth(100, 500, 0x40).stream().filter(s -> isTagged(s)))
                .allSatisfy(s -> assertThat(stagOf(s)).isEqualTo(0x1a2b3c4d));
        for (boolean registered : new boolean[] {false, true}) {
            try (TestRegion region = TestRegion.writable(0x100, 0, 64, PD).invalidate();
                    DdpRecorder ulp = new DdpRecorder()) {
                DdpReceiver rx = ulp.receiver(stag -> registered ? region : null, PD, STREAM);
                rx.receive(Bytes.direct(tagged(true, 0x40, 0x100, 0, Bytes.pattern(4, 0))));
                assertThat(ulp.rejection().error()).isEqualTo(DdpError.INVALID_STAG);
                assertThat(region.untouched()).isTrue();
            }
        }
    }

    /**
     * DDP-08 (RFC 5041 §4.2): TO is the sink-buffer offset of the segment's first payload octet and a
     * message may start at any TO: a two-segment message starting at an odd TO inside a region whose base
     * TO is 0x7000 lands exactly at offsets 3…12.
     */
    @Test
    @Requirement("DDP-08")
    @DisplayName("DDP-08: each segment is placed at its TO, and a message may start at any TO")
    void taggedOffset() {
        try (TestRegion region = TestRegion.writable(0x100, 0x7000, 16, PD); DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
            rx.receive(Bytes.direct(tagged(false, 0x40, 0x100, 0x7003, Bytes.pattern(6, 0x10))));
            rx.receive(Bytes.direct(tagged(true, 0x40, 0x100, 0x7009, Bytes.pattern(4, 0x16))));
            byte[] c = region.content();
            assertThat(Arrays.copyOfRange(c, 3, 13)).isEqualTo(Bytes.pattern(10, 0x10));
            assertThat(Arrays.copyOf(c, 3)).containsOnly(TestRegion.FILL);
            assertThat(Arrays.copyOfRange(c, 13, 16)).containsOnly(TestRegion.FILL);
            assertThat(ulp.all(TaggedDelivered.class)).containsExactly(new TaggedDelivered(0x40, 0x100, 0x7003, 10));
        }
    }

    /**
     * DDP-09 (RFC 5041 §4.3): the untagged RsvdULP (40 bits) is the same on all segments of a message; the
     * sink need not verify that and may deliver the value of any segment. The sender repeats both parts on
     * every segment; the receiver accepts a message whose segments differ and delivers one of their values.
     */
    @Test
    @Requirement("DDP-09")
    @DisplayName("DDP-09: untagged RsvdULP is repeated by the sender and not verified by the sink")
    void untaggedRsvdUlp() {
        assertThat(sendBoth(100, 500, 0x43).stream().filter(s -> !isTagged(s))).hasSizeGreaterThan(1)
                .allSatisfy(s -> {
                    assertThat(rsvdUlpOf(s)).isEqualTo(0x43);
                    assertThat(rsvdUlpWordOf(s)).isEqualTo(0x5e6f7081);
                });
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            ulp.post(rx, 0, 64);
            rx.receive(Bytes.direct(untagged(control(false, false, 0, 1), 0x43, 0x11111111, 0, 1, 0,
                    Bytes.pattern(4, 0))));
            rx.receive(Bytes.direct(untagged(control(false, true, 0, 1), 0x44, 0x22222222, 0, 1, 4,
                    Bytes.pattern(4, 4))));
            UntaggedDelivered d = ulp.all(UntaggedDelivered.class).get(0);
            assertThat(ulp.all(DdpRecorder.Rejected.class)).isEmpty();
            assertThat(d.rsvdUlp()).isIn(0x43, 0x44);
            assertThat(d.rsvdUlpWord()).isIn(0x11111111, 0x22222222);
        }
    }

    /** DDP-10 (RFC 5041 §4.3): QN is the same on every segment of a message (QN 0, 1 and 2). */
    @Test
    @Requirement("DDP-10")
    @DisplayName("DDP-10: QN is the same on every segment of a message")
    void queueNumber() {
        for (int qn = 0; qn < 3; qn++) {
            CapturingLlp llp = new CapturingLlp(50);
            new DdpSender(llp, Bytes.ALLOC, 3).untagged(qn, 0x41, 0, Bytes.direct(new byte[300])).writeAll();
            int q = qn;
            assertThat(llp.segments).hasSizeGreaterThan(5).allSatisfy(s -> assertThat(qnOf(s)).isEqualTo(q));
        }
    }

    /**
     * DDP-11 (RFC 5041 §4.3): MSN starts at 1 for each QN of a stream, increases by one per message modulo
     * 2^32, and is the same on all segments of a message. Sender: independent counters per QN starting at
     * 1, one MSN per multi-segment message, 0xFFFFFFFF followed by 0. Receiver: the n-th buffer posted on
     * a queue receives MSN n, and the window wraps from 0xFFFFFFFF to 0.
     */
    @Test
    @Requirement("DDP-11")
    @DisplayName("DDP-11: MSN starts at 1 per QN, +1 per message modulo 2^32, same on all segments")
    void messageSequenceNumbers() {
        CapturingLlp llp = new CapturingLlp(40);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        s.untagged(0, 0x43, 0, Bytes.direct(new byte[50])).writeAll();
        s.untagged(1, 0x41, 0, Bytes.direct(new byte[28])).writeAll();
        s.untagged(0, 0x43, 0, Bytes.direct(new byte[50])).writeAll();
        org.iwarp4j.ddp.send.MsnWrapBridge.restartQueueAt(s, 2, 0xFFFFFFFF);
        s.untagged(2, 0x47, 0, Bytes.direct(new byte[4])).writeAll();
        s.untagged(2, 0x47, 0, Bytes.direct(new byte[4])).writeAll();
        List<String> qnMsn =
                llp.segments.stream().map(x -> qnOf(x) + ":" + Integer.toUnsignedString(msnOf(x))).toList();
        assertThat(qnMsn)
                .containsExactly("0:1", "0:1", "0:1", "1:1", "1:1", "0:2", "0:2", "0:2", "2:4294967295", "2:0");

        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            assertThat(ulp.post(rx, 0, 8)).isEqualTo(1);
            assertThat(ulp.post(rx, 0, 8)).isEqualTo(2);
            assertThat(ulp.post(rx, 1, 8)).isEqualTo(1);
            MsnWrapBridge.restartQueueAt(rx, 2, 0xFFFFFFFF);
            assertThat(ulp.post(rx, 2, 8)).isEqualTo(0xFFFFFFFF);
            assertThat(ulp.post(rx, 2, 8)).isEqualTo(0);
            rx.receive(Bytes.direct(untagged(true, 0x47, 2, 0xFFFFFFFF, 0, Bytes.pattern(3, 1))));
            rx.receive(Bytes.direct(untagged(true, 0x47, 2, 0, 0, Bytes.pattern(3, 2))));
            assertThat(ulp.all(UntaggedDelivered.class)).extracting(UntaggedDelivered::msn)
                    .containsExactly(0xFFFFFFFF, 0);
        }
    }

    /**
     * DDP-12 (RFC 5041 §4.3, §5.2): MO is 0 for the first segment and each segment's payload offset in the
     * message. Sender: MOs 0, k, 2k…; receiver: segments placed at their MO even when the later half
     * arrives first.
     */
    @Test
    @Requirement("DDP-12")
    @DisplayName("DDP-12: MO is 0 on the first segment and the payload offset on every segment")
    void messageOffset() {
        CapturingLlp llp = new CapturingLlp(18 + 7);
        new DdpSender(llp, Bytes.ALLOC, 3).untagged(0, 0x43, 0, Bytes.direct(new byte[30])).writeAll();
        assertThat(llp.segments).extracting(x -> moOf(x)).containsExactly(0, 7, 14, 21, 28);
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            ulp.post(rx, 0, 20);
            rx.receive(Bytes.direct(untagged(false, 0x43, 0, 1, 10, Bytes.pattern(5, 10))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 0, Bytes.pattern(10, 0))));
            assertThat(Arrays.copyOf(ulp.posted(0), 15)).isEqualTo(Bytes.pattern(15, 0));
        }
    }

    /**
     * DDP-13 (RFC 5041 §4.4): every segment carries a complete DDP header (payload optional). The sender
     * writes a full header on every segment, also without payload; a segment shorter than its header is
     * refused (RFC 5041 names no code: reported as 0x1/0x0/0x00, no header copied into a Terminate) and
     * nothing is placed.
     */
    @Test
    @Requirement("DDP-13")
    @DisplayName("DDP-13: every segment carries a complete header; a truncated one is refused")
    void completeHeader() {
        CapturingLlp llp = new CapturingLlp(20);
        DdpSender s = new DdpSender(llp, Bytes.ALLOC, 3);
        s.tagged(0x40, 1, 0, Bytes.direct(new byte[0])).writeAll();
        s.untagged(0, 0x43, 0, Bytes.direct(new byte[0])).writeAll();
        s.tagged(0x40, 1, 0, Bytes.direct(new byte[13])).writeAll();
        for (byte[] seg : llp.segments) {
            assertThat(seg.length).isGreaterThanOrEqualTo(isTagged(seg) ? TAGGED_HEADER : UNTAGGED_HEADER);
        }
        assertThat(llp.segments.get(0)).hasSize(TAGGED_HEADER);
        assertThat(llp.segments.get(1)).hasSize(UNTAGGED_HEADER);
        for (byte[] truncated : new byte[][] {Arrays.copyOf(tagged(true, 0x40, 0x100, 0, new byte[0]), 13),
                Arrays.copyOf(untagged(true, 0x43, 0, 1, 0, new byte[0]), 17)}) {
            try (TestRegion region = TestRegion.writable(0x100, 0, 8, PD); DdpRecorder ulp = new DdpRecorder()) {
                DdpReceiver rx = ulp.receiver(stag -> region, PD, STREAM);
                ulp.post(rx, 0, 8);
                rx.receive(Bytes.direct(truncated));
                DdpException e = ulp.rejection();
                assertThat(e.error()).isEqualTo(DdpError.LOCAL_CATASTROPHIC);
                assertThat(e.hasTerminatedDdpHeader()).isFalse();
                assertThat(region.untouched()).isTrue();
                assertThat(ulp.posted(0)).containsOnly(TestRegion.FILL);
            }
        }
    }
}
