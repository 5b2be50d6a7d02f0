package org.iwarp4j.conformance.mpa;

import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.LoopbackStack;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MPA-23 (RFC 5044 §5.1, Appendix A.4): receivers work correctly however FPDUs are cut into or packed
 * into TCP segments (middleboxes may resegment). The same octet stream — startup frame, then FPDUs with
 * markers and CRC — fed to the stack in every kind of pieces gives the same result.
 */
class MpaSegmentationTest {

    private static final byte[] PD = Bytes.ascii("seg-pd!");

    private record Stream(byte[] octets, List<byte[]> ulpdus) {}

    /** A Request (M=1, C=1) and 30 FPDUs with markers, as an Initiator would send them to a marker-asking Responder. */
    private static Stream initiatorStream() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(StartupFrame.request().markers(true).crc(true).privateData(PD).toBytes());
        FpduFraming tx = new FpduFraming(true, true, 0);
        Random r = new Random(23);
        List<byte[]> ulpdus = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] u = Bytes.random(r, r.nextInt(1400));
            ulpdus.add(u);
            out.writeBytes(tx.encode(u));
        }
        return new Stream(out.toByteArray(), ulpdus);
    }

    /**
     * The stream is fed in one go, so the FPDUs reach the Responder before its Reply could have: it is
     * configured to keep such early octets (by default it rejects them as a PD_Length mismatch, MPA-32),
     * which lets every cut point of the whole stream be exercised.
     */
    private static MpaConfig responderConfig() {
        return MpaConfig.builder().revision(1).markers(true).rejectDataBeforeReply(false).build();
    }

    private static void feedAndCheck(Stream s, int[] cuts) {
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Embedded.responder(responderConfig(), probe);
        Embedded.inboundInPieces(ch, s.octets(), cuts);
        assertThat(probe.awaitEstablished().parameters().request().privateData()).isEqualTo(PD);
        assertThat(probe.all(Throwable.class)).isEmpty();
        List<byte[]> got = probe.ulpdus();
        assertThat(got).hasSize(s.ulpdus().size());
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i)).isEqualTo(s.ulpdus().get(i));
        }
        ch.finishAndReleaseAll();
    }

    @Test
    @Requirement("MPA-23")
    @DisplayName("MPA-23: one octet per read, all in one read, and 100 random cuttings decode identically")
    void anySegmentation() {
        Stream s = initiatorStream();
        int[] ones = new int[s.octets().length];
        Arrays.fill(ones, 1);
        feedAndCheck(s, ones);
        feedAndCheck(s, new int[] {s.octets().length});
        Random r = new Random(5044);
        for (int i = 0; i < 100; i++) {
            int[] cuts = new int[60];
            for (int k = 0; k < cuts.length; k++) {
                cuts[k] = 1 + r.nextInt(r.nextBoolean() ? 16 : 2000);
            }
            feedAndCheck(s, cuts);
        }
    }

    @Test
    @Requirement("MPA-23")
    @DisplayName("MPA-23: the Initiator decodes a Reply and FPDUs cut at every possible point")
    void initiatorSideEveryCut() {
        byte[] reply =
                StartupFrame.reply().crc(true).markers(false).revision(1).privateData(Bytes.ascii("ok")).toBytes();
        FpduFraming tx = new FpduFraming(true, false, 0);
        byte[] a = Bytes.pattern(300, 1);
        byte[] b = Bytes.pattern(45, 2);
        byte[] fpdus = Bytes.concat(tx.encode(a), tx.encode(b));
        for (int cut = 1; cut < fpdus.length; cut++) {
            StackProbe probe = new StackProbe().sendOnEstablished(Bytes.ascii("first"));
            EmbeddedChannel ch = Embedded.initiator(MpaConfig.builder().revision(1).build(), probe);
            Embedded.inboundInPieces(ch, reply, cut % reply.length == 0 ? 1 : cut % reply.length);
            Embedded.inboundInPieces(ch, fpdus, cut);
            assertThat(probe.ulpdus()).as("cut at %d", cut).containsExactly(a, b);
            assertThat(probe.all(Throwable.class)).isEmpty();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    @Requirement("MPA-23")
    @DisplayName("MPA-23: over a real socket, a Request and FPDUs sent in odd pieces are decoded")
    void oddPiecesOverSocket() {
        Stream s = initiatorStream();
        try (LoopbackStack stack = new LoopbackStack()) {
            LoopbackStack.Listener l = stack.responder(responderConfig());
            try (ScriptedPeer peer = ScriptedPeer.client(l.address())) {
                peer.sendInPieces(s.octets(), 1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
                        67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 509, 1021, 2039, 4093).start();
                peer.waitForScriptToComplete(StackProbe.WAIT);
                List<byte[]> got = l.probe().awaitUlpdus(30);
                for (int i = 0; i < 30; i++) {
                    assertThat(got.get(i)).isEqualTo(s.ulpdus().get(i));
                }
            }
        }
    }
}
