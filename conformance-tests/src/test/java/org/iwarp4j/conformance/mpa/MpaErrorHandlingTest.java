package org.iwarp4j.conformance.mpa;

import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Codec;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.netty.MpaStartupFailedEvent;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** What MPA reports and does on errors (RFC 5044 §3, §7.2, §8; RFC 6581 §8). */
class MpaErrorHandlingTest {

    private static final MpaConfig REV1 = MpaConfig.builder().revision(1).build();

    /**
     * MPA-08 (RFC 5044 §3): MPA reports the negotiated revision to the layer above — 1 between RFC 5044
     * endpoints and when an RFC 6581 Responder accepts a Rev 1 Request, 2 between RFC 6581 endpoints, in
     * both roles.
     */
    @Test
    @Requirement("MPA-08")
    @DisplayName("MPA-08: the negotiated MPA revision is reported to the layer above, in both roles")
    void revisionIsReported() {
        int[][] cases = {{1, 1, 1}, {1, 2, 1}, {2, 2, 2}};
        for (int[] c : cases) {
            try (EmbeddedPair pair = new EmbeddedPair(MpaConfig.builder().revision(c[0]).build(),
                    MpaConfig.builder().revision(c[1]).build())) {
                assertThat(pair.initiatorParameters().revision()).isEqualTo(c[2]);
                assertThat(pair.responderParameters().revision()).isEqualTo(c[2]);
            }
        }
    }

    /**
     * MPA-43 (RFC 5044 §8; docs/protocol/errors.md §4): MPA detects TCP loss (0x01), CRC errors (0x02), marker/length
     * mismatches (0x03) and invalid Request/Reply frames (0x04) and reports the code, as Terminate
     * Layer 2 / EType 0 / code. Each condition is produced by the scripted peer over a real socket.
     */
    @Test
    @Requirement("MPA-43")
    @DisplayName("MPA-43: TCP loss 0x01, CRC 0x02, marker 0x03 and invalid frame 0x04 are detected and reported "
            + "(socket)")
    void errorCodesOverSocket() {
        MpaException crc = stackErrorAfter(p -> p.sendFpdu(Bytes.pattern(40, 0), FpduTamper.BAD_CRC));
        assertThat(crc.error()).isEqualTo(MpaError.CRC_ERROR);
        MpaException marker = stackErrorAfter(p -> p.sendFpdu(Bytes.pattern(600, 0), FpduTamper.BAD_MARKER_FPDUPTR));
        assertThat(marker.error()).isEqualTo(MpaError.MARKER_MISMATCH);
        MpaException lost = stackErrorAfter(p -> p.send(Arrays.copyOf(
                new FpduFraming(true, true, 0).encode(Bytes.pattern(100, 0)), 50)).closeConnection());
        assertThat(lost.error()).isEqualTo(MpaError.TCP_CONNECTION_LOST);
        for (MpaException e : List.of(crc, marker, lost)) {
            assertThat(e.terminateLayer()).isEqualTo(2);
            assertThat(e.terminateErrorType()).isZero();
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().and().send(StartupFrame.reply().crc(true).revision(3).toBytes()).expectClose()
                    .start();
            StackProbe p = stack.initiator(peer.address(), REV1);
            peer.waitForScriptToComplete(StackProbe.WAIT);
            MpaException e = p.awaitOne(MpaStartupFailedEvent.class).cause();
            assertThat(e.error()).isEqualTo(MpaError.INVALID_STARTUP_FRAME);
            assertThat(e.terminateErrorCode()).isEqualTo(0x04);
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().and().dropConnection().start();
            StackProbe p = stack.initiator(peer.address(), REV1);
            peer.waitForScriptToComplete(StackProbe.WAIT);
            MpaStartupFailedEvent f = p.awaitOne(MpaStartupFailedEvent.class);
            assertThat(f.reason()).isEqualTo(MpaStartupFailedEvent.Reason.CONNECTION_CLOSED);
            assertThat(f.cause().terminateErrorCode()).isEqualTo(0x01);
        }
    }

