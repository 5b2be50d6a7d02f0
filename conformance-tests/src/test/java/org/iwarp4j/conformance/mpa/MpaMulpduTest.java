package org.iwarp4j.conformance.mpa;

import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.MpaLlp;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

/** MULPDU (RFC 5044 §3, §4.5, §5.1): computed, clamped, reported to DDP, enforced. */
class MpaMulpduTest {

    private static MpaConfig emss(int emss, boolean markers) {
        return MpaConfig.builder().emss(emss).markers(markers).build();
    }

    /**
     * MPA-02 (RFC 5044 §3): MPA tells DDP the current MULPDU and DDP keeps every ULPDU within it. The
     * Full Operation event reports MULPDU (EMSS 1460, markers asked by the peer: 1442); the send path
     * refuses a larger ULPDU (the write fails, nothing reaches the wire); and a DDP sender fed that MULPDU
     * cuts a 10,000-octet message into FPDUs no larger than it.
     */
    @Test
    @Requirement("MPA-02")
    @DisplayName("MPA-02: MPA reports MULPDU to DDP, refuses larger ULPDUs, and DDP segments within it")
    void mulpduIsReportedAndHonoured() {
        try (EmbeddedPair pair = new EmbeddedPair(emss(1460, false), emss(1460, true))) {
            MpaEstablishedEvent e = pair.initiatorProbe.awaitEstablished();
            assertThat(e.parameters().txMarkers()).isTrue();
            assertThat(e.parameters().mulpdu()).isEqualTo(1442);
            assertThat(e.sender().mulpdu()).isEqualTo(1442);

            ChannelFuture tooBig = Embedded.sendUlpdu(pair.initiator, new byte[1443]);
            assertThat(tooBig.cause()).isInstanceOf(IllegalArgumentException.class);
            int before = pair.pump().initiatorToResponder().length;
            assertThat(before).isEqualTo(e.parameters().txSeqStartOffset());

            MpaLlp llp = new MpaLlp(e.sender(), pair.initiator);
            DdpSender ddp = new DdpSender(llp, Bytes.ALLOC, 3);
            byte[] message = Bytes.pattern(10_000, 7);
            ddp.untagged(0, 0x43, 0, Bytes.direct(message)).writeAll();
            llp.flush();
            pair.pump();
            assertThat(llp.writes()).allMatch(ChannelFuture::isSuccess);
            byte[] wire = pair.initiatorToResponder();
            List<DecodedFpdu> fpdus =
                    new FpduFraming(true, true, 0).decodeAll(Arrays.copyOfRange(wire, before, wire.length));
            assertThat(fpdus).hasSize((10_000 + (1442 - 18) - 1) / (1442 - 18));
            assertThat(fpdus).allSatisfy(f -> assertThat(f.ulpduLength()).isLessThanOrEqualTo(1442));
            assertThat(pair.responderProbe.ulpdus()).hasSize(fpdus.size());
        }
    }

    /**
     * MPA-03 (RFC 5044 §3): MULPDU is never below 128 nor above 64768 — for every EMSS from 1 to 10^6,
     * with and without markers, and as reported by a connection configured with a tiny or a huge EMSS.
     */
    @Test
    @Requirement("MPA-03")
    @DisplayName("MPA-03: MULPDU always lies within 128…64768")
    void mulpduBounds() {
        qt().withExamples(2000).forAll(integers().between(1, 1_000_000), booleans().all())
                .checkAssert((e, m) -> assertThat(Mulpdu.of(e, m)).isBetween(128, 64768));
        assertThat(reportedMulpdu(40, false)).isEqualTo(128);
        assertThat(reportedMulpdu(40, true)).isEqualTo(128);
        assertThat(reportedMulpdu(1_000_000, false)).isEqualTo(64768);
        assertThat(reportedMulpdu(1_000_000, true)).isEqualTo(64768);
    }

