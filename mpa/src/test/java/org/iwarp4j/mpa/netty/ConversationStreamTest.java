package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.mpa.fpdu.DissectedFpdu;
import org.iwarp4j.mpa.fpdu.FpduDissection;
import org.iwarp4j.mpa.fpdu.FpduDissector;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The golden conversations (vectors/streams): each side is replayed against our startup handler,
 * configured from the frames of the conversation. Our Request/Reply must be the recorded octets, and
 * the FPDUs of the other direction (with markers where negotiated) must come out as the ULPDUs the
 * dissector finds, segment by segment as recorded.
 */
class ConversationStreamTest {

    static List<ConversationStream> streams() {
        return GoldenVectors.streams();
    }

    static MpaFrame frame(byte[] bytes) {
        ByteBuf b = TestBuffers.heap(bytes);
        try {
            return MpaFrameCodec.parse(b);
        } finally {
            b.release();
        }
    }

    static MpaConfig configFrom(MpaFrame f, boolean autoAccept) {
        MpaConfig.Builder b = MpaConfig.builder().revision(f.revision()).crc(f.crc()).markers(f.markers())
                .privateData(f.privateData()).autoAccept(autoAccept);
        EnhancedConnectionData d = f.enhancedData();
        if (d != null) {
            b.ird(d.ird()).irdLimit(d.ird()).ord(d.ord())
                    .peerToPeer(d.peerToPeer() && f.type() == MpaFrameType.REQUEST);
            if (d.peerToPeer()) {
                b.rtrTypes(new ArrayList<>(d.rtrFlags()));
            }
        }
        return b.build();
    }

    static List<byte[]> expectedUlpdus(byte[] afterFrame, boolean crc, boolean markers) {
        FpduDissection d = new FpduDissector(crc, markers, 0).dissect(afterFrame);
        assertThat(d.error()).isNull();
        List<byte[]> out = new ArrayList<>();
        for (DissectedFpdu f : d.fpdus()) {
            assertThat(f.error()).isNull();
            out.add(f.ulpdu());
        }
        return out;
    }

    static byte[] outbound(EmbeddedChannel ch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void initiatorSide(ConversationStream s) {
        byte[] i2r = s.bytes(Direction.I2R);
        byte[] r2i = s.bytes(Direction.R2I);
        MpaFrame request = frame(i2r);
        MpaFrame reply = frame(r2i);
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(configFrom(request, true)), up);
        assertThat(outbound(ch)).as("our Request").isEqualTo(Arrays.copyOf(i2r, request.length()));
        for (ConversationStream.Segment seg : s.segments(Direction.R2I)) {
            ch.writeInbound(TestBuffers.direct(seg.payload()));
        }
        if (reply.rejected()) {
            assertThat(up.single(MpaRejectedEvent.class).rejection().replyPrivateData()).isEqualTo(reply.privateData());
            assertThat(ch.isOpen()).as("TCP stays open after a reject (RFC 5044 §7.1.2 rule 3)").isTrue();
        } else {
            MpaParameters p = up.single(MpaEstablishedEvent.class).parameters();
            assertThat(p.role()).isEqualTo(MpaRole.INITIATOR);
            assertThat(p.reply()).isEqualTo(reply);
            byte[] rest = Arrays.copyOfRange(r2i, reply.length(), r2i.length);
            List<byte[]> expected = expectedUlpdus(rest, p.crc(), p.rxMarkers());
            
            assertThat(up.ulpdus).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(up.ulpdus.get(i)).isEqualTo(expected.get(i));
            }
            if (p.peerToPeer()) {
                assertThat(p.rtr()).isNotNull();
                assertThat(s.name())
                        .contains(p.rtr() == RtrType.READ ? "read" : p.rtr() == RtrType.WRITE ? "write" : "send");
            }
            assertThat(up.errors).isEmpty();
        }
        ch.finishAndReleaseAll();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void responderSide(ConversationStream s) {
        byte[] i2r = s.bytes(Direction.I2R);
        byte[] r2i = s.bytes(Direction.R2I);
        MpaFrame request = frame(i2r);
        MpaFrame reply = frame(r2i);
        Collector up = new Collector();
        up.onEvent = e -> {
            if (e instanceof MpaConnectRequest cr) {
                cr.reject(reply.privateData());
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(configFrom(reply, !reply.rejected())), up);
        for (ConversationStream.Segment seg : s.segments(Direction.I2R)) {
            ch.writeInbound(TestBuffers.direct(seg.payload()));
            ch.runPendingTasks();
        }
        assertThat(outbound(ch)).as("our Reply").isEqualTo(Arrays.copyOf(r2i, reply.length()));
        if (!reply.rejected()) {
            MpaParameters p = up.single(MpaEstablishedEvent.class).parameters();
            byte[] rest = Arrays.copyOfRange(i2r, request.length(), i2r.length);
            List<byte[]> expected = expectedUlpdus(rest, p.crc(), p.rxMarkers());
            assertThat(up.ulpdus).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(up.ulpdus.get(i)).isEqualTo(expected.get(i));
            }
            assertThat(up.errors).isEmpty();
        } else {
            assertThat(up.single(MpaRejectedEvent.class).rejection().rejectedByPeer()).isFalse();
        }
        ch.finishAndReleaseAll();
    }
}
