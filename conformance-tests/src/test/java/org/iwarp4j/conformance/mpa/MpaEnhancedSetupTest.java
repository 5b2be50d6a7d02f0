package org.iwarp4j.conformance.mpa;

import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.RtrReplyPolicy;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.mpa.netty.MpaRejectedEvent;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.StartupFrame.Enhanced;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MPA revision 2 — enhanced connection setup (RFC 6581 §5–§10). */
class MpaEnhancedSetupTest {

    private static final int NO_NEG = 0x3FFF;

    /** Stack = Responder; the peer's Request; returns the stack's Reply and keeps the probe's result. */
    private static StartupFrame replyTo(MpaConfig responder, StartupFrame.Builder request, StackProbe probe) {
        EmbeddedChannel ch = Embedded.responder(responder, probe);
        Embedded.inbound(ch, request.toBytes());
        byte[] out = Embedded.outbound(ch);
        ch.finishAndReleaseAll();
        return out.length == 0 ? null : StartupFrame.parse(out);
    }

    /** Stack = Initiator; returns its Request and the parameters/outcome after {@code reply}. */
    private static StartupFrame initiate(MpaConfig initiator, StartupFrame.Builder reply, StackProbe probe) {
        EmbeddedChannel ch = Embedded.initiator(initiator, probe);
        StartupFrame request = StartupFrame.parse(Embedded.outbound(ch));
        Embedded.inbound(ch, reply.toBytes());
        ch.finishAndReleaseAll();
        return request;
    }

    private static StartupFrame.Builder enhancedRequest(Enhanced e) {
        return StartupFrame.request().crc(true).enhanced(e);
    }

    private static StartupFrame.Builder enhancedReply(Enhanced e) {
        return StartupFrame.reply().crc(true).enhanced(e);
    }

