package org.iwarp4j.conformance.mpa;

import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.mpa.netty.MpaStartupHandler;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The startup rules of RFC 5044 §7.1 and §7.1.2 (roles, accept/reject, ordering, timeouts, positions). */
class MpaStartupRulesTest {

    private static final MpaConfig REV1 = MpaConfig.builder().revision(1).build();

    private static void assertRoleConflict(StackProbe probe, EmbeddedChannel ch) {
        MpaStartupFailedEvent f = probe.awaitOne(MpaStartupFailedEvent.class);
        assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.ROLE_CONFLICT);
        assertThat(f.cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(ch.isOpen()).isFalse();
    }

    /**
     * MPA-31 (RFC 5044 §7.1.2 rule 8): Initiator/Initiator startups are detected by the key (a Request
     * where a Reply is expected, and a Reply at a Responder); Responders should time out waiting for the
     * Request to detect Responder/Responder. Both conflicts close with 0x04; a Responder left waiting
     * fails exactly at its request timeout (fake clock).
     */
    @Test
    @Requirement("MPA-31")
    @DisplayName("MPA-31: Initiator/Initiator is detected by the key; Responder/Responder by the request timeout")
    void roleConflicts() {
        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(REV1, i);
        byte[] ourRequest = Embedded.outbound(initiator);
        Embedded.inbound(initiator, ourRequest); // the other Initiator's Request
        assertRoleConflict(i, initiator);
        initiator.finishAndReleaseAll();

        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1, r);
        Embedded.inbound(responder, StartupFrame.reply().crc(true).toBytes());
        assertRoleConflict(r, responder);
        responder.finishAndReleaseAll();

        StackProbe w = new StackProbe();
        EmbeddedChannel waiting = Embedded.responder(REV1.toBuilder().requestTimeout(Duration.ofSeconds(3)).build(), w);
        Embedded.advance(waiting, Duration.ofMillis(2999));
        assertThat(w.log()).isEmpty();
        assertThat(waiting.isOpen()).isTrue();
        Embedded.advance(waiting, Duration.ofMillis(1));
        assertThat(w.awaitOne(MpaStartupFailedEvent.class).reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(waiting.isOpen()).isFalse();
        waiting.finishAndReleaseAll();
    }