    private static int reportedMulpdu(int emss, boolean peerWantsMarkers) {
        try (EmbeddedPair pair = new EmbeddedPair(emss(emss, false), emss(emss, peerWantsMarkers))) {
            MpaParameters p = pair.initiatorParameters();
            assertThat(pair.initiatorProbe.awaitEstablished().sender().mulpdu()).isEqualTo(p.mulpdu());
            return p.mulpdu();
        }
    }

    /**
     * MPA-04 (RFC 5044 §3): no ULPDU longer than 64768 octets is handed to MPA. The stack's FPDU writer
     * at the largest MULPDU refuses 64769 octets (releasing the buffer), and a DDP sender over a
     * connection whose EMSS would allow more never produces a segment above 64768.
     */
    @Test
    @Requirement("MPA-04")
    @DisplayName("MPA-04: no ULPDU above 64768 octets is ever framed")
    void noUlpduAbove64768() {
        FpduWriter w = new FpduWriter(true, false, Mulpdu.MAX, 0);
        var big = Bytes.direct(new byte[64769]);
        assertThatThrownBy(() -> w.encode(big, Bytes.ALLOC)).isInstanceOf(IllegalArgumentException.class);
        assertThat(big.refCnt()).isZero();
        Bytes.drain(w.encode(Bytes.direct(new byte[64768]), Bytes.ALLOC));

        try (EmbeddedPair pair = new EmbeddedPair(emss(1_000_000, false), emss(1_000_000, false))) {
            MpaEstablishedEvent e = pair.initiatorProbe.awaitEstablished();
            int before = pair.initiatorToResponder().length;
            MpaLlp llp = new MpaLlp(e.sender(), pair.initiator);
            new DdpSender(llp, Bytes.ALLOC, 3).tagged(0x40, 0x1234, 0, Bytes.direct(new byte[200_000])).writeAll();
            llp.flush();
            pair.pump();
            byte[] wire = pair.initiatorToResponder();
            List<DecodedFpdu> fpdus =
                    new FpduFraming(true, false, 0).decodeAll(Arrays.copyOfRange(wire, before, wire.length));
            assertThat(fpdus).hasSize(4);
            assertThat(fpdus).allSatisfy(f -> assertThat(f.ulpduLength()).isLessThanOrEqualTo(64768));
            assertThat(fpdus.get(0).ulpduLength()).isEqualTo(64768);
        }
    }

    /**
     * MPA-20 (RFC 5044 §4.5): MULPDU follows the §4.5 formula with and without markers (golden table
     * {@code mpa/mulpdu-table}); DDP should use ULPDUs as large as MULPDU allows — every segment of a
     * DDP message but the last is exactly MULPDU.
     */
    @Test
    @Requirement("MPA-20")
    @DisplayName("MPA-20: MULPDU follows the §4.5 formula and DDP fills it")
    void formulaAndFullSegments() {
        for (String entry : GoldenVectors.named("mulpdu-table").field("entries").trim().split("\\s+")) {
            String[] f = entry.split(":");
            int emss = Integer.parseInt(f[0]);
            assertThat(Mulpdu.formula(emss, false)).as("EMSS %d", emss).isEqualTo(Integer.parseInt(f[1]));
            assertThat(Mulpdu.formula(emss, true)).as("EMSS %d markers", emss).isEqualTo(Integer.parseInt(f[2]));
            assertThat(Mulpdu.of(emss, false)).isEqualTo(Math.max(128, Math.min(64768, Integer.parseInt(f[1]))));
        }
        try (EmbeddedPair pair = new EmbeddedPair(emss(9000, false), emss(9000, true))) {
            MpaEstablishedEvent e = pair.initiatorProbe.awaitEstablished();
            assertThat(e.sender().mulpdu()).isEqualTo(8922);
            int before = pair.initiatorToResponder().length;
            MpaLlp llp = new MpaLlp(e.sender(), pair.initiator);
            new DdpSender(llp, Bytes.ALLOC, 3).untagged(0, 0x43, 0, Bytes.direct(new byte[30_000])).writeAll();
            llp.flush();
            pair.pump();
            byte[] wire = pair.initiatorToResponder();
            List<DecodedFpdu> fpdus =
                    new FpduFraming(true, true, 0).decodeAll(Arrays.copyOfRange(wire, before, wire.length));
            for (int i = 0; i < fpdus.size() - 1; i++) {
                assertThat(fpdus.get(i).ulpduLength()).isEqualTo(8922);
            }
            assertThat(fpdus.get(fpdus.size() - 1).ulpduLength()).isEqualTo(30_000 - 3 * (8922 - 18) + 18);
        }
    }

