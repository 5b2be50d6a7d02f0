package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.RecordingListener;
import org.iwarp4j.ddp.SegmentBytes;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** RFC 5041 §5.3 / §5.4: placement, in-order delivery at most once, only after the L = 1 segment. */
class DeliveryOrderTest {

    private final RecordingListener listener = new RecordingListener();
    private final DdpReceiver receiver = new DdpReceiver(TaggedBufferRegistry.empty(), 1, "s",
            DdpReceiver.QUEUES_RFC7306, listener);

    private ByteBufUntaggedBuffer post(int qn, int capacity) {
        ByteBufUntaggedBuffer b = new ByteBufUntaggedBuffer(Unpooled.buffer(capacity, capacity));
        receiver.post(qn, b);
        return b;
    }

    @Test
    void multiSegmentMessageIsDeliveredOnlyAfterItsLastSegmentWithLengthMoPlusPayload() {
        ByteBufUntaggedBuffer b = post(0, 3000);
        byte[] message = Bytes.pattern(2048, 4);
        receiver.receive(Bytes.pooled(SegmentBytes.send(false, 1, 0, Arrays.copyOfRange(message, 0, 1482))));
        assertThat(listener.delivered).isEmpty();
        receiver.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x46, 0xCAFE, 0, 1, 1482,
                Arrays.copyOfRange(message, 1482, 2048))));
        assertThat(listener.delivered).containsExactly(new RecordingListener.Delivered(0, 1, 0x46, 0xCAFE, 2048, b));
        byte[] placed = new byte[2048];
        b.buffer().getBytes(0, placed);
        assertThat(placed).isEqualTo(message);
        assertThat(listener.events).containsExactly(
                "admitUntagged rsvdUlp=0x43 word=0x00000000 qn=0 msn=1 mo=0 len=1482 last=false",
                "untaggedPlaced qn=0 msn=1 mo=0 len=1482 last=false",
                "admitUntagged rsvdUlp=0x46 word=0x0000cafe qn=0 msn=1 mo=1482 len=566 last=true",
                "untaggedPlaced qn=0 msn=1 mo=1482 len=566 last=true",
                "untaggedDelivered qn=0 msn=1 len=2048");
    }

    @Test
    void aLaterMessageCompletedFirstWaitsForTheEarlierAndEachIsDeliveredOnce() {
        ByteBufUntaggedBuffer b1 = post(0, 100);
        ByteBufUntaggedBuffer b2 = post(0, 100);
        ByteBufUntaggedBuffer b3 = post(0, 100);
        receiver.receive(Bytes.pooled(SegmentBytes.send(false, 1, 0, new byte[] {1, 1})));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 3, 0, new byte[] {3})));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 2, 0, new byte[] {2, 2, 2})));
        // RFC 5041 §5.3: placement may happen in any order, delivery waits for MSN 1.
        assertThat(listener.delivered).isEmpty();
        assertThat(b2.buffer().getByte(0)).isEqualTo((byte) 2);
        assertThat(b3.buffer().getByte(0)).isEqualTo((byte) 3);
        // Placing MSN 2's last segment again is allowed and does not deliver twice.
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 2, 0, new byte[] {2, 2, 2})));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 2, new byte[] {1})));
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::msn).containsExactly(1, 2, 3);
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::length).containsExactly(3, 3, 1);
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::buffer).containsExactly(b1, b2, b3);
        assertThat(receiver.postedCount(0)).isZero();
        assertThat(receiver.expectedMsn(0)).isEqualTo(4);
    }

    @Test
    void queuesAreIndependentAndCountFromOne() {
        post(0, 10);
        post(1, 28);
        post(2, 64);
        post(3, 12);
        receiver.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x4B, 0, 3, 1, 0, new byte[12])));
        receiver.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x41, 0, 1, 1, 0, new byte[28])));
        receiver.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x47, 0, 2, 1, 0, new byte[4])));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 0, new byte[0])));
        assertThat(listener.rejected).isEmpty();
        assertThat(listener.delivered).extracting(d -> d.qn() + "/" + d.msn() + "/" + d.length())
                .containsExactly("3/1/12", "1/1/28", "2/1/4", "0/1/0");
    }

    @Test
    void zeroLengthUntaggedMessageConsumesItsBuffer() {
        ByteBufUntaggedBuffer b1 = post(0, 0);
        post(0, 5);
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 0, new byte[0])));
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::buffer).containsExactly(b1);
        assertThat(receiver.expectedMsn(0)).isEqualTo(2);
        assertThat(receiver.postedCount(0)).isEqualTo(1);
    }

    @Test
    void msnWrapsFrom0xFFFFFFFFTo0() {
        receiver.restartQueueAt(0, 0xFFFFFFFE);
        assertThat(receiver.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(1, 1)))).isEqualTo(0xFFFFFFFE);
        assertThat(receiver.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(1, 1)))).isEqualTo(0xFFFFFFFF);
        assertThat(receiver.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(1, 1)))).isZero();
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 0xFFFFFFFE, 0, new byte[1])));
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 0, 0, new byte[1])));   // ahead, inside the window
        receiver.receive(Bytes.pooled(SegmentBytes.send(true, 0xFFFFFFFF, 0, new byte[1])));
        assertThat(listener.rejected).isEmpty();
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::msn)
                .containsExactly(0xFFFFFFFE, 0xFFFFFFFF, 0);
        assertThat(receiver.expectedMsn(0)).isEqualTo(1);
    }

    @Test
    void theListenerMayRepostFromInsideDelivery() {
        DdpReceiver[] self = new DdpReceiver[1];
        RecordingListener inner = new RecordingListener();
        DdpReceiveListener reposting = new DelegatingListener(inner) {
            @Override
            public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int length,
                                                   UntaggedBuffer buffer) {
                super.onUntaggedMessageDelivered(qn, msn, rsvdUlp, rsvdUlpWord, length, buffer);
                self[0].post(qn, buffer); // like RDMAP re-posting an IRD slot
            }
        };
        DdpReceiver r = new DdpReceiver(TaggedBufferRegistry.empty(), 1, "s", 3, reposting);
        self[0] = r;
        r.post(1, new ByteBufUntaggedBuffer(Unpooled.buffer(28, 28)));
        for (int msn = 1; msn <= 20; msn++) {
            r.receive(Bytes.pooled(SegmentBytes.untagged(0x41, 0x41, 0, 1, msn, 0, new byte[28])));
        }
        assertThat(inner.rejected).isEmpty();
        assertThat(inner.delivered).hasSize(20);
        assertThat(r.postedCount(1)).isEqualTo(1);
        assertThat(r.expectedMsn(1)).isEqualTo(21);
    }

    @Test
    void manyPostedBuffersGrowTheRingAndKeepTheirOrder() {
        ByteBufUntaggedBuffer[] posted = new ByteBufUntaggedBuffer[50];
        for (int i = 0; i < 50; i++) {
            posted[i] = post(0, 4);
            if (i == 5) {
                receiver.receive(Bytes.pooled(SegmentBytes.send(true, 1, 0, new byte[] {1})));
            }
        }
        for (int msn = 2; msn <= 50; msn++) {
            receiver.receive(Bytes.pooled(SegmentBytes.send(true, msn, 0, new byte[] {(byte) msn})));
        }
        assertThat(listener.delivered).extracting(RecordingListener.Delivered::buffer).containsExactly(posted);
        for (int i = 0; i < 50; i++) {
            assertThat(posted[i].buffer().getByte(0)).isEqualTo((byte) (i + 1));
        }
    }

    @Test
    void removePostedReturnsUndeliveredBuffersOldestFirst() {
        ByteBufUntaggedBuffer a = post(0, 4);
        ByteBufUntaggedBuffer b = post(0, 4);
        receiver.receive(Bytes.pooled(SegmentBytes.send(false, 1, 0, new byte[] {1})));
        assertThat(receiver.removePosted(0)).containsExactly(a, b);
        assertThat(receiver.postedCount(0)).isZero();
    }

    @Test
    void taggedMessageDeliveredAfterItsLastSegmentWithFirstToAndTotalLength() {
        ByteBuf memory = Bytes.directFilled(4096, 0);
        try {
            ByteBufTaggedBuffer region = ByteBufTaggedBuffer.writable(9, 0x1000, memory, 1);
            RecordingListener l = new RecordingListener();
            DdpReceiver r = new DdpReceiver(stag -> stag == 9 ? region : null, 1, "s", 3, l);
            r.receive(Bytes.pooled(SegmentBytes.write(false, 9, 0x1000, new byte[100])));
            r.receive(Bytes.pooled(SegmentBytes.write(false, 9, 0x1064, new byte[100])));
            assertThat(l.taggedDelivered).isEmpty();
            r.receive(Bytes.pooled(SegmentBytes.write(true, 9, 0x10C8, new byte[10])));
            r.receive(Bytes.pooled(SegmentBytes.write(true, 9, 0x2000, new byte[0])));
            assertThat(l.taggedDelivered).containsExactly(
                    new RecordingListener.TaggedDelivered(0x40, 9, 0x1000, 210),
                    new RecordingListener.TaggedDelivered(0x40, 9, 0x2000, 0));
        } finally {
            memory.release();
        }
    }

    @Test
    void oneTaggedAndOneUntaggedMessageMayInterleave() {
        ByteBuf memory = Bytes.directFilled(64, 0);
        try {
            ByteBufTaggedBuffer region = ByteBufTaggedBuffer.writable(9, 0, memory, 1);
            RecordingListener l = new RecordingListener();
            DdpReceiver r = new DdpReceiver(stag -> stag == 9 ? region : null, 1, "s", 3, l);
            r.post(0, new ByteBufUntaggedBuffer(Unpooled.buffer(8, 8)));
            r.receive(Bytes.pooled(SegmentBytes.send(false, 1, 0, new byte[] {1, 2})));
            r.receive(Bytes.pooled(SegmentBytes.write(false, 9, 0, new byte[] {3})));
            r.receive(Bytes.pooled(SegmentBytes.send(true, 1, 2, new byte[] {4})));
            r.receive(Bytes.pooled(SegmentBytes.write(true, 9, 1, new byte[] {5})));
            assertThat(l.rejected).isEmpty();
            assertThat(l.events).filteredOn(e -> e.contains("Delivered"))
                    .containsExactly("untaggedDelivered qn=0 msn=1 len=3",
                            "taggedDelivered stag=0x00000009 firstTo=0x0 len=2");
        } finally {
            memory.release();
        }
    }
}
