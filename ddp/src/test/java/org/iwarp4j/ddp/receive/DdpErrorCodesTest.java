package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.RecordingListener;
import org.iwarp4j.ddp.SegmentBytes;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every DDP error code of RFC 5041 §7.2 (docs/protocol/errors.md §3): detected, reported once with the exact offending
 * header and segment length, the target memory untouched, and every later segment dropped (RFC 5041 §7.1).
 */
class DdpErrorCodesTest {

    private static final long PD = 42;
    private static final Object STREAM = new Object();
    private static final int FILL = 0xEE;

    private final Map<Integer, ByteBufTaggedBuffer> regions = new HashMap<>();
    private final RecordingListener listener = new RecordingListener();
    private final DdpReceiver receiver =
            new DdpReceiver(regions::get, PD, STREAM, DdpReceiver.QUEUES_RFC7306, listener);
    private final ByteBuf regionMemory = Bytes.directFilled(4096, FILL);
    private final ByteBuf sendMemory = Unpooled.buffer(100, 100).writeZero(100).setIndex(0, 0);

    DdpErrorCodesTest() {
        for (int i = 0; i < 100; i++) {
            sendMemory.setByte(i, FILL);
        }
        regions.put(0x100, ByteBufTaggedBuffer.writable(0x100, 0x10000, regionMemory, PD));
    }

    @AfterEach
    void release() {
        regionMemory.release();
    }