    /** MPA-31 over real sockets: the scripted peer also plays Initiator and sees the stack close. */
    @Test
    @Requirement("MPA-31")
    @DisplayName("MPA-31: a peer that also sends a Request is detected and the connection closed (socket)")
    void initiatorInitiatorOverSocket() {
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().and().sendMpaFrame(StartupFrame.request().crc(true)).expectClose().start();
            StackProbe p = stack.initiator(peer.address(), REV1);
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitOne(MpaStartupFailedEvent.class).reason())
                    .isEqualTo(MpaStartupFailedEvent.Reason.ROLE_CONFLICT);
        }
    }

    /**
     * MPA-36 (RFC 5044 §7.1.2 rule 2): a Responder enters Full Operation only after a valid Request (its
     * user cannot send anything before); a malformed Request closes TCP; a well-formed Request whose Private
     * Data the application finds unacceptable gets a Reply with R=1 and MPA is left with TCP open — the
     * scripted peer then still exchanges plain octets with the application and sees a FIN only when the
     * application closes; an acceptable Request gets R=0.
     */
    @Test
    @Requirement("MPA-36")
    @DisplayName("MPA-36: Responder: Full Operation only after a valid Request; reject (R=1) keeps TCP open")
    void responderDecisions() {
        StackProbe early = new StackProbe();
        EmbeddedChannel ch = Embedded.responder(REV1, early);
        ChannelFuture write = Embedded.sendUlpdu(ch, Bytes.ascii("too early"));
        assertThat(write.cause()).isInstanceOf(IllegalStateException.class);
        assertThat(Embedded.outbound(ch)).isEmpty();
        Embedded.inbound(ch, StartupFrame.request().crc(true).revision(0).toBytes());
        assertThat(early.awaitOne(MpaStartupFailedEvent.class).reason())
                .isEqualTo(MpaStartupFailedEvent.Reason.INVALID_FRAME);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();

        byte[] plainAfterReject = Bytes.ascii("plain TCP octets after the reject");
        try (LoopbackStack stack = new LoopbackStack()) {
            StackProbe probe = new StackProbe();
            probe.onEvent(e -> {
                if (e instanceof MpaConnectRequest cr) {
                    if (Arrays.equals(cr.privateData(), Bytes.ascii("unacceptable"))) {
                        cr.reject(Bytes.ascii("no thanks"));
                    } else {
                        cr.accept();
                    }
                }
            });
            LoopbackStack.Listener l = stack.responder(REV1.toBuilder().autoAccept(false).build(), probe);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true).privateData(Bytes.ascii("unacceptable")))
                        .expectMpaReply().withRejected(true).withPrivateData(Bytes.ascii("no thanks")).and()
                        .send(plainAfterReject)
                        .expectFin().start();
                probe.await(log -> log.stream().anyMatch(o -> o instanceof StackProbe.Received rcv
                        && new String(rcv.octets()).endsWith("reject")), "the plain octets");
                assertThat(probe.awaitOne(MpaRejectedEvent.class).rejection().rejectedByPeer()).isFalse();
                assertThat(Bytes.concat(probe.ulpdus().toArray(byte[][]::new))).isEqualTo(plainAfterReject);
                assertThat(probe.channel().isActive()).as("TCP stays open after the reject").isTrue();
                probe.channel().close();
                peer.waitForScriptToComplete(StackProbe.WAIT);
            }
        }
        try (LoopbackStack stack = new LoopbackStack()) {
            StackProbe probe = new StackProbe().onEvent(e -> {
                if (e instanceof MpaConnectRequest cr) {
                    cr.accept();
                }
            });
            LoopbackStack.Listener l = stack.responder(REV1.toBuilder().autoAccept(false).build(), probe);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true).privateData(Bytes.ascii("fine")))
                        .expectMpaReply().withRejected(false).and().sendFpdu(Bytes.ascii("hello")).start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(probe.awaitUlpdus(1)).containsExactly(Bytes.ascii("hello"));
            }
        }
    }

    /**
     * MPA-37 (RFC 5044 §7.1.2 rule 3): an Initiator validates the Reply: a malformed one closes TCP; R=1
     * leaves MPA with TCP open (the peer can still send plain octets to the application, and sees FIN only
     * when the application closes); otherwise it enters Full Operation.
     */
    @Test
    @Requirement("MPA-37")
    @DisplayName("MPA-37: Initiator: malformed Reply closes; R=1 leaves MPA with TCP open; R=0 enters Full Operation")
    void initiatorDecisions() {
        StackProbe bad = new StackProbe();
        EmbeddedChannel ch = Embedded.initiator(REV1, bad);
        Embedded.outbound(ch);
        Embedded.inbound(ch, Arrays.copyOf(StartupFrame.reply().crc(true).pdLengthField(600).toBytes(), 20));
        assertThat(bad.awaitOne(MpaStartupFailedEvent.class).cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();

        byte[] plain = Bytes.ascii("plain octets after a reject");
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest()
                    .respond(StartupFrame.reply().crc(true).rejected(true).privateData(Bytes.ascii("busy")))
                    .send(plain).expectFin().start();
            StackProbe p = stack.initiator(peer.address(), REV1);
            MpaRejectedEvent rejected = p.awaitOne(MpaRejectedEvent.class);
            assertThat(rejected.rejection().rejectedByPeer()).isTrue();
            assertThat(rejected.rejection().replyPrivateData()).isEqualTo(Bytes.ascii("busy"));
            p.await(log -> Bytes.concat(log.stream().filter(StackProbe.Received.class::isInstance)
                    .map(o -> ((StackProbe.Received) o).octets()).toArray(byte[][]::new)).length == plain.length,
                    "plain octets");
            assertThat(p.channel().isActive()).isTrue();
            assertThat(p.all(MpaEstablishedEvent.class)).isEmpty();
            p.channel().close();
            peer.waitForScriptToComplete(StackProbe.WAIT);
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true)).expectFpduWithUlpdu(Bytes.ascii("go"))
                    .start();
            StackProbe p = stack.initiator(peer.address(), REV1, new StackProbe().sendOnEstablished(Bytes.ascii("go")));
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitEstablished().parameters().role()).isEqualTo(MpaRole.INITIATOR);
        }
    }

    /**
     * MPA-38 (RFC 5044 §7.1.2 rule 4): a Responder sends no FPDU and no marker before it has received and
     * validated at least one FPDU. Deterministically (EmbeddedChannel): FPDUs its application writes on
     * entering Full Operation stay held while only the Reply has gone out, stay held after an invalid first
     * FPDU, and leave in order — starting with the FPDUPTR-0 marker the Initiator asked for — right after a
     * valid one.
     */
    @Test
    @Requirement("MPA-38")
    @DisplayName("MPA-38: the Responder sends no FPDU or marker before it received and validated one")
    void responderWaitsForTheFirstFpdu() {
        byte[][] held = {Bytes.pattern(600, 1), Bytes.pattern(20, 2), Bytes.pattern(0, 3)};
        byte[] request = StartupFrame.request().crc(true).markers(true).toBytes();
        StackProbe invalid = new StackProbe().sendOnEstablished(held);
        EmbeddedChannel ch = Embedded.responder(REV1, invalid);
        Embedded.inbound(ch, request);
        byte[] reply = Embedded.outbound(ch);
        assertThat(reply).hasSize(20);
        Embedded.inbound(ch, new FpduFraming(true, false, 0).encode(Bytes.ascii("rtr"), FpduTamper.BAD_CRC));
        assertThat(invalid.awaitMpaError().error()).isEqualTo(MpaError.CRC_ERROR);
        assertThat(Embedded.outbound(ch)).as("nothing after an invalid first FPDU").isEmpty();
        ch.finishAndReleaseAll();

        StackProbe valid = new StackProbe().sendOnEstablished(held);
        EmbeddedChannel ch2 = Embedded.responder(REV1, valid);
        Embedded.inbound(ch2, request);
        assertThat(Embedded.outbound(ch2)).hasSize(20);
        Embedded.inbound(ch2, new FpduFraming(true, false, 0).encode(Bytes.ascii("rtr")));
        byte[] after = Embedded.outbound(ch2);
        assertThat(Arrays.copyOf(after, 4)).as("the FPDUPTR-0 marker first").isEqualTo(new byte[4]);
        List<DecodedFpdu> fpdus = new FpduFraming(true, true, 0).decodeAll(after);
        assertThat(fpdus).extracting(DecodedFpdu::ulpdu).containsExactly(held);
        ch2.finishAndReleaseAll();
    }

    /**
     * MPA-38 over real sockets: the scripted peer (Initiator) checks that nothing but the Reply has
     * arrived after the stack's application wrote and flushed three FPDUs, sends its first FPDU, and then
     * receives the three. (A snapshot check: a correct stack always passes.)
     */
    @Test
    @Requirement("MPA-38")
    @DisplayName("MPA-38: over a socket, the Responder's FPDUs arrive only after the Initiator's first FPDU")
    void responderWaitsOverSocket() {
        CompletableFuture<Void> written = new CompletableFuture<>();
        try (LoopbackStack stack = new LoopbackStack()) {
            StackProbe probe = new StackProbe();
            probe.onEvent(e -> {
                if (e instanceof MpaEstablishedEvent) {
                    for (int k = 0; k < 3; k++) {
                        probe.channel().write(Bytes.direct(Bytes.pattern(100, k)));
                    }
                    probe.channel().flush();
                    probe.channel().eventLoop().execute(() -> written.complete(null));
                }
            });
            LoopbackStack.Listener l = stack.responder(REV1, probe);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true)).expectMpaReply().and()
                        .waitFor(written, "the stack's application to write and flush three FPDUs")
                        .expectNoBytesPending()
                        .sendFpdu(Bytes.ascii("first from the Initiator"));
                for (int k = 0; k < 3; k++) {
                    peer.expectFpduWithUlpdu(Bytes.pattern(100, k));
                }
                peer.start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
            }
        }
    }

    /**
     * MPA-39 (RFC 5044 §7.1.2 rule 10, SHOULD): implementations time out the complete startup exchange. An
     * Initiator without a Reply and a Responder whose application never decides both fail exactly at the
     * startup timeout (fake clock) and close the connection. (ULP timeouts for FPDUs/messages are the verbs
     * layer's: QueuePairConfig.responseTimeout and its tests.)
     */
    @Test
    @Requirement("MPA-39")
    @DisplayName("MPA-39: the whole startup exchange is bounded by the startup timeout")
    void startupTimeout() {
        MpaConfig cfg = REV1.toBuilder().startupTimeout(Duration.ofSeconds(4)).autoAccept(false).build();
        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(cfg, i);
        Embedded.outbound(initiator);
        Embedded.inbound(initiator, Arrays.copyOf(StartupFrame.reply().crc(true).toBytes(), 19));
        Embedded.advance(initiator, Duration.ofMillis(3999));
        assertThat(i.log()).isEmpty();
        Embedded.advance(initiator, Duration.ofMillis(1));
        assertThat(i.awaitOne(MpaStartupFailedEvent.class).reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(initiator.isOpen()).isFalse();
        initiator.finishAndReleaseAll();

        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(cfg, r);
        Embedded.inbound(responder, StartupFrame.request().crc(true).toBytes());
        r.awaitOne(MpaConnectRequest.class);
        Embedded.advance(responder, Duration.ofSeconds(4));
        assertThat(r.awaitOne(MpaStartupFailedEvent.class).reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(Embedded.outbound(responder)).as("no Reply").isEmpty();
        assertThat(responder.isOpen()).isFalse();
        responder.finishAndReleaseAll();
    }

    /**
     * MPA-42 (RFC 5044 §7.1, §4.3): MPA is enabled at the same octet position by both ends, in both
     * directions: each direction's Full Operation (SeqStart) begins with the first octet after its own
     * frame. With markers both ways over a real socket, in both roles, the stack's first octets after its
     * frame are the FPDUPTR-0 marker and it accepts the peer's marker stream starting right after the
     * peer's frame.
     */
    @Test
    @Requirement("MPA-42")
    @DisplayName("MPA-42: both directions start Full Operation right after their own frame (socket, both roles)")
    void samePositionBothWays() {
        byte[] fromStack = Bytes.pattern(700, 9);
        byte[] fromPeer = Bytes.pattern(900, 4);
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().withMarkers(true).respond(StartupFrame.reply().crc(true).markers(true))
                    .expectFpdu().withUlpdu(fromStack).matching(f ->
                            f.streamOffset() == 0 && f.markers().get(0).position() == 0,
                            "the FPDUPTR-0 marker at SeqStart").and()
                    .sendFpdu(fromPeer).start();
            StackProbe p = stack.initiator(peer.address(), REV1.toBuilder().markers(true).build(),
                    new StackProbe().sendOnEstablished(fromStack));
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitUlpdus(1)).containsExactly(fromPeer);
        }
        try (LoopbackStack stack = new LoopbackStack()) {
            StackProbe probe = new StackProbe();
            probe.onUlpdu(u -> probe.channel().writeAndFlush(Bytes.direct(fromStack)));
            LoopbackStack.Listener l = stack.responder(REV1.toBuilder().markers(true).build(), probe);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true).markers(true))
                        .expectMpaReply().withMarkers(true).and()
                        .sendFpdu(fromPeer)
                        .expectFpdu().withUlpdu(fromStack).matching(f -> f.streamOffset() == 0
                                && f.markers().get(0).position() == 0, "the FPDUPTR-0 marker at SeqStart").and()
                        .start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(probe.awaitUlpdus(1)).containsExactly(fromPeer);
            }
        }
    }

    /**
     * MPA-42 (RFC 5044 §7.1): a DDP endpoint is bound when Full Operation starts — the layer above learns
     * of Full Operation before the first ULPDU reaches it, even when the peer's frame and first FPDU
     * arrive in one read, in both roles (the Responder configured to keep such early octets, which it
     * rejects by default — MPA-32).
     */
    @Test
    @Requirement("MPA-42")
    @DisplayName("MPA-42: the Full Operation event precedes the first ULPDU, even in the same read")
    void fullOperationBeforeFirstUlpdu() {
        byte[] u = Bytes.ascii("first ULPDU");
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1.toBuilder().rejectDataBeforeReply(false).build(), r);
        Embedded.inbound(responder, Bytes.concat(StartupFrame.request().crc(true).toBytes(),
                new FpduFraming(true, false, 0).encode(u)));
        assertThat(r.log()).hasSize(2);
        assertThat(r.log().get(0)).isInstanceOf(MpaEstablishedEvent.class);
        assertThat(((StackProbe.Received) r.log().get(1)).octets()).isEqualTo(u);
        responder.finishAndReleaseAll();

        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(REV1, i);
        Embedded.outbound(initiator);
        Embedded.inbound(initiator, Bytes.concat(StartupFrame.reply().crc(true).toBytes(),
                new FpduFraming(true, false, 0).encode(u)));
        assertThat(i.log().get(0)).isInstanceOf(MpaEstablishedEvent.class);
        assertThat(((StackProbe.Received) i.log().get(1)).octets()).isEqualTo(u);
        initiator.finishAndReleaseAll();
    }

    /**
     * MPA-42, MPA-49 (RFC 5044 §7.1, §7.1.5): delayed startup — a ULP that first speaks plain TCP enables
     * MPA later, at the octet position it chooses (a dual-stack Responder does so when no further
     * streaming-mode data is expected). Plain octets before are the application's; the MPA Request is
     * parsed from the very next octet and the Reply is the very next octet out.
     */
    @Test
    @Requirement({"MPA-42", "MPA-49"})
    @DisplayName("MPA-42, MPA-49: MPA can be enabled later, exactly at the octet position the ULP chooses")
    void delayedStartup() {
        StackProbe app = new StackProbe();
        EmbeddedChannel ch = new EmbeddedChannel(app);
        ch.freezeTime();
        Embedded.inbound(ch, Bytes.ascii("STREAMING HELLO\n"));
        assertThat(app.ulpdus()).containsExactly(Bytes.ascii("STREAMING HELLO\n"));
        ch.writeAndFlush(Bytes.direct(Bytes.ascii("OK, SWITCHING TO MPA\n")));
        ch.pipeline().addFirst(MpaStartupHandler.responder(REV1.toBuilder().rejectDataBeforeReply(false).build()));
        byte[] u = Bytes.ascii("after the switch");
        Embedded.inbound(ch,
                Bytes.concat(StartupFrame.request().crc(true).toBytes(), new FpduFraming(true, false, 0).encode(u)));
        byte[] out = Embedded.outbound(ch);
        byte[] plain = Bytes.ascii("OK, SWITCHING TO MPA\n");
        assertThat(Arrays.copyOf(out, plain.length)).isEqualTo(plain);
        StartupFrame reply = StartupFrame.parse(Arrays.copyOfRange(out, plain.length, out.length));
        assertThat(reply.isReply()).isTrue();
        assertThat(out).hasSize(plain.length + reply.length());
        app.awaitEstablished();
        assertThat(app.ulpdus()).containsExactly(Bytes.ascii("STREAMING HELLO\n"), u);
        ch.finishAndReleaseAll();
    }
}