    /**
     * MPA-61 (RFC 6581 §6, §9): with S=1 the Private Data starts with the 4-octet enhanced data
     * (A|B|IRD14, C|D|ORD14, network order) followed by the ULP's private data. The stack's Request
     * carries exactly that (checked by the scripted peer over a socket), and the stack splits a peer's
     * enhanced Private Data the same way.
     */
    @Test
    @Requirement("MPA-61")
    @DisplayName("MPA-61: with S=1 the Private Data begins with A|B|IRD, C|D|ORD, then the ULP data (socket)")
    void enhancedDataLayout() {
        byte[] ulp = Bytes.ascii("ulp data");
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().withRevision(2).withEnhancedFlag(true)
                    .withPrivateData(Bytes.concat(new byte[] {0x00, 0x05, 0x00, 0x07}, ulp))
                    .withEnhanced(new Enhanced(false, false, 5, false, false, 7)).withUlpPrivateData(ulp)
                    .respond(enhancedReply(new Enhanced(false, false, 7, false, false, 5))
                            .privateData(Bytes.ascii("ok")))
                    .start();
            StackProbe p = stack.initiator(peer.address(), MpaConfig.builder().ird(5).ord(7).privateData(ulp).build());
            peer.waitForScriptToComplete(StackProbe.WAIT);
            MpaParameters params = p.awaitEstablished().parameters();
            assertThat(params.peerPrivateData()).isEqualTo(Bytes.ascii("ok"));
            assertThat(params.peerIrd()).isEqualTo(7);
            assertThat(params.peerOrd()).isEqualTo(5);
        }
        StackProbe r = new StackProbe();
        replyTo(MpaConfig.builder().autoAccept(false).build(),
                enhancedRequest(new Enhanced(true, true, 0x1234, false, true, 0x0042)).privateData(ulp), r);
        MpaConnectRequest cr = r.awaitOne(MpaConnectRequest.class);
        assertThat(cr.privateData()).isEqualTo(ulp);
        assertThat(cr.initiatorIrd()).isEqualTo(0x1234);
        assertThat(cr.initiatorOrd()).isEqualTo(0x42);
        assertThat(cr.offeredRtrTypes()).containsExactlyInAnyOrder(RtrType.SEND, RtrType.READ);
    }

    /**
     * MPA-62 (RFC 6581 §6): Rev is 2 or more to use an enhanced feature (1 when none is wanted) and a
     * listener keeps accepting Rev 1 Requests: an RFC 6581 Initiator sends Rev 2, an RFC 6581 Responder
     * answers a Rev 1 Request with a Rev 1, S=0 Reply and reaches Full Operation.
     */
    @Test
    @Requirement("MPA-62")
    @DisplayName("MPA-62: Rev 2 for enhanced features; an RFC 6581 listener still accepts Rev 1 Requests")
    void revisionTwoAndRevOneListener() {
        StackProbe i = new StackProbe();
        StartupFrame request =
                initiate(MpaConfig.defaults(), enhancedReply(new Enhanced(false, false, 1, false, false, 1)), i);
        assertThat(request.revision()).isEqualTo(2);
        assertThat(request.enhancedFlag()).isTrue();
        StackProbe r = new StackProbe();
        StartupFrame reply = replyTo(MpaConfig.defaults(), StartupFrame.request().crc(true).revision(1), r);
        assertThat(reply.revision()).isEqualTo(1);
        assertThat(reply.enhancedFlag()).isFalse();
        assertThat(r.awaitEstablished().parameters().revision()).isEqualTo(1);
    }

    /**
     * MPA-63 (RFC 6581 §7, RFC 5044 §7.1.1): Private Data including the 4 enhanced octets never exceeds 512:
     * the configuration refuses 509 ULP octets at Rev 2 and sends 508 as PD_Length 512; a Responder's user
     * cannot accept with 509 ULP octets; an incoming S=1 frame with PD_Length 513 is closed with 0x04.
     */
    @Test
    @Requirement("MPA-63")
    @DisplayName("MPA-63: enhanced data plus ULP private data never exceed 512 octets")
    void privateDataLimitWithEnhancedData() {
        assertThatThrownBy(() -> MpaConfig.builder().privateData(new byte[509]).build())
                .isInstanceOf(IllegalArgumentException.class);
        StackProbe i = new StackProbe();
        EmbeddedChannel ch = Embedded.initiator(MpaConfig.builder().privateData(new byte[508]).build(), i);
        StartupFrame request = StartupFrame.parse(Embedded.outbound(ch));
        assertThat(request.pdLength()).isEqualTo(512);
        ch.finishAndReleaseAll();

        StackProbe r = new StackProbe();
        EmbeddedChannel responder = Embedded.responder(MpaConfig.builder().autoAccept(false).build(), r);
        Embedded.inbound(responder, enhancedRequest(new Enhanced(false, false, 4, false, false, 4)).toBytes());
        ChannelFuture tooMuch = r.awaitOne(MpaConnectRequest.class).accept(new byte[509]);
        responder.runPendingTasks();
        assertThat(tooMuch.cause()).isInstanceOf(IllegalArgumentException.class);
        assertThat(Embedded.outbound(responder)).isEmpty();
        responder.finishAndReleaseAll();

        StackProbe big = new StackProbe();
        EmbeddedChannel ch2 = Embedded.responder(MpaConfig.defaults(), big);
        Embedded.inbound(ch2,
                enhancedRequest(new Enhanced(false, false, 4, false, false, 4)).privateData(new byte[509]).toBytes());
        assertThat(big.awaitOne(MpaStartupFailedEvent.class).cause().error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
        assertThat(ch2.isOpen()).isFalse();
        ch2.finishAndReleaseAll();
    }

    /**
     * MPA-64 (RFC 6581 §10): an enhanced Responder answers an S=1 Request with an S=1 Reply (enhanced data
     * in front) and an S=0 Request with an unenhanced Reply — checked by the scripted peer over sockets.
     */
    @Test
    @Requirement("MPA-64")
    @DisplayName("MPA-64: S=1 Request gets an S=1 Reply, S=0 Request an unenhanced Reply (socket)")
    void sEcho() {
        byte[] pd = Bytes.ascii("responder pd");
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(MpaConfig.builder().privateData(pd).build());
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(enhancedRequest(new Enhanced(false, false, 3, false, false, 2)))
                        .expectMpaReply().withRevision(2).withEnhancedFlag(true).withUlpPrivateData(pd)
                        .matching(f -> f.enhanced() != null && f.pdLength() == 4 + pd.length, "4 enhanced octets first")
                        .and().start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
            }
        }
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(MpaConfig.builder().privateData(pd).build());
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true).revision(2))
                        .expectMpaReply().withEnhancedFlag(false).withPrivateData(pd).and().start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(l.probe().awaitEstablished().parameters().enhanced()).isFalse();
            }
        }
    }

    /**
     * MPA-65 (RFC 6581 §10): a Responder without RFC 6581 support treats an enhanced Request as malformed
     * and closes TCP; the Initiator may retry unenhanced. A Rev-1-only stack closes on a Rev 2, S=1
     * Request (0x04) and accepts the Rev 1 retry on a new connection (over sockets).
     */
    @Test
    @Requirement("MPA-65")
    @DisplayName("MPA-65: a Rev-1-only Responder closes on an enhanced Request; a Rev 1 retry succeeds (socket)")
    void rev1ResponderAndRetry() {
        MpaConfig rev1 = MpaConfig.builder().revision(1).build();
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(rev1);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(enhancedRequest(new Enhanced(false, false, 4, false, false, 4))).expectClose()
                        .start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                assertThat(l.probe().awaitOne(MpaStartupFailedEvent.class).cause().error())
                        .isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            }
        }
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(rev1);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendMpaFrame(StartupFrame.request().crc(true).revision(1))
                        .expectMpaReply().withRevision(1).withRejected(false).and().start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                l.probe().awaitEstablished();
            }
        }
    }

    /**
     * MPA-66 (RFC 6581 §10): an Initiator that wants no enhanced feature does not use the enhanced format:
     * configured for Rev 1 it sends Rev 1, S=0, and PD_Length counting only its ULP private data.
     */
    @Test
    @Requirement("MPA-66")
    @DisplayName("MPA-66: without enhanced features the Initiator sends S=0, Rev 1, ULP private data only")
    void noEnhancedFormatWhenUnwanted() {
        StackProbe i = new StackProbe();
        StartupFrame request = initiate(MpaConfig.builder().revision(1).privateData(Bytes.ascii("pd")).build(),
                StartupFrame.reply().crc(true), i);
        assertThat(request.enhancedFlag()).isFalse();
        assertThat(request.revision()).isEqualTo(1);
        assertThat(request.privateData()).isEqualTo(Bytes.ascii("pd"));
        i.awaitEstablished();
    }

    /**
     * MPA-67 (RFC 6581 §9.1): both sides pass the peer's IRD and ORD to the ULP; the Initiator does so for
     * accepting and for rejecting Replies.
     */
    @Test
    @Requirement("MPA-67")
    @DisplayName("MPA-67: the peer's IRD/ORD reach the ULP on both sides, also with a rejecting Reply")
    void peerIrdOrdArePassedUp() {
        try (EmbeddedPair pair = new EmbeddedPair(MpaConfig.builder().ird(3).ord(5).build(),
                MpaConfig.builder().ird(9).ord(2).build())) {
            MpaParameters ip = pair.initiatorParameters();
            MpaParameters rp = pair.responderParameters();
            assertThat(rp.peerIrd()).isEqualTo(3);
            assertThat(rp.peerOrd()).isEqualTo(5);
            assertThat(ip.peerIrd()).isEqualTo(rp.localIrd());
            assertThat(ip.peerOrd()).isEqualTo(rp.localOrd());
        }
        StackProbe i = new StackProbe();
        initiate(MpaConfig.defaults(), enhancedReply(new Enhanced(false, false, 11, false, false, 22)).rejected(true),
                i);
        MpaRejection rej = i.awaitOne(MpaRejectedEvent.class).rejection();
        assertThat(rej.responderIrd()).isEqualTo(11);
        assertThat(rej.responderOrd()).isEqualTo(22);
    }

    /**
     * MPA-68 (RFC 6581 §9.1): the Responder sets its ORD no higher than the Initiator's IRD, may raise its
     * IRD (to 1 for a Read RTR even when the Initiator's ORD is 0), and may reject, putting the ORD it needs
     * into the Reply.
     */
    @Test
    @Requirement("MPA-68")
    @DisplayName("MPA-68: Responder ORD ≤ Initiator IRD, IRD raised for a Read RTR, reject carries the needed ORD")
    void responderIrdOrd() {
        StackProbe r = new StackProbe();
        StartupFrame reply = replyTo(MpaConfig.builder().ird(16).ord(8).build(),
                enhancedRequest(new Enhanced(false, false, 2, false, false, 4)), r);
        assertThat(reply.enhanced().ord()).isEqualTo(2);
        assertThat(r.awaitEstablished().parameters().ord()).isEqualTo(2);

        StackProbe rtr = new StackProbe();
        StartupFrame readRtr = replyTo(MpaConfig.builder().ird(0).ord(0).rtrTypes(RtrType.READ).build(),
                enhancedRequest(new Enhanced(true, false, 1, false, true, 0)), rtr);
        assertThat(readRtr.enhanced().readRtr()).isTrue();
        assertThat(readRtr.enhanced().ird()).isGreaterThanOrEqualTo(1);
        assertThat(rtr.awaitEstablished().parameters().ird()).isGreaterThanOrEqualTo(1);

        StackProbe rej = new StackProbe();
        StartupFrame reject = replyTo(MpaConfig.builder().requiredOrd(8).build(),
                enhancedRequest(new Enhanced(false, false, 4, false, false, 4)), rej);
        assertThat(reject.rejected()).isTrue();
        assertThat(reject.enhanced().ord()).isEqualTo(8);
        assertThat(rej.awaitOne(MpaRejectedEvent.class).rejection().reason()).isEqualTo(MpaError.INSUFFICIENT_IRD);
    }

    /**
     * MPA-69 (RFC 6581 §9.1): after an accepting Reply the Initiator sets IRD ≥ Responder ORD and
     * ORD ≤ Responder IRD; if it cannot provide that IRD it must send Terminate 0x2/0x0/0x06 and end the
     * connection. MPA's part: the negotiated values, the hand-off {@code requiredTerminate = 0x06}, and that
     * a Terminate handed down as the first FPDU goes out first and byte-exact (golden vector
     * fpdu-terminate-insufficient-ird). Building and sending it, and ending the connection, is RDMAP's
     * (its own tests, under the same requirement ID).
     */
    @Test
    @Requirement("MPA-69")
    @DisplayName("MPA-69: Initiator IRD ≥ Responder ORD, ORD ≤ Responder IRD, else requiredTerminate 0x06")
    void initiatorIrdOrd() {
        StackProbe i = new StackProbe();
        initiate(MpaConfig.builder().ird(4).irdLimit(8).ord(16).build(),
                enhancedReply(new Enhanced(false, false, 2, false, false, 6)), i);
        MpaParameters p = i.awaitEstablished().parameters();
        assertThat(p.ird()).isGreaterThanOrEqualTo(6).isLessThanOrEqualTo(8);
        assertThat(p.ord()).isLessThanOrEqualTo(2);
        assertThat(p.requiredTerminate()).isNull();

        var terminate = GoldenVectors.named("fpdu-terminate-insufficient-ird");
        StackProbe short_ = new StackProbe();
        short_.onEvent(e -> {
            if (e instanceof MpaEstablishedEvent est && est.parameters().requiredTerminate() != null) {
                short_.channel().writeAndFlush(Bytes.direct(terminate.hex("ulpdu_hex")));
            }
        });
        EmbeddedChannel ch = Embedded.initiator(MpaConfig.builder().ird(4).irdLimit(4).build(), short_);
        int requestLength = Embedded.outbound(ch).length;
        Embedded.inbound(ch, enhancedReply(new Enhanced(false, false, 16, false, false, 10)).toBytes());
        MpaParameters q = short_.awaitEstablished().parameters();
        assertThat(q.requiredTerminate()).isEqualTo(MpaError.INSUFFICIENT_IRD);
        assertThat(q.requiredTerminate().code()).isEqualTo(0x06);
        assertThat(Embedded.outbound(ch)).isEqualTo(terminate.bytes());
        assertThat(requestLength).isEqualTo(24);
        ch.finishAndReleaseAll();
    }

    /**
     * MPA-70 (RFC 6581 §9.1): 0x3FFF means "no automatic negotiation". The Responder answers Initiator ORD
     * 0x3FFF with IRD 0x3FFF and Initiator IRD 0x3FFF with ORD 0x3FFF, keeping its local values; the
     * Initiator keeps its local ORD (IRD) when the Responder's IRD (ORD) is 0x3FFF.
     */
    @Test
    @Requirement("MPA-70")
    @DisplayName("MPA-70: IRD/ORD 0x3FFF are echoed and leave the local values unchanged")
    void noAutomaticNegotiation() {
        MpaConfig local = MpaConfig.builder().ird(12).ord(6).build();
        StackProbe r = new StackProbe();
        StartupFrame reply =
                replyTo(local, enhancedRequest(new Enhanced(false, false, NO_NEG, false, false, NO_NEG)), r);
        assertThat(reply.enhanced().ird()).isEqualTo(NO_NEG);
        assertThat(reply.enhanced().ord()).isEqualTo(NO_NEG);
        MpaParameters rp = r.awaitEstablished().parameters();
        assertThat(rp.ird()).isEqualTo(12);
        assertThat(rp.ord()).isEqualTo(6);

        StackProbe i = new StackProbe();
        initiate(local, enhancedReply(new Enhanced(false, false, NO_NEG, false, false, NO_NEG)), i);
        MpaParameters ip = i.awaitEstablished().parameters();
        assertThat(ip.ird()).isEqualTo(12);
        assertThat(ip.ord()).isEqualTo(6);
        assertThat(ip.requiredTerminate()).isNull();
    }

    /**
     * MPA-71 (RFC 6581 §9.2): the Initiator sets A=1 for peer-to-peer and then B/C/D for every RTR type it
     * supports; A=0 (and B=C=D=0) for client-server.
     */
    @Test
    @Requirement("MPA-71")
    @DisplayName("MPA-71: A=1 with a flag per supported RTR type for peer-to-peer, A=0 for client-server")
    void initiatorRtrFlags() {
        Enhanced writeRead =
                requestOf(MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.WRITE, RtrType.READ).build());
        assertThat(writeRead).isEqualTo(new Enhanced(true, false, 16, true, true, 16));
        Enhanced all = requestOf(MpaConfig.builder().peerToPeer(true)
                .rtrTypes(RtrType.SEND, RtrType.WRITE, RtrType.READ).build());
        assertThat(all.sendRtr() && all.writeRtr() && all.readRtr() && all.peerToPeer()).isTrue();
        Enhanced cs = requestOf(MpaConfig.builder().peerToPeer(false).build());
        assertThat(cs).isEqualTo(new Enhanced(false, false, 16, false, false, 16));
    }

    private static Enhanced requestOf(MpaConfig c) {
        StackProbe p = new StackProbe();
        EmbeddedChannel ch = Embedded.initiator(c, p);
        Enhanced e = StartupFrame.parse(Embedded.outbound(ch)).enhanced();
        ch.finishAndReleaseAll();
        return e;
    }

    /**
     * MPA-72 (RFC 6581 §9.2): an enhanced Responder supports at least one RTR type, echoes A=1, should set
     * each offered flag it supports, sets at least one flag, and if it supports none of the offered ones
     * sets one it does support.
     */
    @Test
    @Requirement("MPA-72")
    @DisplayName("MPA-72: the Responder echoes A=1 and sets the offered RTR flags it supports (at least one)")
    void responderRtrFlags() {
        Enhanced offerAll = new Enhanced(true, true, 8, true, true, 8);
        Enhanced both = replyTo(MpaConfig.builder().rtrTypes(RtrType.WRITE, RtrType.READ).build(),
                enhancedRequest(offerAll), new StackProbe()).enhanced();
        assertThat(both.peerToPeer()).isTrue();
        assertThat(both.writeRtr() && both.readRtr() && !both.sendRtr()).isTrue();
        Enhanced one = replyTo(MpaConfig.builder().rtrTypes(RtrType.WRITE, RtrType.READ)
                .rtrReplyPolicy(RtrReplyPolicy.PREFERRED_ONLY).build(), enhancedRequest(offerAll), new StackProbe())
                .enhanced();
        assertThat(one.writeRtr() && !one.readRtr() && !one.sendRtr()).isTrue();
        StackProbe own = new StackProbe();
        Enhanced none = replyTo(MpaConfig.builder().rtrTypes(RtrType.WRITE).build(),
                enhancedRequest(new Enhanced(true, true, 8, false, false, 8)), own).enhanced();
        assertThat(none.peerToPeer() && none.writeRtr() && !none.sendRtr() && !none.readRtr()).isTrue();
        assertThatThrownBy(() -> MpaConfig.builder().rtrTypes(new RtrType[0]).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * MPA-73 (RFC 6581 §9.2): A=0 in the Request forces A=0 in the Reply; with A=0, B/C/D are sent as 0 and
     * ignored on receipt — in both roles.
     */
    @Test
    @Requirement("MPA-73")
    @DisplayName("MPA-73: A=0 forces A=0 in the Reply; with A=0 the RTR flags are sent as 0 and ignored")
    void clientServer() {
        StackProbe r = new StackProbe();
        StartupFrame reply =
                replyTo(MpaConfig.defaults(), enhancedRequest(new Enhanced(false, true, 8, true, true, 8)), r);
        assertThat(reply.enhanced().peerToPeer()).isFalse();
        assertThat(reply.enhanced().sendRtr() || reply.enhanced().writeRtr() || reply.enhanced().readRtr()).isFalse();
        assertThat(r.awaitEstablished().parameters().rtrTypes()).isEmpty();

        StackProbe i = new StackProbe();
        initiate(MpaConfig.defaults(), enhancedReply(new Enhanced(false, true, 8, true, true, 8)), i);
        MpaParameters p = i.awaitEstablished().parameters();
        assertThat(p.peerToPeer()).isFalse();
        assertThat(p.rtrTypes()).isEmpty();
        assertThat(p.rtr()).isNull();
        assertThat(p.requiredTerminate()).isNull();
    }

    /**
     * MPA-74 (RFC 6581 §9.2, §9.3): after an accepting Reply with A=1 the Initiator's first FPDU is one
     * negotiated RTR; if none is possible it sends Terminate 0x2/0x0/0x07. MPA's part: the RTR type it
     * hands up is one both sides accept (a Read RTR only with ORD ≥ 1); with no usable type (or a Reply
     * without A=1) it hands up {@code requiredTerminate = 0x07} instead; and the RTR handed down first goes
     * out first, byte for byte (golden vector fpdu-rtr-zero-length-write). Building the RTR or the
     * Terminate is RDMAP's (its own tests, under the same requirement ID).
     */
    @Test
    @Requirement("MPA-74")
    @DisplayName("MPA-74: the negotiated RTR type (or requiredTerminate 0x07) is handed up; the RTR goes out first")
    void rtrSelection() {
        MpaConfig p2p =
                MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.WRITE, RtrType.READ, RtrType.SEND).build();
        StackProbe read = new StackProbe();
        initiate(p2p, enhancedReply(new Enhanced(true, false, 8, false, true, 8)), read);
        MpaParameters pr = read.awaitEstablished().parameters();
        assertThat(pr.rtr()).isEqualTo(RtrType.READ);
        assertThat(pr.rtrTypes()).isEqualTo(Set.of(RtrType.READ));

        StackProbe noMatch = new StackProbe();
        initiate(MpaConfig.builder().peerToPeer(true).rtrTypes(RtrType.WRITE).build(),
                enhancedReply(new Enhanced(true, true, 8, false, false, 8)), noMatch);
        MpaParameters pn = noMatch.awaitEstablished().parameters();
        assertThat(pn.rtr()).isNull();
        assertThat(pn.requiredTerminate()).isEqualTo(MpaError.NO_MATCHING_RTR);
        assertThat(pn.requiredTerminate().code()).isEqualTo(0x07);

        StackProbe noA = new StackProbe();
        initiate(p2p, enhancedReply(new Enhanced(false, false, 8, false, false, 8)), noA);
        assertThat(noA.awaitEstablished().parameters().requiredTerminate()).isEqualTo(MpaError.NO_MATCHING_RTR);

        StackProbe readNoOrd = new StackProbe();
        initiate(MpaConfig.builder().peerToPeer(true).ord(0).rtrTypes(RtrType.READ).build(),
                enhancedReply(new Enhanced(true, false, 8, false, true, 0)), readNoOrd);
        assertThat(readNoOrd.awaitEstablished().parameters().requiredTerminate()).isEqualTo(MpaError.NO_MATCHING_RTR);

        var rtr = GoldenVectors.named("fpdu-rtr-zero-length-write");
        StackProbe w = new StackProbe();
        w.onEvent(e -> {
            if (e instanceof MpaEstablishedEvent est && est.parameters().rtr() == RtrType.WRITE) {
                w.channel().write(Bytes.direct(rtr.hex("ulpdu_hex")));
                w.channel().writeAndFlush(Bytes.direct(Bytes.ascii("a Send after the RTR")));
            }
        });
        EmbeddedChannel ch = Embedded.initiator(p2p, w);
        Embedded.outbound(ch);
        Embedded.inbound(ch, enhancedReply(new Enhanced(true, false, 8, true, false, 8)).toBytes());
        byte[] out = Embedded.outbound(ch);
        assertThat(Arrays.copyOf(out, rtr.bytes().length)).isEqualTo(rtr.bytes());
        ch.finishAndReleaseAll();
    }

    /**
     * MPA-75 (RFC 6581 §5): the Initiator lets no other FPDU go out before the RTR. MPA's part: nothing the
     * layer above writes before Full Operation is queued or sent (the write fails, the wire stays empty), so
     * nothing can overtake the RTR; after it, FPDUs leave in the order they were handed down. Delaying the
     * user's "connected" until the RTR is sent is the verbs layer's (its tests, under the same ID).
     */
    @Test
    @Requirement("MPA-75")
    @DisplayName("MPA-75: nothing written before Full Operation reaches the wire, so nothing precedes the RTR")
    void nothingBeforeTheRtr() {
        MpaConfig p2p = MpaConfig.builder().peerToPeer(true).build();
        StackProbe p = new StackProbe();
        EmbeddedChannel ch = Embedded.initiator(p2p, p);
        byte[] request = Embedded.outbound(ch);
        ChannelFuture early = Embedded.sendUlpdu(ch, Bytes.ascii("too early"));
        assertThat(early.cause()).isInstanceOf(IllegalStateException.class);
        assertThat(Embedded.outbound(ch)).isEmpty();
        var rtr = GoldenVectors.named("fpdu-rtr-zero-length-write");
        Embedded.inbound(ch, enhancedReply(new Enhanced(true, false, 8, true, false, 8)).toBytes());
        assertThat(p.awaitEstablished().parameters().rtr()).isEqualTo(RtrType.WRITE);
        Embedded.sendUlpdu(ch, rtr.hex("ulpdu_hex"));
        Embedded.sendUlpdu(ch, Bytes.ascii("then a Send"));
        byte[] out = Embedded.outbound(ch);
        assertThat(Arrays.copyOf(out, rtr.bytes().length)).isEqualTo(rtr.bytes());
        assertThat(request).hasSize(24);
        ch.finishAndReleaseAll();
    }
}
