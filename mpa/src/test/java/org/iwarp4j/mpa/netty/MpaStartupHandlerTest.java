package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.mpa.startup.InitiatorStartup;
import org.iwarp4j.mpa.startup.ResponderStartup;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** MpaStartupHandler over EmbeddedChannel with its fake clock (RFC 5044 §7.1.2, RFC 6581). */
class MpaStartupHandlerTest {

    private static final HexFormat HEX = HexFormat.of();

    static byte[] out(EmbeddedChannel ch) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            o.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        return o.toByteArray();
    }

    static byte[] fpdu(boolean crc, boolean markers, int offset, byte[] ulpdu) {
        return TestBuffers.drain(new FpduWriter(crc, markers, 65535, offset)
                .encode(TestBuffers.direct(ulpdu), TestBuffers.ALLOC));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    static byte[] siw(String name) {
        try (InputStream in = MpaStartupHandlerTest.class.getResourceAsStream("/org/iwarp4j/mpa/siw/" + name)) {
            return HEX.parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void bytesAfterTheReplyInTheSameReadAreDecodedNotLost() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(MpaConfig.defaults()), up);
        byte[] request = out(ch);
        assertThat(request).hasSize(24);
        MpaFrame reply = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(false, false, 16, false, false, 16), "hi".getBytes());
        byte[] f1 = fpdu(true, false, 0, "first".getBytes());
        byte[] f2 = fpdu(true, false, f1.length, "second ulpdu".getBytes());
        ch.writeInbound(TestBuffers.direct(concat(reply.toByteArray(), f1, f2)));
        assertThat(up.events.get(0)).isInstanceOf(MpaEstablishedEvent.class);
        assertThat(up.ulpdus).hasSize(2);
        assertThat(up.ulpdus.get(0)).isEqualTo("first".getBytes());
        assertThat(up.ulpdus.get(1)).isEqualTo("second ulpdu".getBytes());
        assertThat(ch.pipeline().get(MpaStartupHandler.class)).isNull();
        assertThat(ch.pipeline().get(MpaStartupHandler.DECODER_NAME)).isInstanceOf(FpduDecoder.class);
        assertThat(ch.pipeline().get(MpaStartupHandler.ENCODER_NAME)).isInstanceOf(FpduEncoder.class);
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectDataBeforeReplyAtTheInitiatorTreatsOctetsWithTheReplyAsPdLengthMismatch() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(
                MpaConfig.builder().revision(1).rejectDataBeforeReply(true).build()), up);
        out(ch);
        MpaFrame reply = MpaFrame.rev1(MpaFrameType.REPLY, false, true, false, "hi".getBytes());
        ch.writeInbound(TestBuffers.direct(concat(reply.toByteArray(), fpdu(true, false, 0, "early".getBytes()))));
        MpaStartupFailedEvent failed = up.single(MpaStartupFailedEvent.class);
        assertThat(failed.cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(failed.connectionClosed()).isTrue();
        assertThat(up.ulpdus).isEmpty();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void initiatorSendsNothingBeforeTheReplyAndRefusesWrites() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(MpaConfig.defaults()), up);
        out(ch);
        ByteBuf early = TestBuffers.direct(new byte[] {1, 2, 3});
        ChannelFuture f = ch.writeAndFlush(early);
        assertThat(f.isSuccess()).isFalse();
        assertThat(f.cause()).isInstanceOf(IllegalStateException.class);
        assertThat(early.refCnt()).isZero();
        assertThat(out(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void responderHoldsFpdusUntilTheFirstInboundFpduIsValid() {
        Collector up = new Collector();
        up.onEvent = e -> {
            if (e instanceof MpaEstablishedEvent est) {
                // the layer above sends at once; MPA must hold it (RFC 5044 §7.1.2 rule 4)
                est.sender().send(TestBuffers.direct("hdr".getBytes()), TestBuffers.direct("payload".getBytes()),
                        up.ctxPromise());
                est.sender().flush();
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
        up.channel = ch;
        InitiatorStartup peer = new InitiatorStartup(MpaConfig.defaults(), 1460);
        ch.writeInbound(TestBuffers.direct(peer.request().toByteArray()));
        byte[] replyBytes = out(ch);
        MpaFrame reply = MpaFrameCodec.parse(Unpooled.wrappedBuffer(replyBytes));
        assertThat(replyBytes).hasSize(reply.length()); // only the Reply, no FPDU
        ch.writeOutbound(TestBuffers.direct("later".getBytes()));
        assertThat(out(ch)).isEmpty();
        // a corrupted first FPDU does not open the gate
        byte[] bad = fpdu(true, false, 0, "rtr".getBytes());
        bad[5] ^= 1;
        EmbeddedChannel ch2 = ch;
        ch2.writeInbound(TestBuffers.direct(fpdu(true, false, 0, "rtr".getBytes())));
        assertThat(up.ulpdus).containsExactly("rtr".getBytes());
        byte[] sent = out(ch);
        byte[] expected =
                concat(fpdu(true, false, 0, "hdrpayload".getBytes()), fpdu(true, false, 20, "later".getBytes()));
        assertThat(sent).isEqualTo(expected);
        ch.finishAndReleaseAll();
    }

    @Test
    void heldFpdusAreFailedAndReleasedWhenTheConnectionCloses() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
        ch.writeInbound(TestBuffers.direct(new InitiatorStartup(MpaConfig.defaults(), 1460).request().toByteArray()));
        out(ch);
        ByteBuf held = TestBuffers.direct("x".getBytes());
        ChannelFuture f = ch.writeAndFlush(held);
        assertThat(f.isDone()).isFalse();
        ch.close();
        assertThat(f.isDone()).isTrue();
        assertThat(f.isSuccess()).isFalse();
        assertThat(held.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void responderResponderIsDetectedByTheRequestTimeout() {
        Collector up = new Collector();
        MpaConfig cfg = MpaConfig.builder().requestTimeout(Duration.ofSeconds(5)).startupTimeout(Duration.ofSeconds(10))
                .build();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(MpaStartupHandler.responder(cfg), up);
        ch.advanceTimeBy(4999, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(up.events).isEmpty();
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        MpaStartupFailedEvent failed = up.single(MpaStartupFailedEvent.class);
        assertThat(failed.reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(failed.cause().error()).isEqualTo(MpaError.TCP_CONNECTION_LOST);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void wholeStartupTimeoutBoundsTheUsersDecision() {
        Collector up = new Collector();
        MpaConfig cfg = MpaConfig.builder().autoAccept(false).startupTimeout(Duration.ofSeconds(3)).build();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(MpaStartupHandler.responder(cfg), up);
        ch.writeInbound(TestBuffers.direct(new InitiatorStartup(MpaConfig.defaults(), 1460).request().toByteArray()));
        MpaConnectRequest cr = up.single(MpaConnectRequest.class);
        ch.advanceTimeBy(3, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertThat(up.single(MpaStartupFailedEvent.class).reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        ChannelFuture late = cr.accept();
        ch.runPendingTasks();
        assertThat(late.isSuccess()).isFalse();
        assertThat(out(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void initiatorTimesOutWaitingForTheReply() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(
                MpaStartupHandler.initiator(MpaConfig.builder().startupTimeout(Duration.ofMillis(250)).build()), up);
        out(ch);
        ch.writeInbound(TestBuffers.direct(HEX.parseHex("4d504120494420526570"))); // partial Reply
        ch.advanceTimeBy(250, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(up.single(MpaStartupFailedEvent.class).reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void badKeyClosesAtOnceWith0x04() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
        ch.writeInbound(TestBuffers.direct("GET ".getBytes()));
        MpaStartupFailedEvent f = up.single(MpaStartupFailedEvent.class);
        assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.INVALID_FRAME);
        assertThat(f.cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(f.connectionClosed()).isTrue();
        assertThat(ch.isOpen()).isFalse();
        assertThat(out(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void overlongPdLengthAndRev3AreRejectedFromTheHeader() {
        for (String hdr : new String[] {"4d504120494420526571204672616d6540010201",
                "4d504120494420526571204672616d6540030000"}) {
            Collector up = new Collector();
            EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
            ch.writeInbound(TestBuffers.direct(HEX.parseHex(hdr)));
            assertThat(up.single(MpaStartupFailedEvent.class).cause().error())
                    .isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            assertThat(ch.isOpen()).isFalse();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void initiatorInitiatorIsDetectedByTheKey() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(MpaConfig.defaults()), up);
        byte[] ourRequest = out(ch);
        ch.writeInbound(TestBuffers.direct(ourRequest)); // the peer is an Initiator too
        MpaStartupFailedEvent f = up.single(MpaStartupFailedEvent.class);
        assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.ROLE_CONFLICT);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void peerClosingDuringStartupIsReported() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(MpaConfig.defaults()), up);
        out(ch);
        ch.writeInbound(TestBuffers.direct(HEX.parseHex("4d5041")));
        ch.close();
        MpaStartupFailedEvent f = up.single(MpaStartupFailedEvent.class);
        assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.CONNECTION_CLOSED);
        assertThat(f.cause().error()).isEqualTo(MpaError.TCP_CONNECTION_LOST);
        ch.finishAndReleaseAll();
    }

    @Test
    void aRequestWaitingForTheApplicationsDecisionHoldsNoBuffer() {
        Collector up = new Collector();
        EmbeddedChannel ch =
                new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.builder().autoAccept(false).build()), up);
        ByteBuf read = TestBuffers.direct(new InitiatorStartup(MpaConfig.defaults(), 1460).request().toByteArray());
        ch.writeInbound(read);
        MpaConnectRequest cr = up.single(MpaConnectRequest.class);
        assertThat(read.refCnt()).as("the read held only the Request: released while the application decides")
                .isZero();
        cr.accept();
        ch.runPendingTasks();
        assertThat(MpaFrameCodec.parse(Unpooled.wrappedBuffer(out(ch))).type()).isEqualTo(MpaFrameType.REPLY);
        assertThat(up.single(MpaEstablishedEvent.class).parameters().role()).isEqualTo(MpaRole.RESPONDER);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void theReadThatCarriedTheReplyIsReleasedAtEstablishment() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.initiator(MpaConfig.defaults()), up);
        MpaFrame request = MpaFrameCodec.parse(Unpooled.wrappedBuffer(out(ch)));
        ResponderStartup responder = new ResponderStartup(MpaConfig.defaults(), 1460);
        responder.onRequest(request);
        ByteBuf read = TestBuffers.direct(responder.accept(responder.defaultAcceptance()).reply().toByteArray());
        ch.writeInbound(read);
        assertThat(up.single(MpaEstablishedEvent.class).parameters().role()).isEqualTo(MpaRole.INITIATOR);
        assertThat(read.refCnt()).isZero();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void manualAcceptWithOwnPrivateDataIrdAndOrd() {
        Collector up = new Collector();
        up.onEvent = e -> {
            if (e instanceof MpaConnectRequest cr) {
                assertThat(cr.privateData()).isEqualTo("hello".getBytes());
                assertThat(cr.initiatorIrd()).isEqualTo(4);
                assertThat(cr.initiatorOrd()).isEqualTo(2);
                cr.accept("welcome".getBytes(), 2, 8);
            }
        };
        EmbeddedChannel ch =
                new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.builder().autoAccept(false).build()), up);
        MpaConfig ic = MpaConfig.builder().ird(4).ord(2).privateData("hello".getBytes()).build();
        ch.writeInbound(TestBuffers.direct(new InitiatorStartup(ic, 1460).request().toByteArray()));
        ch.runPendingTasks();
        MpaFrame reply = MpaFrameCodec.parse(Unpooled.wrappedBuffer(out(ch)));
        assertThat(reply.privateData()).isEqualTo("welcome".getBytes());
        assertThat(reply.enhancedData().ird()).isEqualTo(2);
        assertThat(reply.enhancedData().ord()).isEqualTo(4); // ORD 8 capped at the Initiator's IRD 4
        MpaParameters p = up.single(MpaEstablishedEvent.class).parameters();
        assertThat(p.ord()).isEqualTo(4);
        ch.finishAndReleaseAll();
    }

    @Test
    void byDefaultTheResponderTreatsOctetsAfterTheRequestAsPdLengthMismatch() {
        assertThat(MpaConfig.defaults().rejectDataBeforeReply(MpaRole.RESPONDER)).isTrue();
        assertThat(MpaConfig.defaults().rejectDataBeforeReply(MpaRole.INITIATOR)).isFalse();
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
        byte[] req = new InitiatorStartup(MpaConfig.defaults(), 1460).request().toByteArray();
        ch.writeInbound(TestBuffers.direct(concat(req, new byte[] {0, 0})));
        assertThat(up.single(MpaStartupFailedEvent.class).cause().getMessage()).contains("PD_Length");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void aResponderConfiguredLenientKeepsOctetsAfterTheRequestForTheFpduDecoder() {
        MpaConfig lenient = MpaConfig.builder().rejectDataBeforeReply(false).build();
        assertThat(lenient.rejectDataBeforeReply(MpaRole.RESPONDER)).isFalse();
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(lenient), up);
        byte[] req = new InitiatorStartup(MpaConfig.defaults(), 1460).request().toByteArray();
        ch.writeInbound(TestBuffers.direct(concat(req, new byte[] {0, 0})));
        assertThat(up.events).noneMatch(MpaStartupFailedEvent.class::isInstance);
        assertThat(up.single(MpaEstablishedEvent.class).parameters().role()).isEqualTo(MpaRole.RESPONDER);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void autoRejectForInsufficientInitiatorIrdCarriesTheNeededOrd() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(
                MpaConfig.builder().requiredOrd(8).ord(8).build()), up);
        ch.writeInbound(TestBuffers.direct(siw("siw-mpa-request.hex"))); // siw: IRD 1, ORD 1
        MpaFrame reply = MpaFrameCodec.parse(Unpooled.wrappedBuffer(out(ch)));
        assertThat(reply.rejected()).isTrue();
        assertThat(reply.enhancedData().ord()).isEqualTo(8);
        assertThat(up.single(MpaRejectedEvent.class).rejection().reason()).isEqualTo(MpaError.INSUFFICIENT_IRD);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void siwRequestAndFirstFpduAreAccepted() {
        Collector up = new Collector();
        EmbeddedChannel ch = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.defaults()), up);
        ch.writeInbound(TestBuffers.direct(siw("siw-mpa-request.hex")));
        MpaFrame reply = MpaFrameCodec.parse(Unpooled.wrappedBuffer(out(ch)));
        assertThat(reply.revision()).isEqualTo(2);
        assertThat(reply.enhancedData()).isNotNull(); // siw needs Rev 2 + S in the Reply
        assertThat(reply.enhancedData().ord()).isEqualTo(1); // ≤ siw's IRD 1
        MpaParameters p = up.single(MpaEstablishedEvent.class).parameters();
        assertThat(p.crc()).isTrue(); // our C=1 turns CRC on; siw follows
        // siw's real first FPDU was sent without CRC (C=0 both sides in that capture)
        EmbeddedChannel noCrc = new EmbeddedChannel(MpaStartupHandler.responder(MpaConfig.builder().crc(false).build()),
                new Collector());
        noCrc.writeInbound(TestBuffers.direct(concat(siw("siw-mpa-request.hex"))));
        out(noCrc);
        Collector up2 = (Collector) noCrc.pipeline().last();
        noCrc.writeInbound(TestBuffers.direct(siw("siw-first-fpdu-send.hex")));
        assertThat(up2.ulpdus).hasSize(1);
        assertThat(up2.ulpdus.get(0)).hasSize(34);
        noCrc.finishAndReleaseAll();
        ch.finishAndReleaseAll();
    }
}
