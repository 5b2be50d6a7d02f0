package org.iwarp4j.conformance.mpa;

import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The MPA Request/Reply frame (RFC 5044 §7.1.1, §7.1.2) as sent and as checked by the stack. */
class MpaStartupFrameTest {

    private static final MpaConfig REV1 = MpaConfig.builder().revision(1).build();

    /** The startup failed with 0x04 and the stack closed the connection. */
    private static void assertInvalidFrameAndClosed(StackProbe probe, EmbeddedChannel ch) {
        MpaStartupFailedEvent f = probe.awaitOne(MpaStartupFailedEvent.class);
        assertThat(f.cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(f.cause().terminateErrorCode()).isEqualTo(0x04);
        assertThat(f.connectionClosed()).isTrue();
        assertThat(probe.all(MpaEstablishedEvent.class)).isEmpty();
        if (ch != null) {
            assertThat(ch.isOpen()).isFalse();
        }
    }

    private static StartupFrame replyOf(EmbeddedChannel responder) {
        return StartupFrame.parse(Embedded.outbound(responder));
    }

    /**
     * MPA-24 (RFC 5044 §7.1.1): the Initiator sends the key "MPA ID Req Frame", the Responder
     * "MPA ID Rep Frame" — checked octet for octet by the scripted peer on real sockets, in both roles.
     */
    @Test
    @Requirement("MPA-24")
    @DisplayName("MPA-24: the Initiator sends \"MPA ID Req Frame\", the Responder \"MPA ID Rep Frame\" (socket)")
    void keys() {
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectBytes(Bytes.ascii("MPA ID Req Frame"), "the Request key").start();
            stack.initiator(peer.address(), REV1);
            peer.waitForScriptToComplete(StackProbe.WAIT);
        }
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(REV1);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true))
                        .expectBytes(Bytes.ascii("MPA ID Rep Frame"), "the Reply key").start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
            }
        }
    }

    /**
     * MPA-27 (RFC 5044 §7.1.1): R is sent as 0 and not checked in a Request; in a Reply R=1 rejects and
     * R=0 accepts. The stack's Request has R=0; a Request with R=1 is accepted like any other; a Reply with
     * R=1 ends startup as a rejection, with R=0 in Full Operation.
     */
    @Test
    @Requirement("MPA-27")
    @DisplayName("MPA-27: R=0 in Requests (not checked on receipt); in a Reply R=1 rejects, R=0 accepts")
    void rejectBit() {
        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(REV1, i);
        assertThat(StartupFrame.parse(Embedded.outbound(initiator)).rejected()).isFalse();
        Embedded.inbound(initiator, StartupFrame.reply().crc(true).rejected(true).toBytes());
        assertThat(i.awaitOne(MpaRejectedEvent.class).rejection().rejectedByPeer()).isTrue();
        assertThat(i.all(MpaEstablishedEvent.class)).isEmpty();
        initiator.finishAndReleaseAll();

        StackProbe i2 = new StackProbe();
        EmbeddedChannel initiator2 = Embedded.initiator(REV1, i2);
        Embedded.outbound(initiator2);
        Embedded.inbound(initiator2, StartupFrame.reply().crc(true).rejected(false).toBytes());
        i2.awaitEstablished();
        initiator2.finishAndReleaseAll();

        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1, r);
        Embedded.inbound(responder, StartupFrame.request().crc(true).rejected(true).toBytes());
        assertThat(replyOf(responder).rejected()).isFalse();
        r.awaitEstablished();
        responder.finishAndReleaseAll();
    }

    /**
     * MPA-28 (RFC 5044 §7.1.1, §7.1.2 rule 5): a receiver that finds an unexpected key closes the
     * connection and reports a local error (0x2/0x0/0x04). Every single wrong key octet, at either role,
     * closes at once — without waiting for the rest of the frame.
     */
    @Test
    @Requirement("MPA-28")
    @DisplayName("MPA-28: any wrong key octet closes the connection with error 0x04, at once")
    void badKeyOctets() {
        for (boolean atInitiator : new boolean[] {false, true}) {
            byte[] good = (atInitiator ? StartupFrame.reply() : StartupFrame.request()).crc(true).toBytes();
            for (int k = 0; k < 16; k++) {
                StackProbe probe = new StackProbe();
                EmbeddedChannel ch = atInitiator ? Embedded.initiator(REV1, probe) : Embedded.responder(REV1, probe);
                Embedded.outbound(ch);
                byte[] bad = Arrays.copyOf(good, k + 1);
                bad[k] ^= 0x20;
                Embedded.inbound(ch, bad); // only up to the wrong octet
                assertInvalidFrameAndClosed(probe, ch);
                assertThat(probe.awaitOne(MpaStartupFailedEvent.class).reason())
                        .isEqualTo(MpaStartupFailedEvent.Reason.INVALID_FRAME);
                ch.finishAndReleaseAll();
            }
        }
    }

    /** MPA-28 over real sockets: the scripted peer sends a bad key and sees the stack close the connection. */
    @Test
    @Requirement("MPA-28")
    @DisplayName("MPA-28: a bad key from the peer closes the TCP connection (socket, both roles)")
    void badKeyOverSocket() {
        byte[] badRequest = StartupFrame.request().key(Bytes.ascii("MPA ID Reg Frame")).crc(true).toBytes();
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(REV1);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.send(badRequest).expectClose().start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(l.probe().awaitOne(MpaStartupFailedEvent.class).cause().error())
                        .isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().and().send(StartupFrame.reply().key(Bytes.ascii("MPA ID Rex Frame")).toBytes())
                    .expectClose().start();
            StackProbe p = stack.initiator(peer.address(), REV1);
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitOne(MpaStartupFailedEvent.class).cause().error())
                    .isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            p.awaitInactive();
        }
    }

    /**
     * MPA-29 (RFC 5044 §7.1.1; RFC 6581 §6): the Res bits are sent as 0 and not checked. The stack's
     * Request and Reply carry Res 0 even when the peer's frame had all Res bits set (Linux siw copies
     * them); frames with Res 0xF are accepted in both roles; and in a Rev 1 frame the bit RFC 6581 calls S
     * is just reserved: set, it is ignored.
     */
    @Test
    @Requirement("MPA-29")
    @DisplayName("MPA-29: Res bits are sent as 0 and ignored on receipt")
    void reservedBits() {
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1, r);
        Embedded.inbound(responder, StartupFrame.request().crc(true).reservedBits(0xF).enhancedFlag(true)
                .privateData(Bytes.ascii("abc")).toBytes());
        StartupFrame reply = replyOf(responder);
        assertThat(reply.reservedBits()).isZero();
        assertThat(reply.enhancedFlag()).isFalse();
        MpaParameters p = r.awaitEstablished().parameters();
        assertThat(p.enhanced()).isFalse();
        assertThat(p.peerPrivateData()).isEqualTo(Bytes.ascii("abc"));
        responder.finishAndReleaseAll();

        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(REV1, i);
        assertThat(StartupFrame.parse(Embedded.outbound(initiator)).reservedBits()).isZero();
        Embedded.inbound(initiator, StartupFrame.reply().crc(true).reservedBits(0xF).toBytes());
        i.awaitEstablished();
        initiator.finishAndReleaseAll();
    }

    /**
     * MPA-30 (RFC 5044 §7.1.1): an RFC 5044 sender puts 1 in Rev; a receiver checks Rev and closes with an
     * error for a revision it cannot work with (0 = pre-IETF RDMAC, 3 and up = unknown), and otherwise
     * reports the revision to the ULP.
     */
    @Test
    @Requirement("MPA-30")
    @DisplayName("MPA-30: Rev 1 is sent by an RFC 5044 endpoint; Rev 0 and 3+ close with 0x04; Rev is reported")
    void revision() {
        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(REV1, i);
        assertThat(StartupFrame.parse(Embedded.outbound(initiator)).revision()).isEqualTo(1);
        initiator.finishAndReleaseAll();
        for (int rev : new int[] {0, 3, 255}) {
            StackProbe r = new StackProbe();
            EmbeddedChannel responder = Embedded.responder(MpaConfig.defaults(), r);
            Embedded.inbound(responder, StartupFrame.request().crc(true).revision(rev).toBytes());
            assertInvalidFrameAndClosed(r, responder);
            responder.finishAndReleaseAll();

            StackProbe i2 = new StackProbe();
            EmbeddedChannel initiator2 = Embedded.initiator(REV1, i2);
            Embedded.outbound(initiator2);
            Embedded.inbound(initiator2, StartupFrame.reply().crc(true).revision(rev).toBytes());
            assertInvalidFrameAndClosed(i2, initiator2);
            initiator2.finishAndReleaseAll();
        }
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(MpaConfig.builder().autoAccept(false).build(), r);
        Embedded.inbound(responder, StartupFrame.request().crc(true).revision(1).toBytes());
        MpaConnectRequest cr = r.awaitOne(MpaConnectRequest.class);
        assertThat(cr.revision()).isEqualTo(1);
        cr.accept();
        responder.runPendingTasks();
        assertThat(r.awaitEstablished().parameters().revision()).isEqualTo(1);
        responder.finishAndReleaseAll();
    }

    /**
     * MPA-32 (RFC 5044 §7.1.1): PD_Length equals the number of Private Data octets; a receiver that sees a
     * mismatch closes the connection and reports an error. The end of the Private Data is known only from
     * PD_Length, so a mismatch shows as octets the peer may not send yet: after a Request, before the Reply
     * (the Initiator waits for it), or together with an accepting Reply (the Responder sends no FPDU
     * before receiving one). The Responder closes with 0x04 by default; the Initiator does so with
     * {@code rejectDataBeforeReply(true)} (by default the MPA layer keeps such octets, because a Linux siw
     * Responder sends first — interop/FINDINGS.md R8; the verbs layer sets it unless the peer profile accepts
     * them, see {@code MpaOverVerbsTest#octetsWithTheReplyFailAStrictInitiator}). A PD_Length larger than the
     * octets sent leaves the startup incomplete until its timeout closes it.
     */
    @Test
    @Requirement("MPA-32")
    @DisplayName("MPA-32: a PD_Length that does not match the Private Data closes the connection with an error")
    void pdLengthMismatch() {
        MpaConfig strict = REV1.toBuilder().rejectDataBeforeReply(true).build();
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1, r);
        Embedded.inbound(responder,
                StartupFrame.request().crc(true).privateData(new byte[8]).pdLengthField(4).toBytes());
        assertInvalidFrameAndClosed(r, responder);
        assertThat(Embedded.outbound(responder)).as("no Reply").isEmpty();
        responder.finishAndReleaseAll();

        StackProbe i = new StackProbe();
        EmbeddedChannel initiator = Embedded.initiator(strict, i);
        Embedded.outbound(initiator);
        Embedded.inbound(initiator, StartupFrame.reply().crc(true).privateData(new byte[8]).pdLengthField(2).toBytes());
        assertInvalidFrameAndClosed(i, initiator);
        assertThat(i.ulpdus()).isEmpty();
        initiator.finishAndReleaseAll();

        MpaConfig timed = REV1.toBuilder().startupTimeout(Duration.ofSeconds(2)).build();
        StackProbe t = new StackProbe();
        EmbeddedChannel waiting = Embedded.responder(timed, t);
        Embedded.inbound(waiting,
                StartupFrame.request().crc(true).privateData(new byte[10]).pdLengthField(20).toBytes());
        Embedded.advance(waiting, Duration.ofMillis(1999));
        assertThat(t.log()).isEmpty();
        Embedded.advance(waiting, Duration.ofMillis(1));
        MpaStartupFailedEvent f = t.awaitOne(MpaStartupFailedEvent.class);
        assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.TIMEOUT);
        assertThat(waiting.isOpen()).isFalse();
        waiting.finishAndReleaseAll();
    }

    /**
     * MPA-33 (RFC 5044 §7.1.1): Private Data is 0–512 octets; a receiver seeing more closes the connection
     * and reports an error. PD_Length 513 closes the connection from the 20-octet header alone (the peer
     * sends no Private Data at all and sees the close — over a real socket); PD_Length 512 is accepted.
     */
    @Test
    @Requirement("MPA-33")
    @DisplayName("MPA-33: PD_Length above 512 closes the connection with 0x04 from the header alone (socket)")
    void privateDataLimit() {
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(REV1);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.send(Arrays.copyOf(StartupFrame.request().crc(true).pdLengthField(513).toBytes(), 20))
                        .expectClose().start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(l.probe().awaitOne(MpaStartupFailedEvent.class).cause().error())
                        .isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            }
        }
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(REV1, r);
        Embedded.inbound(responder, StartupFrame.request().crc(true).privateData(Bytes.pattern(512, 0)).toBytes());
        assertThat(r.awaitEstablished().parameters().peerPrivateData()).isEqualTo(Bytes.pattern(512, 0));
        responder.finishAndReleaseAll();
    }

    /**
     * MPA-34 (RFC 5044 §7.1.2 rule 9): PD_Length is validated, the Private Data buffer is large enough and
     * the Private Data never exceeds PD_Length or the application's buffer. 512 octets of Private Data are
     * handed to the application intact; the frame ends exactly PD_Length octets after the header, so an FPDU
     * packed behind it in the same read is not taken into the Private Data (shown with a Responder configured
     * to keep such early octets; by default it rejects them, see MPA-32); an oversized PD_Length (600) is an
     * improperly formatted frame.
     */
    @Test
    @Requirement("MPA-34")
    @DisplayName("MPA-34: Private Data is read to exactly PD_Length octets and never beyond 512")
    void privateDataBuffer() {
        byte[] pd = Bytes.pattern(512, 3);
        byte[] ulpdu = Bytes.ascii("an FPDU packed right behind the Request");
        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(
                REV1.toBuilder().autoAccept(false).rejectDataBeforeReply(false).build(), r);
        Embedded.inbound(responder, Bytes.concat(StartupFrame.request().crc(true).privateData(pd).toBytes(),
                new FpduFraming(true, false, 0).encode(ulpdu)));
        MpaConnectRequest cr = r.awaitOne(MpaConnectRequest.class);
        assertThat(cr.privateData()).isEqualTo(pd);
        cr.accept();
        responder.runPendingTasks();
        assertThat(r.awaitEstablished().parameters().peerPrivateData()).isEqualTo(pd);
        assertThat(r.ulpdus()).containsExactly(ulpdu);
        responder.finishAndReleaseAll();

        StackProbe bad = new StackProbe();
        EmbeddedChannel ch = Embedded.responder(REV1, bad);
        Embedded.inbound(ch, StartupFrame.request().crc(true).privateData(new byte[600]).toBytes());
        assertInvalidFrameAndClosed(bad, ch);
        ch.finishAndReleaseAll();
    }

    /**
     * MPA-35 (RFC 5044 §7.1.2 rule 1): an Initiator sends a valid MPA Request, with its Private Data. The
     * scripted peer checks every field of the stack's Request on a real socket: key, M and C as
     * configured, R=0, Res 0, Rev, PD_Length and the Private Data.
     */
    @Test
    @Requirement("MPA-35")
    @DisplayName("MPA-35: the Initiator sends a valid MPA Request carrying its Private Data (socket)")
    void validRequest() {
        byte[] pd = Bytes.ascii("initiator private data");
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            var request = peer.expectMpaRequest().withRevision(1).withMarkers(true).withCrc(true).withRejected(false)
                    .withReservedBits(0).withEnhancedFlag(false).withPrivateData(pd)
                    .matching(f -> f.pdLength() == pd.length, "PD_Length " + pd.length);
            request.respond(StartupFrame.reply().crc(true)).start();
            StackProbe p = stack.initiator(peer.address(), REV1.toBuilder().markers(true).privateData(pd).build());
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitEstablished().parameters().request().privateData()).isEqualTo(pd);
        }
    }
}
