package org.iwarp4j.conformance.mpa;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.CaptureStreams;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.RecordedSide;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.testkit.peer.ConversationReplay;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every golden conversation ({@code vectors/streams}) and the Linux siw rping capture
 * ({@code samples/siw-rping-crc.pcap}), in both roles, over real sockets: the scripted peer
 * replays one side segment by segment (each of its segments only after the stack's octets recorded
 * before it have arrived), the stack plays the other side from above MPA, ULPDU by ULPDU. The stack must
 * produce the recorded octets exactly — startup frame, ULPDU_Length, PAD, CRC and, in conv-markers,
 * every marker — and pass up exactly the recorded ULPDUs.
 */
class ConversationReplayTest {

    /** The golden conversations and every MPA connection of the Linux siw rping capture in samples/. */
    static List<ConversationStream> streams() {
        List<ConversationStream> all = new ArrayList<>(GoldenVectors.streams());
        List<ConversationStream> siw = CaptureStreams.conversations("siw-rping-crc.pcap",
                CaptureStreams.sample("siw-rping-crc.pcap"));
        assertThat(siw).as("the siw capture holds an MPA connection").isNotEmpty();
        all.addAll(siw);
        return all;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    @Requirement({"MPA-09", "MPA-17", "MPA-19"})
    @DisplayName("MPA-09, MPA-17, MPA-19: the stack as Initiator reproduces a recorded conversation octet for octet "
            + "(socket)")
    void stackAsInitiator(ConversationStream stream) {
        ConversationReplay replay = ConversationReplay.of(stream);
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.replay(stream, Direction.R2I).start();
            StackProbe probe = new StackProbe();
            RecordedSide side = new RecordedSide(replay, Direction.I2R, probe);
            stack.initiator(peer.address(), RecordedSide.configFor(replay.request(), true), probe);
            peer.waitForScriptToComplete(StackProbe.WAIT);
            probe.await(l -> side.done() || !side.failures().isEmpty(), "the recorded ULPDUs");
            assertThat(side.failures()).isEmpty();
            assertThat(probe.all(Throwable.class)).isEmpty();
            assertThat(peer.received()).isEqualTo(stream.bytes(Direction.I2R));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    @Requirement({"MPA-09", "MPA-17", "MPA-19"})
    @DisplayName("MPA-09, MPA-17, MPA-19: the stack as Responder reproduces a recorded conversation octet for octet "
            + "(socket)")
    void stackAsResponder(ConversationStream stream) {
        ConversationReplay replay = ConversationReplay.of(stream);
        try (LoopbackStack stack = new LoopbackStack()) {
            StackProbe probe = new StackProbe();
            RecordedSide side = new RecordedSide(replay, Direction.R2I, probe);
            LoopbackStack.Listener l = stack.responder(RecordedSide.configFor(replay.reply(), false), probe);
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.replay(stream, Direction.I2R).start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                probe.await(log -> side.done() || !side.failures().isEmpty(), "the recorded ULPDUs");
                assertThat(side.failures()).isEmpty();
                assertThat(probe.all(Throwable.class)).isEmpty();
                assertThat(peer.received()).isEqualTo(stream.bytes(Direction.R2I));
            }
        }
    }
}
