package org.iwarp4j.conformance.ddp;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.DdpRecorder;
import org.iwarp4j.conformance.support.TestRegion;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.DdpErrorType;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.DdpSegments.*;

/** Error detection and reporting at the Data Sink (RFC 5041 §7, §8.2). */
class DdpErrorTest {

    private static final long PD = 11;
    private static final Object STREAM = new Object();

    /** Runs {@code setup} on a fresh receiver (QN 0 buffers of 16 octets posted by it), then feeds {@code segment}. */
    private static DdpException untaggedError(Consumer<Ctx> setup, byte[] segment) {
        try (DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(TaggedBufferRegistry.empty(), PD, STREAM);
            Ctx ctx = new Ctx(rx, ulp);
            setup.accept(ctx);
            int delivered = ulp.all(DdpRecorder.UntaggedDelivered.class).size();
            rx.receive(Bytes.direct(segment));
            DdpException e = ulp.rejection();
            for (int i = delivered; i < ctx.posted; i++) {
                assertThat(ulp.posted(i)).as("buffer %d untouched", i).containsOnly(TestRegion.FILL);
            }
            assertThat(e.terminatedDdpHeader()).isEqualTo(Arrays.copyOf(segment, UNTAGGED_HEADER));
            assertThat(e.ddpSegmentLength()).isEqualTo(segment.length);
            return e;
        }
    }

    private static final class Ctx {
        final DdpReceiver rx;
        final DdpRecorder ulp;
        int posted;

        Ctx(DdpReceiver rx, DdpRecorder ulp) {
            this.rx = rx;
            this.ulp = ulp;
        }

        Ctx post(int n) {
            for (int i = 0; i < n; i++) {
                ulp.post(rx, 0, 16);
                posted++;
            }
            return this;
        }

        Ctx receive(byte[] segment) {
            rx.receive(Bytes.direct(segment));
            return this;
        }
    }

    /**
     * DDP-28 (RFC 5041 §7.1, §7.2): every non-zero-length untagged segment is checked before placement —
     * valid QN (0x01), a buffer for (QN, MSN) (0x02), MO within the buffer (0x04), MO + length within the
     * buffer (0x05), MSN within the window of posted buffers (0x03) — and a failing segment touches no
     * buffer. The QN is checked before the buffer.
     */
    @Test
    @Requirement("DDP-28")
    @DisplayName("DDP-28: untagged checks (QN, buffer, MO, length, MSN window) run before any placement")
    void untaggedChecks() {
        byte[] p = Bytes.pattern(8, 1);
        assertThat(untaggedError(c -> c.post(1), untagged(true, 0x43, 3, 1, 0, p)).error())
                .isEqualTo(DdpError.INVALID_QN);
        assertThat(untaggedError(c -> { }, untagged(true, 0x43, 7, 1, 0, p)).error()).as("QN before buffer")
                .isEqualTo(DdpError.INVALID_QN);
        assertThat(untaggedError(c -> { }, untagged(true, 0x43, 0, 1, 0, p)).error())
                .isEqualTo(DdpError.INVALID_MSN_NO_BUFFER);
        assertThat(untaggedError(c -> c.post(2), untagged(true, 0x43, 0, 3, 0, p)).error())
                .isEqualTo(DdpError.INVALID_MSN_NO_BUFFER);
        assertThat(untaggedError(c -> c.post(2).receive(untagged(true, 0x43, 0, 1, 0, p)),
                untagged(true, 0x43, 0, 1, 0, p)).error())
                .as("MSN already consumed: behind the window").isEqualTo(DdpError.INVALID_MSN_RANGE);
        assertThat(untaggedError(c -> c.post(1), untagged(false, 0x43, 0, 1, 17, p)).error())
                .isEqualTo(DdpError.INVALID_MO);
        assertThat(untaggedError(c -> c.post(1), untagged(true, 0x43, 0, 1, 9, p)).error())
                .isEqualTo(DdpError.MESSAGE_TOO_LONG);
        assertThat(untaggedError(c -> c.post(1), untagged(true, 0x43, 0, 1, 0, new byte[17])).error())
                .isEqualTo(DdpError.MESSAGE_TOO_LONG);
    }