    /** Feeds {@code segment}, expects exactly one rejection with {@code error}, then checks the aftermath. */
    private DdpException expectRejected(byte[] segment, DdpError error) {
        receiver.receive(Bytes.pooled(segment));
        assertThat(listener.rejected).hasSize(1);
        DdpException e = listener.rejected.get(0);
        assertThat(e.error()).isEqualTo(error);
        assertThat(e.layer()).isEqualTo(1);
        assertThat(e.errorType()).isEqualTo(error.type().value());
        assertThat(e.errorCode()).isEqualTo(error.code());
        assertThat(e.ddpSegmentLength()).isEqualTo(segment.length);
        int headerLength = segment.length == 0 ? 0 : (segment[0] & 0x80) != 0 ? 14 : 18;
        assertThat(e.terminatedDdpHeader()).isEqualTo(Arrays.copyOf(segment, Math.min(headerLength, segment.length)));
        // The offending segment's target memory is never touched.
        assertThat(Bytes.contents(regionMemory)).containsOnly((byte) FILL);
        assertThat(Bytes.contents(sendMemory)).containsOnly((byte) FILL);
        assertThat(listener.delivered).isEmpty();
        // RFC 5041 §7.1: all later segments of the stream are dropped silently, even valid ones.
        int events = listener.events.size();
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x100, 0x10000, new byte[] {1, 2, 3})));
        receiver.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(10, 10)));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 0, new byte[] {1})));
        assertThat(listener.events).hasSize(events);
        assertThat(Bytes.contents(regionMemory)).containsOnly((byte) FILL);
        assertThat(receiver.isStopped()).isTrue();
        return e;
    }

    private void postSend() {
        receiver.post(0, new ByteBufUntaggedBuffer(sendMemory));
    }

    // ---------------------------------------------------------------- 0x1/0x0/0x00

    @Test
    void localCatastrophicForAnEmptySegment() {
        DdpException e = expectRejected(new byte[0], DdpError.LOCAL_CATASTROPHIC);
        assertThat(e.hasTerminatedDdpHeader()).isFalse();
    }

    @Test
    void localCatastrophicForATruncatedTaggedHeader() {
        byte[] segment = Arrays.copyOf(SegmentBytes.write(true, 0x100, 0x10000, new byte[0]), 13);
        DdpException e = expectRejected(segment, DdpError.LOCAL_CATASTROPHIC);
        assertThat(e.terminatedDdpHeader()).hasSize(13);
        assertThat(e.hasTerminatedDdpHeader()).isFalse();
    }

    @Test
    void localCatastrophicForATruncatedUntaggedHeader() {
        postSend();
        expectRejected(Arrays.copyOf(SegmentBytes.send(true, 1, 0, new byte[0]), 17), DdpError.LOCAL_CATASTROPHIC);
    }

    // ---------------------------------------------------------------- 0x1/0x1/0x00

    @Test
    void invalidStagForAnUnknownStag() {
        DdpException e = expectRejected(SegmentBytes.write(true, 0x101, 0x10000, new byte[8]), DdpError.INVALID_STAG);
        assertThat(e.hasTerminatedDdpHeader()).isTrue();
        assertThat(e.getMessage()).startsWith("0x1/0x1/0x00 Invalid STag");
    }

    @Test
    void invalidStagForAnInvalidatedStag() {
        regions.get(0x100).invalidate();
        expectRejected(SegmentBytes.write(true, 0x100, 0x10000, new byte[8]), DdpError.INVALID_STAG);
    }

    @Test
    void invalidStagForAWriteIntoARegionWithoutRemoteWrite() {
        regions.put(0x200, new ByteBufTaggedBuffer(0x200, 0x10000, regionMemory,
                EnumSet.of(TaggedBufferAccess.LOCAL_WRITE, TaggedBufferAccess.REMOTE_READ), PD, null));
        DdpException e = expectRejected(SegmentBytes.write(true, 0x200, 0x10000, new byte[8]), DdpError.INVALID_STAG);
        assertThat(e.getMessage()).contains("REMOTE_WRITE");
    }

    @Test
    void invalidStagForAReadResponseIntoARegionWithoutLocalWrite() {
        listener.taggedAdmission = TaggedAdmission.LOCAL_WRITE;
        regions.put(0x200, new ByteBufTaggedBuffer(0x200, 0x10000, regionMemory,
                EnumSet.of(TaggedBufferAccess.REMOTE_READ), PD, null));
        expectRejected(SegmentBytes.tagged(0xC1, 0x42, 0x200, 0x10000, new byte[8]), DdpError.INVALID_STAG);
    }

    @Test
    void readResponseIntoALocalWriteOnlyRegionIsPlaced() {
        listener.taggedAdmission = TaggedAdmission.LOCAL_WRITE;
        regions.put(0x200, new ByteBufTaggedBuffer(0x200, 0x10000, regionMemory,
                EnumSet.of(TaggedBufferAccess.LOCAL_WRITE), PD, null));
        receiver.receive(Bytes.pooled(SegmentBytes.tagged(0xC1, 0x42, 0x200, 0x10002, new byte[] {9, 8})));
        assertThat(listener.rejected).isEmpty();
        assertThat(regionMemory.getByte(2)).isEqualTo((byte) 9);
        assertThat(regionMemory.getByte(3)).isEqualTo((byte) 8);
    }

    // ---------------------------------------------------------------- 0x1/0x1/0x01

    @Test
    void baseOrBoundsViolationForATaggedOffsetBelowTheBase() {
        expectRejected(SegmentBytes.write(true, 0x100, 0xFFFF, new byte[8]), DdpError.BASE_OR_BOUNDS_VIOLATION);
    }

    @Test
    void baseOrBoundsViolationForAnEndBeyondTheRegion() {
        expectRejected(SegmentBytes.write(true, 0x100, 0x10000 + 4096 - 7, new byte[8]),
                DdpError.BASE_OR_BOUNDS_VIOLATION);
    }

    @Test
    void baseOrBoundsViolationForATaggedOffsetJustPastTheEnd() {
        expectRejected(SegmentBytes.write(true, 0x100, 0x10000 + 4096, new byte[1]), DdpError.BASE_OR_BOUNDS_VIOLATION);
    }

    // ---------------------------------------------------------------- 0x1/0x1/0x02

    @Test
    void stagNotAssociatedForARegionOfAnotherProtectionDomain() {
        regions.put(0x300, ByteBufTaggedBuffer.writable(0x300, 0x10000, regionMemory, PD + 1));
        expectRejected(SegmentBytes.write(true, 0x300, 0x10000, new byte[8]), DdpError.STAG_NOT_ASSOCIATED);
    }

    @Test
    void stagNotAssociatedForARegionBoundToAnotherStream() {
        regions.put(0x300, new ByteBufTaggedBuffer(0x300, 0x10000, regionMemory,
                EnumSet.of(TaggedBufferAccess.REMOTE_WRITE), PD, new Object()));
        expectRejected(SegmentBytes.write(true, 0x300, 0x10000, new byte[8]), DdpError.STAG_NOT_ASSOCIATED);
    }

    @Test
    void regionBoundToThisStreamIsPlaced() {
        regions.put(0x300, new ByteBufTaggedBuffer(0x300, 0x10000, regionMemory,
                EnumSet.of(TaggedBufferAccess.REMOTE_WRITE), PD, STREAM));
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x300, 0x10000, new byte[] {5})));
        assertThat(listener.rejected).isEmpty();
        assertThat(regionMemory.getByte(0)).isEqualTo((byte) 5);
    }

    // ---------------------------------------------------------------- 0x1/0x1/0x03

    @Test
    void toWrapForAnAccessWhoseEndReaches2To64() {
        // docs/protocol/ddp.md §7: TO 0xFFFFFFFFFFFFFF00 + 256 octets = 2^64 wraps, although the last octet is in
        // the region.
        regions.put(0x400, ByteBufTaggedBuffer.writable(0x400, 0xFFFFFFFFFFFFF000L, regionMemory, PD));
        expectRejected(SegmentBytes.write(true, 0x400, 0xFFFFFFFFFFFFFF00L, new byte[256]), DdpError.TO_WRAP);
    }

    @Test
    void toWrapInARegionThatStraddles2To64() {
        // 3 KiB past 2^64
        regions.put(0x400, ByteBufTaggedBuffer.writable(0x400, 0xFFFFFFFFFFFFFC00L, regionMemory, PD));
        expectRejected(SegmentBytes.write(true, 0x400, 0xFFFFFFFFFFFFFFF0L, new byte[32]), DdpError.TO_WRAP);
    }

    /** The wrap needs no state, so it is decided first: before the ULP is asked and whatever the STag names. */
    @Test
    void toWrapIsDecidedByTheOctetsAloneBeforeTheUlpAndTheStag() {
        expectRejected(SegmentBytes.write(true, 0x999, 0xFFFFFFFFFFFFFFF0L, new byte[16]), DdpError.TO_WRAP);
        assertThat(listener.events).noneMatch(e -> e.startsWith("admitTagged"));
    }

    @Test
    void toWrapOutsideEveryRegionIsStillATaggedWrap() {
        expectRejected(SegmentBytes.write(false, 0x100, 0xFFFFFFFFFFFFFFFFL, new byte[1]), DdpError.TO_WRAP);
    }

    @Test
    void aZeroLengthTaggedSegmentAtTheTopOfTheSpaceIsNotAWrap() {
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x999, 0xFFFFFFFFFFFFFFFFL, new byte[0])));
        assertThat(listener.rejected).isEmpty();
    }

    @Test
    void anAccessEndingJustBelow2To64IsPlaced() {
        regions.put(0x400, ByteBufTaggedBuffer.writable(0x400, 0xFFFFFFFFFFFFF000L, regionMemory, PD));
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x400, 0xFFFFFFFFFFFFFF00L, new byte[255])));
        assertThat(listener.rejected).isEmpty();
        assertThat(regionMemory.getByte(0xF00)).isZero();
        assertThat(regionMemory.getByte(0xFFF)).isEqualTo((byte) FILL);
    }

    // ---------------------------------------------------------------- 0x1/0x1/0x04

    @Test
    void taggedInvalidDdpVersion() {
        for (int dv : new int[] {0, 2, 3}) {
            DdpErrorCodesTest t = new DdpErrorCodesTest();
            try {
                t.expectRejected(SegmentBytes.tagged(0xC0 | dv, 0x40, 0x100, 0x10000, new byte[4]),
                        DdpError.TAGGED_INVALID_DDP_VERSION);
            } finally {
                t.release();
            }
        }
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x01

    @Test
    void invalidQnBeyondTheQueuesOfTheStream() {
        postSend();
        expectRejected(SegmentBytes.untagged(0x41, 0x43, 0, 4, 1, 0, new byte[4]), DdpError.INVALID_QN);
    }

    @Test
    void invalidQnForQueue3WithoutRfc7306AndForQn0xFFFFFFFF() {
        DdpReceiver rfc5040 = new DdpReceiver(regions::get, PD, STREAM, DdpReceiver.QUEUES_RFC5040, listener);
        rfc5040.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x4B, 0, 3, 1, 0, new byte[12])));
        DdpReceiver other = new DdpReceiver(regions::get, PD, STREAM, DdpReceiver.QUEUES_RFC7306, listener);
        other.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x43, 0, 0xFFFFFFFF, 1, 0, new byte[4])));
        assertThat(listener.rejected).extracting(DdpException::error)
                .containsExactly(DdpError.INVALID_QN, DdpError.INVALID_QN);
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x02

    @Test
    void noBufferAvailableWhenNothingIsPosted() {
        expectRejected(SegmentBytes.send(true, 1, 0, new byte[10]), DdpError.INVALID_MSN_NO_BUFFER);
    }

    @Test
    void noBufferAvailableForAZeroLengthSendWhenNothingIsPosted() {
        expectRejected(SegmentBytes.send(true, 1, 0, new byte[0]), DdpError.INVALID_MSN_NO_BUFFER);
    }

    @Test
    void noBufferAvailableForAnMsnAheadOfTheLastPostedBuffer() {
        postSend();
        expectRejected(SegmentBytes.send(true, 2, 0, new byte[10]), DdpError.INVALID_MSN_NO_BUFFER);
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x03

    @Test
    void msnRangeNotValidForAnMsnBehindTheWindow() {
        postSend();
        expectRejected(SegmentBytes.send(true, 0, 0, new byte[10]), DdpError.INVALID_MSN_RANGE);
    }

    @Test
    void msnRangeNotValidForARepeatedMsn() {
        receiver.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(10, 10)));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 0, new byte[3])));
        assertThat(listener.delivered).hasSize(1);
        listener.delivered.clear();
        postSend();
        expectRejected(SegmentBytes.send(true, 1, 0, new byte[10]), DdpError.INVALID_MSN_RANGE);
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x04

    @Test
    void invalidMoBeyondTheBuffer() {
        postSend();
        expectRejected(SegmentBytes.send(true, 1, 101, new byte[1]), DdpError.INVALID_MO);
    }

    @Test
    void invalidMoForAnMoWithTheTopBitSet() {
        postSend();
        expectRejected(SegmentBytes.send(false, 1, 0x80000000, new byte[1]), DdpError.INVALID_MO);
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x05

    @Test
    void messageTooLongForTheBuffer() {
        postSend();
        expectRejected(SegmentBytes.send(true, 1, 0, new byte[101]), DdpError.MESSAGE_TOO_LONG);
    }

    @Test
    void messageTooLongWhenALaterSegmentOverrunsTheBuffer() {
        postSend();
        receiver.receive(Bytes.pooled(SegmentBytes.send(false, 1, 0, Bytes.pattern(100, 1))));
        assertThat(sendMemory.getByte(99)).isEqualTo(Bytes.pattern(100, 1)[99]);
        for (int i = 0; i < 100; i++) {
            sendMemory.setByte(i, FILL); // reset so that "untouched" can be checked for the offending segment
        }
        expectRejected(SegmentBytes.send(true, 1, 100, new byte[1]), DdpError.MESSAGE_TOO_LONG);
    }

    /**
     * RFC 5041 §5.2: a message is shorter than 2^32 octets. A segment whose MO + payload reaches 2^32 fits no
     * buffer; it is rejected from its octets alone, before the MSN is looked up and before the ULP is asked.
     */
    @Test
    void messageTooLongWhenMoPlusPayloadReaches2To32EvenWithNoBufferPosted() {
        expectRejected(SegmentBytes.send(false, 7, 0xFFFFFFFC, new byte[4]), DdpError.MESSAGE_TOO_LONG);
        assertThat(listener.events).noneMatch(e -> e.startsWith("admitUntagged"));
    }

    @Test
    void theMessageLimitIsBelow2To32() {
        assertThat(DdpReceiver.exceedsMessageLimit(0xFFFFFFFB, 4)).isFalse();
        assertThat(DdpReceiver.exceedsMessageLimit(0xFFFFFFFC, 4)).isTrue();
        assertThat(DdpReceiver.exceedsMessageLimit(0xFFFFFFFF, 0)).isFalse();
        assertThat(DdpReceiver.exceedsMessageLimit(0, Integer.MAX_VALUE)).isFalse();
    }

    // ---------------------------------------------------------------- 0x1/0x2/0x06

    @Test
    void untaggedInvalidDdpVersion() {
        postSend();
        expectRejected(SegmentBytes.untagged(0x40, 0x43, 0, 0, 1, 0, new byte[4]),
                DdpError.UNTAGGED_INVALID_DDP_VERSION);
    }

    @Test
    void versionIsCheckedBeforeTheQueueNumber() {
        expectRejected(SegmentBytes.untagged(0x42, 0x43, 0, 9, 1, 0, new byte[4]),
                DdpError.UNTAGGED_INVALID_DDP_VERSION);
    }

    // ---------------------------------------------------------------- ULP rejection

    @Test
    void ulpRejectionLeavesMemoryUntouchedAndStopsTheStreamWithoutADdpError() {
        listener.taggedAdmission = TaggedAdmission.REJECT;
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x100, 0x10000, new byte[8])));
        listener.untaggedAdmission = UntaggedAdmission.PLACE;
        listener.taggedAdmission = TaggedAdmission.REMOTE_WRITE;
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0x100, 0x10000, new byte[8])));
        assertThat(listener.rejected).isEmpty();
        assertThat(listener.events).hasSize(1).allMatch(s -> s.startsWith("admitTagged"));
        assertThat(Bytes.contents(regionMemory)).containsOnly((byte) FILL);
    }

    @Test
    void untaggedUlpRejectionLeavesTheBufferUntouchedAndUnconsumed() {
        postSend();
        listener.untaggedAdmission = UntaggedAdmission.REJECT;
        receiver.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x4F, 0, 0, 1, 0, new byte[8])));
        assertThat(Bytes.contents(sendMemory)).containsOnly((byte) FILL);
        assertThat(receiver.postedCount(0)).isEqualTo(1);
        assertThat(receiver.isStopped()).isTrue();
        assertThat(receiver.removePosted(0)).hasSize(1);
    }

    @Test
    void zeroLengthTaggedSegmentsAreNotChecked() {
        // RFC 5041 §5.2: STag and TO of a zero-length tagged segment MUST NOT be checked.
        receiver.receive(Bytes.pooled(SegmentBytes.write(true, 0xDEAD, 0xFFFFFFFFFFFFFFFFL, new byte[0])));
        assertThat(listener.rejected).isEmpty();
        assertThat(listener.taggedDelivered).containsExactly(
                new RecordingListener.TaggedDelivered(0x40, 0xDEAD, 0xFFFFFFFFFFFFFFFFL, 0));
    }

    @Test
    void reservedControlBitsAreNotChecked() {
        // RFC 5041 §4.1: Rsvd is not checked on receive.
        receiver.receive(Bytes.pooled(SegmentBytes.tagged(0xC1 | 0x3C, 0x40, 0x100, 0x10000, new byte[] {7})));
        assertThat(listener.rejected).isEmpty();
        assertThat(regionMemory.getByte(0)).isEqualTo((byte) 7);
    }

    @Test
    void lowerLayerFailureStopsPlacementAndIsPassedUpOnce() {
        Throwable[] seen = new Throwable[2];
        int[] n = {0};
        RecordingListener l = new RecordingListener();
        DdpReceiver r = new DdpReceiver(regions::get, PD, STREAM, 3, new DelegatingListener(l) {
            @Override
            public void onLowerLayerFailure(Throwable cause) {
                seen[n[0]++] = cause;
            }
        });
        IllegalStateException cause = new IllegalStateException("CRC");
        r.lowerLayerFailed(cause);
        r.lowerLayerFailed(new IllegalStateException("again"));
        r.receive(Bytes.pooled(SegmentBytes.write(true, 0x100, 0x10000, new byte[8])));
        assertThat(n[0]).isEqualTo(1);
        assertThat(seen[0]).isSameAs(cause);
        assertThat(l.events).isEmpty();
        assertThat(Bytes.contents(regionMemory)).containsOnly((byte) FILL);
    }
}
