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
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.fpdu.Crc32c;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
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

/** Markers (RFC 5044 §4.2, §4.3, §7.1.1 M bit, §8). */
class MpaMarkerTest {

    /** The stack's wire for {@code n} random ULPDUs framed from stream offset {@code start}, and the ULPDUs. */
    private static List<byte[]> stackStream(int start, int n, long seed, ByteArrayOutputStream wire) {
        Random r = new Random(seed);
        FpduWriter w = new FpduWriter(true, true, 0xFFFF, start);
        List<byte[]> ulpdus = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] u = Bytes.random(r, r.nextInt(1800));
            ulpdus.add(u);
            wire.writeBytes(Bytes.drain(w.encode(Bytes.direct(u), Bytes.ALLOC)));
        }
        return ulpdus;
    }

    /**
     * MPA-14 (RFC 5044 §4.2): the marker RESERVED field is sent as 0 and ignored on receipt, but it is
     * CRC-covered. Every marker the stack writes has RESERVED 0; markers with RESERVED 0xA5A5 (and a CRC
     * over them) are accepted; changing RESERVED after the CRC was computed is a CRC error.
     */
    @Test
    @Requirement("MPA-14")
    @DisplayName("MPA-14: marker RESERVED is sent as 0, ignored on receipt, and CRC-covered")
    void reservedField() {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        stackStream(0, 60, 14, wire);
        List<DecodedFpdu> fpdus = new FpduFraming(true, true, 0).decodeAll(wire.toByteArray());
        assertThat(fpdus).hasSize(60);
        assertThat(fpdus.stream().flatMap(f -> f.markers().stream())).isNotEmpty()
                .allSatisfy(m -> assertThat(m.reserved()).isZero());

        byte[] ulpdu = Bytes.pattern(900, 5);
        StackProbe ok = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, true, 0, ok);
        Embedded.inbound(ch, new FpduFraming(true, true, 0).encode(ulpdu, FpduTamper.MARKER_RESERVED_BITS));
        assertThat(ok.ulpdus()).containsExactly(ulpdu);
        ch.finishAndReleaseAll();

        byte[] changedAfterCrc = new FpduFraming(true, true, 0).encode(ulpdu);
        changedAfterCrc[0] = 0x7F; // the leading marker's RESERVED
        StackProbe bad = new StackProbe();
        EmbeddedChannel ch2 = Codec.decoder(true, true, 0, bad);
        Embedded.inbound(ch2, changedAfterCrc);
        assertThat(bad.awaitMpaError().error()).isEqualTo(MpaError.CRC_ERROR);
        ch2.finishAndReleaseAll();
    }

    /**
     * MPA-15 (RFC 5044 §4.2, §4.3): FPDUPTR is the backward distance from the owning FPDU's ULPDU_Length
     * to the marker, its two low bits sent as 0 and treated as 0 on receipt. The stack's FPDUPTRs equal the
     * oracle's distances (low bits 0) over a long stream; FPDUPTRs with the low bits set are accepted; a
     * FPDUPTR off by 4 is a marker mismatch, 0x2/0x0/0x03.
     */
    @Test
    @Requirement("MPA-15")
    @DisplayName("MPA-15: FPDUPTR is the backward distance to ULPDU_Length; its low two bits are 0 / ignored")
    void fpduptr() {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        stackStream(0, 60, 15, wire);
        for (DecodedFpdu f : new FpduFraming(true, true, 0).decodeAll(wire.toByteArray())) {
            for (DecodedFpdu.Marker m : f.markers()) {
                assertThat(m.fpduptr()).as("%s", f).isEqualTo(m.expectedFpduptr());
                assertThat(m.fpduptr() & 3).isZero();
            }
        }
        byte[] ulpdu = Bytes.pattern(1300, 1);
        StackProbe ok = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, true, 0, ok);
        Embedded.inbound(ch, new FpduFraming(true, true, 0).encode(ulpdu, FpduTamper.MARKER_FPDUPTR_LOW_BITS));
        assertThat(ok.ulpdus()).containsExactly(ulpdu);
        ch.finishAndReleaseAll();

        StackProbe bad = new StackProbe();
        EmbeddedChannel ch2 = Codec.decoder(true, true, 0, bad);
        Embedded.inbound(ch2, new FpduFraming(true, true, 0).encode(ulpdu, FpduTamper.BAD_MARKER_FPDUPTR));
        assertThat(bad.awaitMpaError().error()).isEqualTo(MpaError.MARKER_MISMATCH);
        assertThat(bad.ulpdus()).isEmpty();
        ch2.finishAndReleaseAll();
    }

    /**
     * MPA-16, MPA-25 (RFC 5044 §4.3, §7.1.1): a sender is able to insert markers and does so whenever the
     * peer asked (M=1 in the Request binds the Responder, M=1 in the Reply binds the Initiator); M=0
     * forbids them. For all four M combinations the FPDUs each stack puts on the wire decode with the
     * oracle exactly as negotiated — with markers at every 512 octets where asked, without any where not —
     * and both stacks receive each other's ULPDUs.
     */
    @Test
    @Requirement({"MPA-16", "MPA-25"})
    @DisplayName("MPA-16, MPA-25: each side inserts markers exactly when the other side's frame had M=1")
    void markerNegotiation() {
        for (boolean mi : new boolean[] {false, true}) {
            for (boolean mr : new boolean[] {false, true}) {
                try (EmbeddedPair pair = new EmbeddedPair(MpaConfig.builder().markers(mi).build(),
                        MpaConfig.builder().markers(mr).build())) {
                    MpaParameters ip = pair.initiatorParameters();
                    MpaParameters rp = pair.responderParameters();
                    assertThat(ip.txMarkers()).isEqualTo(mr);
                    assertThat(rp.txMarkers()).isEqualTo(mi);
                    List<byte[]> toResponder = new ArrayList<>();
                    List<byte[]> toInitiator = new ArrayList<>();
                    Random r = new Random(25);
                    for (int i = 0; i < 20; i++) {
                        byte[] a = Bytes.random(r, r.nextInt(1400));
                        byte[] b = Bytes.random(r, r.nextInt(1400));
                        toResponder.add(a);
                        toInitiator.add(b);
                        Embedded.sendUlpdu(pair.initiator, a);
                        Embedded.sendUlpdu(pair.responder, b);
                        pair.pump();
                    }
                    checkWire(pair.initiatorToResponder(), ip.txSeqStartOffset(), mr, toResponder);
                    checkWire(pair.responderToInitiator(), rp.txSeqStartOffset(), mi, toInitiator);
                    assertThat(pair.responderProbe.ulpdus()).hasSize(20);
                    assertThat(pair.initiatorProbe.ulpdus()).hasSize(20);
                }
            }
        }
    }

    private static void checkWire(byte[] wire, int frameLength, boolean markers, List<byte[]> ulpdus) {
        byte[] fpduStream = Arrays.copyOfRange(wire, frameLength, wire.length);
        List<DecodedFpdu> fpdus = new FpduFraming(true, markers, 0).decodeAll(fpduStream);
        assertThat(fpdus).hasSize(ulpdus.size());
        int markerCount = 0;
        for (int i = 0; i < fpdus.size(); i++) {
            assertThat(fpdus.get(i).problems()).isEmpty();
            assertThat(fpdus.get(i).ulpdu()).isEqualTo(ulpdus.get(i));
            markerCount += fpdus.get(i).markers().size();
        }
        // markers at stream offsets 0, 512, 1024, … up to the end of the stream, and nowhere else
        assertThat(markerCount).isEqualTo(markers ? (fpduStream.length - 4 + 511) / 512 : 0);
    }

    /**
     * MPA-16, MPA-17 (RFC 5044 §4.3, §7.1.2 rule 7) over real sockets: the scripted peer asks for markers
     * (M=1 in its Reply) and checks that the stack's first octets of Full Operation are the FPDUPTR-0
     * marker, immediately followed by the first FPDU, and that further markers sit every 512 octets.
     */
    @Test
    @Requirement({"MPA-16", "MPA-17"})
    @DisplayName("MPA-16, MPA-17: asked for markers, the stack starts Full Operation with the FPDUPTR-0 marker "
            + "(socket)")
    void firstMarkerOverSocket() {
        byte[] big = Bytes.pattern(1400, 0);
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().withMarkers(false).respond(StartupFrame.reply().markers(true).crc(true))
                    .expectBytes(new byte[] {0, 0, 0, 0, 0x05, 0x78}, "the FPDUPTR-0 marker, then ULPDU_Length 1400")
                    .fullOperation(true, false, true, 0, 4 + 2 - 6) // the 6 octets above were consumed
                    .start();
            StackProbe p = stack.initiator(peer.address(), MpaConfig.builder().revision(1).build(),
                    new StackProbe().sendOnEstablished(big, big, big));
            peer.waitForScriptToComplete(StackProbe.WAIT);
            assertThat(p.awaitEstablished().parameters().txMarkers()).isTrue();
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); LoopbackStack stack = new LoopbackStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().markers(true).crc(true));
            for (int i = 0; i < 3; i++) {
                peer.expectFpdu().withUlpdu(big)
                        .matching(f -> f.markers().stream()
                                        .allMatch(m -> ((f.streamOffset() + m.position()) & 511) == 0)
                                && f.markers().size() == boundaries(f.streamOffset(), f.wire().length - 4),
                                "a marker at every stream offset ≡ 0 mod 512, nowhere else");
            }
            peer.start();
            stack.initiator(peer.address(), MpaConfig.builder().revision(1).build(),
                    new StackProbe().sendOnEstablished(big, big, big));
            peer.waitForScriptToComplete(StackProbe.WAIT);
        }
    }

    /** Stream offsets ≡ 0 (mod 512) among the 4-aligned offsets {@code start … start + length - 4}. */
    private static int boundaries(int start, int length) {
        int n = 0;
        for (int p = 0; p < length; p += 4) {
            if (((start + p) & 511) == 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * MPA-17 (RFC 5044 §4.3): markers start at every S with (S − SeqStart) mod 512 = 0, computed modulo
     * 2^32. The stack's writer, started a few octets before the 2^32 wrap of the stream offset, places the
     * markers exactly where the oracle does, octet for octet, across the wrap; and its reader accepts the
     * oracle's FPDUs there.
     */
    @Test
    @Requirement("MPA-17")
    @DisplayName("MPA-17: marker positions are computed modulo 2^32 (stream offset wrap)")
    void markerPositionsWrap() {
        for (int start : new int[] {-8, -512, -1024 + 12, -4}) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            List<byte[]> ulpdus = stackStream(start, 10, start, wire);
            FpduFraming oracle = new FpduFraming(true, true, start);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            ulpdus.forEach(u -> expected.writeBytes(oracle.encode(u)));
            assertThat(wire.toByteArray()).as("start %d", start).isEqualTo(expected.toByteArray());

            StackProbe probe = new StackProbe();
            EmbeddedChannel ch = Codec.decoder(true, true, start, probe);
            Embedded.inbound(ch, expected.toByteArray());
            assertThat(probe.ulpdus()).hasSize(10);
            ch.finishAndReleaseAll();
        }
    }

    /**
     * MPA-18 (RFC 5044 §4.3, §4.4): markers inside an FPDU point to that FPDU's ULPDU_Length; a marker that
     * falls between two FPDUs has FPDUPTR 0, belongs to the following FPDU and is covered by its CRC. The
     * stack reproduces golden vector mstream-i-05 (an FPDU starting on a 512 boundary) octet for octet; its
     * reader accepts the FPDU before it and reports the CRC error of the following FPDU, not of the
     * preceding one, when that leading marker is changed.
     */
    @Test
    @Requirement("MPA-18")
    @DisplayName("MPA-18: a marker between FPDUs has FPDUPTR 0 and belongs to (is CRC-covered by) the next FPDU")
    void markerBetweenFpdus() {
        GoldenVector before = GoldenVectors.named("mstream-i-04-send-244");
        GoldenVector at512 = GoldenVectors.named("mstream-i-05-read-request");
        assertThat(before.intField("stream_offset_end")).isEqualTo(at512.intField("stream_offset"));
        assertThat(at512.intField("stream_offset") % 512).isZero();
        assertThat(Codec.frame(true, true, at512.intField("stream_offset"), at512.hex("ulpdu_hex")))
                .isEqualTo(at512.bytes());
        assertThat(Arrays.copyOf(at512.bytes(), 4)).isEqualTo(new byte[4]);

        byte[] tampered = at512.bytes().clone();
        tampered[1] = 1; // RESERVED of the leading marker, CRC not recomputed
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, true, before.intField("stream_offset"), probe);
        Embedded.inbound(ch, Bytes.concat(before.bytes(), tampered));
        assertThat(probe.ulpdus()).containsExactly(before.hex("ulpdu_hex"));
        var e = probe.awaitMpaError();
        assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
        assertThat(e.streamOffset()).isEqualTo(at512.intField("stream_offset"));
        ch.finishAndReleaseAll();

        // every marker the stack writes points to its own FPDU's ULPDU_Length, at every 4-aligned start
        for (int off = 0; off < 1024; off += 4) {
            DecodedFpdu d = new FpduFraming(true, true, off).decode(Codec.frame(true, true, off, new byte[1030]));
            assertThat(d.markersValid()).as("offset %d", off).isTrue();
            assertThat(d.markers()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    /**
     * MPA-47 (RFC 5044 §8): the marker/ULPDU_Length consistency check should be made when a marker points
     * into an already located FPDU (in-order reception locates every FPDU by length first). The stack
     * checks every marker: in the two-marker golden FPDU mstream-i-07, a wrong FPDUPTR in the second
     * marker (CRC recomputed, so only the marker is wrong) is reported as 0x2/0x0/0x03. (The "gap filled"
     * case needs out-of-order reception, which a TCP-socket implementation never does: see MPA-46.)
     */
    @Test
    @Requirement("MPA-47")
    @DisplayName("MPA-47: every marker of a located FPDU is checked against ULPDU_Length")
    void everyMarkerIsChecked() {
        GoldenVector v = GoldenVectors.named("mstream-i-07-write-1100-two-markers");
        byte[] wire = v.bytes().clone();
        wire[1016 + 3] += 4; // second marker's FPDUPTR 1016 → 1020
        long crc = Crc32c.compute(Arrays.copyOf(wire, wire.length - 4));
        for (int i = 0; i < 4; i++) {
            wire[wire.length - 4 + i] = (byte) (crc >>> (8 * i));
        }
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, true, v.intField("stream_offset"), probe);
        Embedded.inbound(ch, wire);
        assertThat(probe.awaitMpaError().error()).isEqualTo(MpaError.MARKER_MISMATCH);
        assertThat(probe.ulpdus()).isEmpty();
        ch.finishAndReleaseAll();
    }
}