    /**
     * DDP-29 (RFC 5041 §7.1, §7.2): every non-zero-length tagged segment is checked before placement — STag
     * valid for the stream with a buffer that allows placement (0x00), TO and TO + length inside the
     * registered range (0x01), no 64-bit wrap (0x03) — and a failing segment does not touch the region,
     * not even the part that would have fitted.
     */
    @Test
    @Requirement("DDP-29")
    @DisplayName("DDP-29: tagged checks (STag, bounds, TO wrap) run before any placement")
    void taggedChecks() {
        byte[] p = Bytes.pattern(16, 1);
        assertThat(taggedError(TestRegion.writable(5, 0x1000, 64, PD), 6, 0x1000, p)).isEqualTo(DdpError.INVALID_STAG);
        assertThat(taggedError(TestRegion.writable(5, 0x1000, 64, PD).invalidate(), 5, 0x1000, p))
                .isEqualTo(DdpError.INVALID_STAG);
        assertThat(taggedError(new TestRegion(5, 0x1000, 64, PD, null, EnumSet.of(TaggedBufferAccess.REMOTE_READ)), 5,
                0x1000, p))
                .as("no remote write right").isEqualTo(DdpError.INVALID_STAG);
        assertThat(taggedError(TestRegion.writable(5, 0x1000, 64, PD), 5, 0x0FFF, p))
                .isEqualTo(DdpError.BASE_OR_BOUNDS_VIOLATION);
        assertThat(taggedError(TestRegion.writable(5, 0x1000, 64, PD), 5, 0x1041, p))
                .isEqualTo(DdpError.BASE_OR_BOUNDS_VIOLATION);
        assertThat(taggedError(TestRegion.writable(5, 0x1000, 64, PD), 5, 0x1031, p))
                .isEqualTo(DdpError.BASE_OR_BOUNDS_VIOLATION);
        assertThat(taggedError(TestRegion.writable(5, 0xFFFFFFFFFFFFFF00L, 256, PD), 5, 0xFFFFFFFFFFFFFFF0L, p))
                .as("TO + 16 = 2^64").isEqualTo(DdpError.TO_WRAP);
    }

    private static DdpError taggedError(TestRegion region, int stag, long to, byte[] payload) {
        try (region; DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(s -> s == region.stag() ? region : null, PD, STREAM);
            byte[] segment = tagged(true, 0x40, stag, to, payload);
            rx.receive(Bytes.direct(segment));
            DdpException e = ulp.rejection();
            assertThat(region.untouched()).isTrue();
            assertThat(e.terminatedDdpHeader()).isEqualTo(Arrays.copyOf(segment, TAGGED_HEADER));
            return e.error();
        }
    }

    /**
     * DDP-30 (RFC 5041 §7.1): on a failed check DDP stops placing that segment, reports the error (with the
     * DDP header, error type and segment length), silently drops every later segment of the stream, and
     * should let the ULP send one more message. The golden RDMA Write (fpdu-rdma-write) hitting a region too
     * small yields exactly the header, type and length that the golden Terminate
     * fpdu-terminate-ddp-tagged-bounds carries; later valid segments are neither placed nor reported; and
     * the ULP's Terminate, sent through DDP afterwards, is octet for octet that vector's ULPDU.
     */
    @Test
    @Requirement("DDP-30")
    @DisplayName("DDP-30: the first error is reported with header/type/length, later segments are dropped, a Terminate "
            + "can follow")
    void afterAnError() {
        GoldenVector write = GoldenVectors.named("fpdu-rdma-write");
        GoldenVector terminate = GoldenVectors.named("fpdu-terminate-ddp-tagged-bounds");
        byte[] segment = write.hex("ulpdu_hex");
        try (TestRegion region = TestRegion.writable(stagOf(segment), toOf(segment), 32, PD);
                DdpRecorder ulp = new DdpRecorder()) {
            DdpReceiver rx = ulp.receiver(s -> s == region.stag() ? region : null, PD, STREAM);
            ulp.post(rx, 0, 64);
            rx.receive(Bytes.direct(segment));
            DdpException e = ulp.rejection();
            assertThat(e.layer()).isEqualTo(terminate.intField("term.layer"));
            assertThat(e.errorType()).isEqualTo(terminate.intField("term.etype"));
            assertThat(e.errorCode()).isEqualTo(terminate.intField("term.error_code"));
            assertThat(e.ddpSegmentLength()).isEqualTo(terminate.intField("term.ddp_segment_length"));
            assertThat(e.hasTerminatedDdpHeader()).isTrue();

            rx.receive(Bytes.direct(tagged(true, 0x40, region.stag(), region.baseTaggedOffset(), Bytes.pattern(8, 0))));
            rx.receive(Bytes.direct(untagged(true, 0x43, 0, 1, 0, Bytes.pattern(8, 0))));
            assertThat(ulp.calls).hasSize(1);
            assertThat(region.untouched()).isTrue();
            assertThat(ulp.posted(0)).containsOnly(TestRegion.FILL);
            assertThat(rx.isStopped()).isTrue();

            // the ULP (RDMAP) builds its Terminate from the report: control word, segment length, the header
            ByteBuf payload = Bytes.ALLOC.buffer();
            payload.writeByte(e.layer() << 4 | e.errorType()).writeByte(e.errorCode()).writeByte(0xC0).writeByte(0)
                    .writeShort(e.ddpSegmentLength());
            e.writeTerminatedDdpHeader(payload);
            CapturingLlp llp = new CapturingLlp(1442);
            new DdpSender(llp, Bytes.ALLOC, 3).untagged(2, 0x47, 0, payload).writeAll();
            assertThat(llp.segments).containsExactly(terminate.hex("ulpdu_hex"));
        }
    }

