package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.RecordingListener;
import org.iwarp4j.ddp.SegmentBytes;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receiver reads a segment from its reader index to its writer index — the lower layer may hand up a
 * slice of a larger buffer (e.g. after MPA's ULPDU_Length) — and the ULP reads its own header straight
 * from the borrowed segment during admission.
 */
class SegmentViewTest {

    /** The segment at reader index 2 of a pooled buffer with 2 leading and 6 trailing octets (length, pad, CRC). */
    private static ByteBuf framed(byte[] ulpdu) {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(ulpdu.length + 8);
        b.writeShort(ulpdu.length).writeBytes(ulpdu).writeZero(6);
        return b.setIndex(2, 2 + ulpdu.length);
    }

    @Test
    void rdmapReadsTheReadRequestHeaderFromTheSegmentBeforePlacement() {
        byte[] ulpdu = GoldenVectors.named("fpdu-rdma-read-request").hex("ulpdu_hex");
        long[] sinkTo = new long[1];
        int[] size = new int[1];
        RecordingListener recorder = new RecordingListener();
        DdpReceiveListener rdmapLike = new DelegatingListener(recorder) {
            @Override
            public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                          int payloadLength, boolean last, ByteBuf segment) {
                int header = segment.readerIndex() + UntaggedHeaderFlyweight.HEADER_LENGTH;
                sinkTo[0] = segment.getLong(header + 4);    // Data Sink Tagged Offset
                size[0] = segment.getInt(header + 12);      // RDMA Read Message Size
                return super.admitUntaggedSegment(rsvdUlp, rsvdUlpWord, qn, msn, mo, payloadLength, last, segment);
            }
        };
        DdpReceiver receiver = new DdpReceiver(TaggedBufferRegistry.empty(), 1, "s", 3, rdmapLike);
        ByteBufUntaggedBuffer slot = new ByteBufUntaggedBuffer(Unpooled.buffer(28, 28));
        receiver.post(1, slot);
        receiver.receive(framed(ulpdu));
        var v = GoldenVectors.named("fpdu-rdma-read-request");
        assertThat(sinkTo[0]).isEqualTo(v.number("rr.sink_to"));
        assertThat(size[0]).isEqualTo((int) v.number("rr.rdma_read_message_size"));
        assertThat(recorder.delivered).hasSize(1);
        assertThat(Bytes.contents(slot.buffer())).isEqualTo(Arrays.copyOfRange(ulpdu, 18, 46));
    }

    @Test
    void taggedPlacementAndErrorCaptureRespectTheReaderIndex() {
        ByteBuf memory = Bytes.directFilled(64, 0);
        try {
            ByteBufTaggedBuffer region = ByteBufTaggedBuffer.writable(0x77, 0x100, memory, 1);
            RecordingListener listener = new RecordingListener();
            DdpReceiver receiver = new DdpReceiver(s -> s == 0x77 ? region : null, 1, "s", 3, listener);
            receiver.receive(framed(SegmentBytes.write(true, 0x77, 0x104, new byte[] {1, 2, 3})));
            assertThat(memory.getByte(4)).isEqualTo((byte) 1);
            assertThat(memory.getByte(6)).isEqualTo((byte) 3);
            assertThat(memory.getByte(7)).isZero();
            byte[] bad = SegmentBytes.write(true, 0x77, 0x100 + 62, new byte[] {9, 9, 9});
            receiver.receive(framed(bad));
            DdpException e = listener.rejected.get(0);
            assertThat(e.error()).isEqualTo(DdpError.BASE_OR_BOUNDS_VIOLATION);
            assertThat(e.terminatedDdpHeader()).isEqualTo(Arrays.copyOf(bad, 14));
            assertThat(e.ddpSegmentLength()).isEqualTo(17);
        } finally {
            memory.release();
        }
    }
}
