package org.iwarp4j.ddp;

import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every FPDU vector of {@code rdmap/} and {@code markers/}: the DDP fields decode from {@code ulpdu_hex},
 * the header regenerated from the vector's fields followed by the payload equals {@code ulpdu_hex}, the
 * sender produces exactly that segment, and the receiver places and delivers it.
 */
class GoldenVectorDdpTest {

    static List<GoldenVector> vectors() {
        List<GoldenVector> v = GoldenVectors.ofKind("fpdu", "fpdu-markers").stream()
                .filter(g -> g.group().equals("rdmap") || g.group().equals("markers"))
                .toList();
        assertThat(v).hasSizeGreaterThanOrEqualTo(39);
        return v;
    }

    @Test
    void coversBothVectorGroups() {
        assertThat(vectors()).extracting(GoldenVector::group).contains("rdmap", "markers");
        assertThat(vectors()).hasSize(GoldenVectors.inGroup("rdmap").size() + GoldenVectors.inGroup("markers").size());
    }

    private static int rdmapControl(GoldenVector v) {
        return v.intField("rdmap.rv") << 6 | v.intField("rdmap.rsv") << 4 | v.intField("rdmap.opcode");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void ddpFieldsDecodeFromUlpdu(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        assertThat(ulpdu).hasSize(v.intField("ulpdu_length"));
        ByteBuf buf = Unpooled.wrappedBuffer(ulpdu);
        int control = buf.getUnsignedByte(0);
        assertThat(DdpControl.isTagged(control)).isEqualTo(v.flag("ddp.t"));
        assertThat(DdpControl.isLast(control)).isEqualTo(v.flag("ddp.l"));
        assertThat(DdpControl.reserved(control)).isEqualTo(v.intField("ddp.rsvd"));
        assertThat(DdpControl.version(control)).isEqualTo(v.intField("ddp.dv"));
        if (v.flag("ddp.t")) {
            TaggedHeaderFlyweight h = new TaggedHeaderFlyweight().wrap(buf, 0);
            assertThat(h.rsvdUlp()).isEqualTo(rdmapControl(v));
            assertThat(h.stag()).isEqualTo((int) v.number("ddp.stag"));
            assertThat(h.taggedOffset()).isEqualTo(v.number("ddp.to"));
            assertThat(ulpdu.length - TaggedHeaderFlyweight.HEADER_LENGTH).isEqualTo(v.intField("ulp_payload_length"));
        } else {
            UntaggedHeaderFlyweight h = new UntaggedHeaderFlyweight().wrap(buf, 0);
            assertThat(h.rsvdUlp()).isEqualTo(rdmapControl(v));
            assertThat(h.rsvdUlpWord()).isEqualTo((int) v.number("ddp.rsvdulp_8_39"));
            assertThat(h.queueNumber()).isEqualTo((int) v.number("ddp.qn"));
            assertThat(h.messageSequenceNumber()).isEqualTo((int) v.number("ddp.msn"));
            assertThat(h.messageOffset()).isEqualTo((int) v.number("ddp.mo"));
            assertThat(ulpdu.length - UntaggedHeaderFlyweight.HEADER_LENGTH)
                    .isEqualTo(v.intField("ddp_payload_length"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void headerRegeneratedFromFieldsPlusPayloadIsTheUlpdu(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        boolean tagged = v.flag("ddp.t");
        int headerLength = tagged ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
        ByteBuf out = ByteBufAllocator.DEFAULT.buffer(ulpdu.length);
        try {
            out.writeZero(headerLength);
            int control = (tagged ? DdpControl.TAGGED_MASK : 0) | (v.flag("ddp.l") ? DdpControl.LAST_MASK : 0)
                    | v.intField("ddp.rsvd") << 2 | v.intField("ddp.dv");
            if (tagged) {
                new TaggedHeaderFlyweight().wrap(out, 0).control(control).rsvdUlp(rdmapControl(v))
                        .stag((int) v.number("ddp.stag")).taggedOffset(v.number("ddp.to"));
            } else {
                new UntaggedHeaderFlyweight().wrap(out, 0).control(control).rsvdUlp(rdmapControl(v))
                        .rsvdUlpWord((int) v.number("ddp.rsvdulp_8_39")).queueNumber((int) v.number("ddp.qn"))
                        .messageSequenceNumber((int) v.number("ddp.msn")).messageOffset((int) v.number("ddp.mo"));
            }
            out.writeBytes(ulpdu, headerLength, ulpdu.length - headerLength);
            assertThat(ByteBufUtil.hexDump(out)).isEqualTo(v.field("ulpdu_hex").trim());
        } finally {
            out.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void senderProducesTheVectorSegment(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        boolean tagged = v.flag("ddp.t");
        int headerLength = tagged ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
        byte[] payload = Arrays.copyOfRange(ulpdu, headerLength, ulpdu.length);
        CapturingLlp llp = new CapturingLlp(ulpdu.length);
        DdpSender sender = new DdpSender(llp, ByteBufAllocator.DEFAULT, DdpReceiver.QUEUES_RFC7306);
        if (!v.flag("ddp.l")) {
            // A first segment of a longer message: send the vector's payload plus one more octet.
            byte[] longer = Arrays.copyOf(payload, payload.length + 1);
            sender.tagged(rdmapControl(v), (int) v.number("ddp.stag"), v.number("ddp.to"), Bytes.pooled(longer))
                    .writeAll();
            assertThat(llp.segments).hasSize(2);
            assertThat(llp.segments.get(0)).isEqualTo(ulpdu);
            return;
        }
        if (tagged) {
            sender.tagged(rdmapControl(v), (int) v.number("ddp.stag"), v.number("ddp.to"), Bytes.pooled(payload))
                    .writeAll();
        } else {
            int qn = (int) v.number("ddp.qn");
            int msn = (int) v.number("ddp.msn");
            for (int m = 1; m < msn; m++) { // earlier messages of the queue take MSNs 1..msn-1
                sender.untagged(qn, 0, 0, Unpooled.EMPTY_BUFFER).writeAll();
            }
            llp.segments.clear();
            assertThat(v.number("ddp.mo")).isZero();
            sender.untagged(qn, rdmapControl(v), (int) v.number("ddp.rsvdulp_8_39"), Bytes.pooled(payload)).writeAll();
        }
        assertThat(llp.segments).hasSize(1);
        assertThat(llp.segments.get(0)).isEqualTo(ulpdu);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void receiverPlacesAndDeliversTheVectorSegment(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        RecordingListener listener = new RecordingListener();
        if (v.flag("ddp.t")) {
            listener.taggedAdmission = v.intField("rdmap.opcode") == 2
                    ? TaggedAdmission.LOCAL_WRITE
                    : TaggedAdmission.REMOTE_WRITE;
            int payloadLength = ulpdu.length - TaggedHeaderFlyweight.HEADER_LENGTH;
            ByteBuf memory = Bytes.directFilled(Math.max(payloadLength, 1), 0);
            try {
                ByteBufTaggedBuffer region = ByteBufTaggedBuffer.writable((int) v.number("ddp.stag"),
                        v.number("ddp.to"), memory, 7);
                DdpReceiver receiver = new DdpReceiver(stag -> stag == region.stag() ? region : null, 7, "s",
                        DdpReceiver.QUEUES_RFC7306, listener);
                receiver.receive(Bytes.pooled(ulpdu));
                assertThat(listener.rejected).isEmpty();
                byte[] placed = new byte[payloadLength];
                memory.getBytes(0, placed);
                assertThat(placed)
                        .isEqualTo(Arrays.copyOfRange(ulpdu, TaggedHeaderFlyweight.HEADER_LENGTH, ulpdu.length));
                assertThat(listener.taggedDelivered).hasSize(v.flag("ddp.l") ? 1 : 0);
            } finally {
                memory.release();
            }
        } else {
            int qn = (int) v.number("ddp.qn");
            int msn = (int) v.number("ddp.msn");
            DdpReceiver receiver = new DdpReceiver(TaggedBufferRegistry.empty(), 7, "s", DdpReceiver.QUEUES_RFC7306,
                    listener);
            ByteBuf target = Unpooled.buffer(ulpdu.length, ulpdu.length);
            for (int m = 1; m < msn; m++) { // deliver MSNs 1..msn-1 as zero-length messages first
                receiver.post(qn, new ByteBufUntaggedBuffer(Unpooled.buffer(0, 0)));
                receiver.receive(zeroLengthUntagged(qn, m));
            }
            assertThat(receiver.post(qn, new ByteBufUntaggedBuffer(target))).isEqualTo(msn);
            receiver.receive(Bytes.pooled(ulpdu));
            assertThat(listener.rejected).isEmpty();
            assertThat(listener.delivered).hasSize(msn);
            RecordingListener.Delivered d = listener.delivered.get(msn - 1);
            int payloadLength = ulpdu.length - UntaggedHeaderFlyweight.HEADER_LENGTH;
            assertThat(d.qn()).isEqualTo(qn);
            assertThat(d.msn()).isEqualTo(msn);
            assertThat(d.length()).isEqualTo(payloadLength);
            assertThat(d.rsvdUlp()).isEqualTo(rdmapControl(v));
            assertThat(d.rsvdUlpWord()).isEqualTo((int) v.number("ddp.rsvdulp_8_39"));
            byte[] placed = new byte[payloadLength];
            target.getBytes(0, placed);
            assertThat(placed)
                    .isEqualTo(Arrays.copyOfRange(ulpdu, UntaggedHeaderFlyweight.HEADER_LENGTH, ulpdu.length));
        }
    }

    @Test
    void rfcExampleTaggedSplitMatchesBothWriteSegmentVectors() {
        GoldenVector seg1 = GoldenVectors.named("fpdu-rdma-write-seg1-of-2");
        GoldenVector seg2 = GoldenVectors.named("fpdu-rdma-write-seg2-of-2");
        byte[] u1 = seg1.hex("ulpdu_hex");
        byte[] u2 = seg2.hex("ulpdu_hex");
        byte[] message = new byte[2048];
        System.arraycopy(u1, 14, message, 0, u1.length - 14);
        System.arraycopy(u2, 14, message, u1.length - 14, u2.length - 14);
        CapturingLlp llp = new CapturingLlp(1500);
        DdpSender sender = new DdpSender(llp, ByteBufAllocator.DEFAULT, DdpReceiver.QUEUES_RFC5040);
        sender.tagged(0x40, (int) seg1.number("ddp.stag"), seg1.number("ddp.to"), Bytes.pooled(message)).writeAll();
        assertThat(llp.segments).hasSize(2);
        assertThat(llp.segments.get(0)).isEqualTo(u1);
        assertThat(llp.segments.get(1)).isEqualTo(u2);
        assertThat(seg2.number("ddp.to") - seg1.number("ddp.to")).isEqualTo(1486);
    }

    static ByteBuf zeroLengthUntagged(int qn, int msn) {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(18);
        b.writeZero(18);
        new UntaggedHeaderFlyweight().wrap(b, 0).control(DdpControl.encode(false, true)).rsvdUlp(0x43)
                .queueNumber(qn).messageSequenceNumber(msn).messageOffset(0);
        return b;
    }
}
