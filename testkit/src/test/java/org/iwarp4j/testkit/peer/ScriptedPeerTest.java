package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scripted peer itself, against plain {@link Socket}s (and against another scripted peer): steps run
 * in order, mismatches and timeouts fail with what arrived against what was expected, FIN and RST are
 * told apart, and both sides of every golden conversation replay against each other.
 */
class ScriptedPeerTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private static Socket connect(ScriptedPeer peer) throws IOException {
        Socket s = new Socket(peer.address().getAddress(), peer.address().getPort());
        s.setTcpNoDelay(true);
        s.setSoTimeout((int) WAIT.toMillis());
        return s;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void runsExpectationsAndSendsInOrder() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("ping")).send(ascii("pong")).expectBytes(4, b -> b[0] == 'b', "starts with b")
                    .send(ascii("!")).start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("ping"));
                assertThat(s.getInputStream().readNBytes(4)).isEqualTo(ascii("pong"));
                s.getOutputStream().write(ascii("byte"));
                assertThat(s.getInputStream().readNBytes(1)).isEqualTo(ascii("!"));
                peer.waitForScriptToComplete(WAIT);
                assertThat(peer.received()).isEqualTo(ascii("pingbyte"));
                assertThat(peer.sent()).isEqualTo(ascii("pong!"));
            }
        }
    }

    /**
     * An expectation's conditions may be attached after the stack's octets are already in the socket (a test
     * that posts work first and scripts the checks afterwards): the peer must not run the step before its
     * configuration is complete, or it would consume the octets unchecked.
     */
    @Test
    void conditionsAttachedAfterTheOctetsArrivedAreStillChecked() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.start();
            try (Socket s = connect(peer)) {
                MpaFrameExpectation request = peer.expectMpaRequest();
                s.getOutputStream().write(StartupFrame.request().crc(false).toBytes());
                s.getOutputStream().flush();
                Thread.yield();
                request.withCrc(true).and();
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .isInstanceOf(ScriptFailure.class)
                        .hasMessageContaining("C=1");
            }
        }
    }

    @Test
    void anUnsealedExpectationRunsOnceTheNextStepIsAdded() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.start();
            try (Socket s = connect(peer)) {
                CompletableFuture<StartupFrame> seen = new CompletableFuture<>();
                peer.expectMpaRequest().matching(seen::complete, "any Request");
                s.getOutputStream().write(StartupFrame.request().crc(true).toBytes());
                peer.send(ascii("x"));          // adding the next step seals the expectation before it
                assertThat(s.getInputStream().readNBytes(1)).isEqualTo(ascii("x"));
                assertThat(seen).isDone();
                peer.waitForScriptToComplete(WAIT);
            }
        }
    }

    @Test
    void aSendAfterAnExpectationWaitsForTheExpectedOctets() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("ping")).send(ascii("pong")).start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("pi"));
                assertThatThrownBy(() -> peer.waitForScriptToComplete(Duration.ofMillis(100)))
                        .isInstanceOf(ScriptFailure.class)
                        .hasMessageContaining("step 1/2 [expect 4 octets 70696e67] is still waiting")
                        .hasMessageContaining("received in this step: 7069");
                assertThat(s.getInputStream().available()).as("nothing sent before the expectation is met").isZero();
                s.getOutputStream().write(ascii("ng"));
                assertThat(s.getInputStream().readNBytes(4)).isEqualTo(ascii("pong"));
                peer.waitForScriptToComplete(WAIT);
            }
        }
    }

    @Test
    void aMismatchReportsTheStepAndTheDifference() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("hello"), "expect the greeting").send(ascii("never")).start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("help!"));
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .isInstanceOf(ScriptFailure.class)
                        .hasMessageContaining("step 1/2 [expect the greeting]: the octets differ")
                        .hasMessageContaining("first difference at octet 3")
                        .hasMessageContaining("expected [0..]: 68 65 6c >6c< 6f")
                        .hasMessageContaining("arrived  [0..]: 68 65 6c >70< 21");
                // the peer gave up and reset the connection; it never sent "never"
                assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketException.class);
            }
        }
    }

    @Test
    void aTimeoutReportsThePartialArrival() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server().stepTimeout(Duration.ofMillis(100))) {
            peer.expectBytes(ascii("abcdef")).start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("abc"));
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .isInstanceOf(ScriptFailure.class)
                        .hasMessageContaining("timed out with 3 of 6 octets: 616263");
            }
        }
    }

    @Test
    void noConnectionWithinTheTimeoutFails() {
        try (ScriptedPeer peer = ScriptedPeer.server().stepTimeout(Duration.ofMillis(50))) {
            peer.expectFin().start();
            assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT)).hasMessageContaining("no connection");
        }
    }

    @Test
    void tellsFinFromRst() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("x")).expectFin().send(ascii("still open")).start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("x"));
                s.shutdownOutput();
                // after our FIN the peer can still send (half close)
                assertThat(s.getInputStream().readNBytes(10)).isEqualTo(ascii("still open"));
                peer.waitForScriptToComplete(WAIT);
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectReset().start();
            Socket s = connect(peer);
            s.setSoLinger(true, 0);
            s.close();
            peer.waitForScriptToComplete(WAIT);
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectFin().start();
            Socket s = connect(peer);
            s.setSoLinger(true, 0);
            s.close();
            assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT)).hasMessageContaining("got RST instead");
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectClose().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("late"));
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("more octets arrived instead: 6c617465");
            }
        }
    }

    @Test
    void hangsUpWithFinOrRst() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.send(ascii("bye")).shutdownOutput().expectBytes(ascii("ok")).dropConnection().start();
            try (Socket s = connect(peer)) {
                InputStream in = s.getInputStream();
                assertThat(in.readNBytes(3)).isEqualTo(ascii("bye"));
                assertThat(in.read()).as("FIN").isEqualTo(-1);
                s.getOutputStream().write(ascii("ok"));
                peer.waitForScriptToComplete(WAIT);
                assertThatThrownBy(() -> s.getOutputStream().write(new byte[1 << 16]))
                        .as("the peer reset the connection").isInstanceOf(SocketException.class);
            }
        }
    }

    @Test
    void expectNoBytesPendingSeesOctetsAlreadyHere() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("a")).expectNoBytesPending().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("ab")); // one segment: "b" is here once "a" is
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("[expect no octets pending]: 1 octets had arrived: 62");
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectBytes(ascii("a")).expectNoBytesPending().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(ascii("a"));
                peer.waitForScriptToComplete(WAIT);
            }
        }
    }

    @Test
    void waitsForTheTestAndRunsActions() throws Exception {
        CompletableFuture<Void> go = new CompletableFuture<>();
        CompletableFuture<String> reached = new CompletableFuture<>();
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.run("tell the test", () -> reached.complete("here")).waitFor(go, "the test's go")
                    .send(ascii("after")).start();
            try (Socket s = connect(peer)) {
                assertThat(reached.get()).isEqualTo("here");
                assertThat(s.getInputStream().available()).isZero();
                go.complete(null);
                assertThat(s.getInputStream().readNBytes(5)).isEqualTo(ascii("after"));
                peer.waitForScriptToComplete(WAIT);
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server().stepTimeout(Duration.ofMillis(50))) {
            peer.waitFor(new CompletableFuture<>(), "a signal that never comes").start();
            try (Socket ignored = connect(peer)) {
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("[wait for a signal that never comes]: timed out waiting for the test");
            }
        }
    }

    @Test
    void mpaFrameExpectationsNameTheWrongField() throws Exception {
        byte[] request = GoldenVectors.named("mpa-req-rev2-p2p").bytes();
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            MpaFrameExpectation e = peer.expectMpaRequest().withRevision(2).withCrc(true).withMarkers(false)
                    .withEnhanced(new StartupFrame.Enhanced(true, true, 16, true, true, 8))
                    .withUlpPrivateData(ascii("p2p-hello"));
            e.and().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(request);
                peer.waitForScriptToComplete(WAIT);
                assertThat(e.received().get().toBytes()).isEqualTo(request);
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectMpaRequest().withRevision(1).withMarkers(true).and().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(request);
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("expected Rev=1 but Rev=2")
                        .hasMessageContaining("expected M=1 but M=0");
            }
        }
        try (ScriptedPeer peer = ScriptedPeer.server()) {
            peer.expectMpaReply().and().start();
            try (Socket s = connect(peer)) {
                s.getOutputStream().write(request);
                assertThatThrownBy(() -> peer.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("the key is wrong: MPA Request");
            }
        }
    }

    @Test
    void entersFullOperationFromTheFramesAndFramesFpdus() throws Exception {
        byte[] ulpduIn = ascii("from the client");
        byte[] ulpduOut = new byte[700];
        try (ScriptedPeer server = ScriptedPeer.server()) {
            server.expectMpaRequest().withMarkers(true).respond(StartupFrame.reply().markers(true).crc(true))
                    .expectFpdu().withUlpdu(ulpduIn).and()
                    .sendFpdu(ulpduOut)
                    .start();
            try (ScriptedPeer client = ScriptedPeer.client(server.address())) {
                client.sendMpaFrame(StartupFrame.request().markers(true).crc(false))
                        .expectMpaReply().withCrc(true).and()
                        .sendFpdu(ulpduIn)
                        .expectFpdu().withUlpdu(ulpduOut)
                        .matching(f -> f.markers().size() == 2 && f.markers().get(0).position() == 0,
                                "two markers, one leading")
                        .and().start();
                client.waitForScriptToComplete(WAIT);
                server.waitForScriptToComplete(WAIT);
            }
        }
    }

    @Test
    void badFpdusAreCaughtByExpectFpdu() throws Exception {
        try (ScriptedPeer server = ScriptedPeer.server()) {
            server.fullOperation(true, false, false).expectFpdu().and().start();
            try (ScriptedPeer client = ScriptedPeer.client(server.address())) {
                client.fullOperation(true, false, false).sendFpdu(new byte[10], FpduTamper.BAD_CRC).start();
                client.waitForScriptToComplete(WAIT);
                assertThatThrownBy(() -> server.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("invalid FPDU: CRC field");
            }
        }
    }

    static List<ConversationStream> streams() {
        return GoldenVectors.streams();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void bothSidesOfEveryRecordingReplayAgainstEachOther(ConversationStream stream) {
        try (ScriptedPeer responder = ScriptedPeer.server()) {
            responder.replay(stream, Direction.R2I).start();
            try (ScriptedPeer initiator = ScriptedPeer.client(responder.address())) {
                initiator.replay(stream, Direction.I2R).start();
                initiator.waitForScriptToComplete(WAIT);
                responder.waitForScriptToComplete(WAIT);
                assertThat(responder.received()).isEqualTo(stream.bytes(Direction.I2R));
                assertThat(initiator.received()).isEqualTo(stream.bytes(Direction.R2I));
            }
        }
    }

    @Test
    void replayFailsOnTheFirstWrongSegment() throws Exception {
        ConversationStream s = GoldenVectors.stream("conv-rev2-p2p-send-rtr");
        List<ConversationStream.Segment> tampered = new ArrayList<>(s.segments());
        ConversationStream.Segment third = tampered.get(2);
        byte[] p = third.payload().clone();
        p[p.length - 1] ^= 1;
        tampered.set(2, new ConversationStream.Segment(third.direction(), third.offset(), third.tcpSeq(), p));
        try (ScriptedPeer responder = ScriptedPeer.server()) {
            responder.replay(s, Direction.R2I).start();
            try (ScriptedPeer initiator = ScriptedPeer.client(responder.address())) {
                initiator.replay("tampered", tampered, Direction.I2R).start();
                assertThatThrownBy(() -> responder.waitForScriptToComplete(WAIT))
                        .hasMessageContaining("step 3/4 [expect recorded conv-rev2-p2p-send-rtr segment 3 (I2R, offset "
                                + "24, 24 octets)]")
                        .hasMessageContaining("first difference at octet 23");
            }
        }
    }
}