    /**
     * MPA-21 (RFC 5044 §4.5): when EMSS is under 128 (the formula gives less than 128, e.g. 122/118 at
     * EMSS 128 in the golden table), MPA still reports 128, and a 128-octet ULPDU is framed and delivered.
     */
    @Test
    @Requirement("MPA-21")
    @DisplayName("MPA-21: a small EMSS still yields MULPDU 128")
    void smallEmss() {
        assertThat(Mulpdu.formula(128, false)).isEqualTo(122);
        assertThat(Mulpdu.of(128, false)).isEqualTo(128);
        assertThat(Mulpdu.of(128, true)).isEqualTo(128);
        for (int e = 1; e < 134; e++) {
            assertThat(Mulpdu.of(e, true)).isEqualTo(128);
        }
        try (EmbeddedPair pair = new EmbeddedPair(emss(64, false), emss(64, true))) {
            assertThat(pair.initiatorParameters().mulpdu()).isEqualTo(128);
            assertThat(Embedded.sendUlpdu(pair.initiator, Bytes.pattern(128, 0)).isSuccess()).isTrue();
            pair.pump();
            assertThat(pair.responderProbe.ulpdus()).containsExactly(Bytes.pattern(128, 0));
        }
    }

    /**
     * MPA-22 (RFC 5044 §5.1, SHOULD/MAY): senders should start TCP segments on FPDU boundaries and may pack
     * several complete FPDUs into one. What the stack controls: (a) with MULPDU computed from EMSS, an FPDU
     * carrying a full-MULPDU ULPDU fits into one EMSS-sized segment at every stream offset, markers or not;
     * (b) FPDUs are written whole — every flush ends on an FPDU boundary, and several FPDUs written before
     * one flush go out back to back, complete. (How the kernel cuts TCP segments is not visible to Java.)
     */
    @Test
    @Requirement("MPA-22")
    @DisplayName("MPA-22: a full-MULPDU FPDU fits one EMSS segment; flushes end on FPDU boundaries")
    void fpduAlignment() {
        for (int emss : new int[] {536, 1448, 1460, 8960, 9000}) {
            for (boolean m : new boolean[] {false, true}) {
                int mulpdu = Mulpdu.of(emss, m);
                for (int off = 0; off < 2048; off += 4) {
                    assertThat(FpduLayout.wireLength(off, mulpdu, m)).as("EMSS %d markers %s offset %d", emss, m, off)
                            .isLessThanOrEqualTo(emss);
                }
            }
        }
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Embedded.responder(MpaConfig.builder().revision(1).build(), probe);
        Embedded.inbound(ch, StartupFrame.request().crc(true).markers(true).toBytes());
        int frame = Embedded.outbound(ch).length;
        Embedded.inbound(ch, new FpduFraming(true, false, 0).encode(new byte[20])); // releases the Responder hold
        FpduStreamDecoder oracle = new FpduStreamDecoder(new FpduFraming(true, true, 0));
        for (int batch = 1; batch <= 8; batch++) {
            for (int k = 0; k < batch; k++) {
                ch.write(Bytes.direct(Bytes.pattern(100 * batch + k, k)));
            }
            ch.flush();
            assertThat(oracle.feed(Embedded.outbound(ch))).hasSize(batch);
            assertThat(oracle.pendingOctets()).as("flush ends on an FPDU boundary").isZero();
        }
        assertThat(frame).isEqualTo(20);
        ch.finishAndReleaseAll();
    }
}