    /** Stack = Initiator with markers asked by the peer; after its first FPDU, the peer runs {@code script}. */
    private static MpaException stackErrorAfter(Consumer<ScriptedPeer> script) {
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().withMarkers(true).respond(StartupFrame.reply().crc(true).markers(true))
                    .expectFpduWithUlpdu(Bytes.ascii("first"));
            script.accept(peer);
            peer.start();
            StackProbe p = stack.initiator(peer.address(), REV1.toBuilder().markers(true).build(),
                    new StackProbe().sendOnEstablished(Bytes.ascii("first")));
            peer.waitForScriptToComplete(StackProbe.WAIT);
            MpaException e = p.awaitMpaError();
            assertThat(p.ulpdus()).isEmpty();
            return e;
        }
    }

    /**
     * MPA-43 (RFC 5044 §8, RFC 6581 §8): the MPA error codes and their Terminate Layer/EType/Code values
     * are those of the IANA "MPA Errors" registry (docs/protocol/errors.md §4): Layer 0x2, EType 0x0, codes 0x01–0x07.
     */
    @Test
    @Requirement("MPA-43")
    @DisplayName("MPA-43: MPA errors carry Layer 0x2, EType 0x0 and the registry's codes 0x01…0x07")
    void errorRegistry() {
        assertThat(MpaError.values()).extracting(MpaError::code).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(MpaError.TERMINATE_LAYER).isEqualTo(0x2);
        assertThat(MpaError.TERMINATE_ERROR_TYPE).isEqualTo(0x0);
        assertThat(MpaError.CRC_ERROR.toString()).isEqualTo("0x2/0x0/0x02 MPA CRC error");
        assertThat(MpaError.MARKER_MISMATCH.description()).isEqualTo("MPA Marker and ULPDU Length field mismatch");
        assertThat(MpaError.INSUFFICIENT_IRD.description()).isEqualTo("Insufficient IRD resources");
        assertThat(MpaError.NO_MATCHING_RTR.description()).isEqualTo("No matching RTR option");
        assertThat(MpaError.ofCode(5)).isEqualTo(MpaError.LOCAL_CATASTROPHIC);
    }

    /**
     * MPA-44 (RFC 5044 §8): after reporting any error MPA delivers no further FPDU of that half
     * connection. After a CRC error and after a marker mismatch, valid FPDUs in the same read and in later
     * reads are not passed up, and only one error is reported.
     */
    @Test
    @Requirement("MPA-44")
    @DisplayName("MPA-44: after an error no further FPDU of that half connection is delivered")
    void nothingAfterAnError() {
        for (FpduTamper tamper : new FpduTamper[] {FpduTamper.BAD_CRC, FpduTamper.BAD_MARKER_FPDUPTR}) {
            FpduFraming tx = new FpduFraming(true, true, 0);
            byte[] good1 = tx.encode(Bytes.pattern(300, 1));
            byte[] bad = tx.encode(Bytes.pattern(700, 2), tamper);
            byte[] good3 = tx.encode(Bytes.pattern(30, 3));
            byte[] good4 = tx.encode(Bytes.pattern(40, 4));
            StackProbe probe = new StackProbe();
            EmbeddedChannel ch = Codec.decoder(true, true, 0, probe);
            Embedded.inbound(ch, Bytes.concat(good1, bad, good3));
            Embedded.inbound(ch, good4);
            assertThat(probe.ulpdus()).as("%s", tamper).containsExactly(Bytes.pattern(300, 1));
            assertThat(probe.all(MpaException.class)).hasSize(1);
            assertThat(ch.isOpen()).isTrue();
            ch.finishAndReleaseAll();
        }
    }

    /**
     * MPA-45 (RFC 5044 §8): for CRC and marker errors MPA itself does not close TCP — the ULP does, after an
     * optional Terminate — while an invalid Request/Reply closes TCP at once. Over a real socket: after the
     * peer's bad FPDU the stack's connection is still up, the application sends the golden Terminate for
     * an MPA CRC error (0x2/0x0/0x02) and the peer receives it byte for byte before the FIN.
     */
    @Test
    @Requirement("MPA-45")
    @DisplayName("MPA-45: a CRC or marker error leaves TCP open so the ULP can send its Terminate (socket)")
    void errorLeavesTcpOpen() {
        GoldenVector terminate = GoldenVectors.named("fpdu-terminate-llp-crc");
        for (FpduTamper tamper : new FpduTamper[] {FpduTamper.BAD_CRC, FpduTamper.BAD_MARKER_FPDUPTR}) {
            try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
                peer.expectMpaRequest().withMarkers(true).respond(StartupFrame.reply().crc(true))
                        .expectFpduWithUlpdu(Bytes.ascii("first"))
                        .sendFpdu(Bytes.pattern(600, 0), tamper)
                        .expectBytes(terminate.bytes(), "the golden Terminate FPDU (" + terminate.name() + ")")
                        .expectFin()
                        .start();
                StackProbe p = stack.initiator(peer.address(), REV1.toBuilder().markers(true).build(),
                        new StackProbe().sendOnEstablished(Bytes.ascii("first")));
                MpaException e = p.awaitMpaError();
                assertThat(e.error())
                        .isEqualTo(tamper == FpduTamper.BAD_CRC ? MpaError.CRC_ERROR : MpaError.MARKER_MISMATCH);
                assertThat(p.channel().isActive()).as("TCP still open after %s", e.error()).isTrue();
                p.channel().writeAndFlush(Bytes.direct(terminate.hex("ulpdu_hex")))
                        .addListener(f -> p.channel().close());
                peer.waitForScriptToComplete(StackProbe.WAIT);
            }
        }
    }

    /**
     * MPA-48 (RFC 5044 §7.2, SHOULD): MPA lets DDP learn that a graceful close (FIN) was received. Over a
     * real socket with half-closed connections allowed, the layer above gets every ULPDU sent before the FIN,
     * then the input-shutdown event, and can still send (the peer receives the FPDU) before it closes; without
     * half-closure it gets the ULPDUs and then the channel's end.
     */
    @Test
    @Requirement("MPA-48")
    @DisplayName("MPA-48: a FIN reaches the layer above after every ULPDU sent before it (socket)")
    void finIsReported() {
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack().allowHalfClosure()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true))
                    .expectFpduWithUlpdu(Bytes.ascii("first"))
                    .sendFpdu(Bytes.ascii("one")).sendFpdu(Bytes.ascii("two")).shutdownOutput()
                    .expectFpduWithUlpdu(Bytes.ascii("still sending after your FIN"))
                    .expectFin().start();
            StackProbe p =
                    stack.initiator(peer.address(), REV1, new StackProbe().sendOnEstablished(Bytes.ascii("first")));
            List<Object> log = p.await(l -> l.contains(StackProbe.Signal.INPUT_SHUTDOWN), "the input shutdown");
            int shutdownAt = log.indexOf(StackProbe.Signal.INPUT_SHUTDOWN);
            assertThat(p.ulpdus()).containsExactly(Bytes.ascii("one"), Bytes.ascii("two"));
            assertThat(log.subList(shutdownAt, log.size())).doesNotHaveAnyElementsOfTypes(StackProbe.Received.class);
            assertThat(p.all(Throwable.class)).isEmpty();
            p.send(Bytes.ascii("still sending after your FIN")).addListener(f -> p.channel().close());
            peer.waitForScriptToComplete(StackProbe.WAIT);
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true))
                    .expectFpduWithUlpdu(Bytes.ascii("first"))
                    .sendFpdu(Bytes.ascii("one")).closeConnection().start();
            StackProbe p =
                    stack.initiator(peer.address(), REV1, new StackProbe().sendOnEstablished(Bytes.ascii("first")));
            p.awaitInactive();
            List<Object> log = p.log();
            assertThat(p.ulpdus()).containsExactly(Bytes.ascii("one"));
            assertThat(log.indexOf(StackProbe.Signal.INACTIVE)).isGreaterThan(log.indexOf(log.stream()
                    .filter(StackProbe.Received.class::isInstance).findFirst().orElseThrow()));
            peer.waitForScriptToComplete(StackProbe.WAIT);
        }
    }
}