    /**
     * DDP-31 (RFC 5041 §7.2; docs/protocol/errors.md §3): errors carry the RFC 5041 EType/Code numbers — Layer
     * 0x1; EType 0x0 local catastrophic, 0x1 tagged (codes 0x00–0x04), 0x2 untagged (codes 0x01–0x06).
     */
    @Test
    @Requirement("DDP-31")
    @DisplayName("DDP-31: DDP errors use the RFC 5041 §7.2 EType and code numbers")
    void errorNumbers() {
        Map<DdpError, String> expected = Map.ofEntries(
                Map.entry(DdpError.LOCAL_CATASTROPHIC, "0x1/0x0/0x00"),
                Map.entry(DdpError.INVALID_STAG, "0x1/0x1/0x00"),
                Map.entry(DdpError.BASE_OR_BOUNDS_VIOLATION, "0x1/0x1/0x01"),
                Map.entry(DdpError.STAG_NOT_ASSOCIATED, "0x1/0x1/0x02"),
                Map.entry(DdpError.TO_WRAP, "0x1/0x1/0x03"),
                Map.entry(DdpError.TAGGED_INVALID_DDP_VERSION, "0x1/0x1/0x04"),
                Map.entry(DdpError.INVALID_QN, "0x1/0x2/0x01"),
                Map.entry(DdpError.INVALID_MSN_NO_BUFFER, "0x1/0x2/0x02"),
                Map.entry(DdpError.INVALID_MSN_RANGE, "0x1/0x2/0x03"),
                Map.entry(DdpError.INVALID_MO, "0x1/0x2/0x04"),
                Map.entry(DdpError.MESSAGE_TOO_LONG, "0x1/0x2/0x05"),
                Map.entry(DdpError.UNTAGGED_INVALID_DDP_VERSION, "0x1/0x2/0x06"));
        assertThat(DdpError.values()).hasSize(expected.size());
        for (DdpError e : DdpError.values()) {
            assertThat(e.notation()).as(e.name()).isEqualTo(expected.get(e));
            assertThat(e.layer()).isEqualTo(1);
        }
        assertThat(List.of(DdpErrorType.values())).extracting(DdpErrorType::value).containsExactly(0, 1, 2);
    }

    /**
     * DDP-32 (RFC 5041 §8.2): DDP supports both protection-domain and stream association of STags; a tagged
     * segment whose STag belongs to another PD, or is bound to another stream, is not placed and raises
     * 0x1/0x1/0x02; an STag of the stream's PD, unbound or bound to this very stream, is placed.
     */
    @Test
    @Requirement("DDP-32")
    @DisplayName("DDP-32: STags of another PD or bound to another stream are not placed (0x1/0x1/0x02)")
    void association() {
        EnumSet<TaggedBufferAccess> w = EnumSet.of(TaggedBufferAccess.REMOTE_WRITE);
        byte[] p = Bytes.pattern(8, 1);
        assertThat(taggedError(new TestRegion(5, 0, 64, PD + 1, null, w), 5, 0, p))
                .isEqualTo(DdpError.STAG_NOT_ASSOCIATED);
        assertThat(taggedError(new TestRegion(5, 0, 64, PD, new Object(), w), 5, 0, p))
                .isEqualTo(DdpError.STAG_NOT_ASSOCIATED);
        for (Object boundTo : new Object[] {null, STREAM}) {
            try (TestRegion region = new TestRegion(5, 0, 64, PD, boundTo, w); DdpRecorder ulp = new DdpRecorder()) {
                DdpReceiver rx = ulp.receiver(s -> region, PD, STREAM);
                rx.receive(Bytes.direct(tagged(true, 0x40, 5, 0, p)));
                assertThat(ulp.all(DdpRecorder.Rejected.class)).isEmpty();
                assertThat(Arrays.copyOf(region.content(), 8)).isEqualTo(p);
            }
        }
    }
}
