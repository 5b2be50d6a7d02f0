package org.iwarp4j.conformance.mpa;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.Codec;
import org.iwarp4j.conformance.support.Embedded;
import org.iwarp4j.conformance.support.EmbeddedPair;
import org.iwarp4j.conformance.support.StackProbe;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.FpduTamper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The FPDU format (RFC 5044 §4.1, §5.2, §6): one ULPDU per FPDU, ULPDU_Length, PAD, the CRC field, and
 * how a receiver delimits FPDUs and when it may pass one up. The stack's writer and reader are measured
 * against the test peer's independent framing oracle ({@link FpduFraming}) and the golden vectors.
 */
class MpaFramingTest {

    private static MpaConfig markersCrc() {
        return MpaConfig.builder().markers(true).crc(true).build();
    }

    /**
     * MPA-01 (RFC 5044 §3): each FPDU carries exactly one ULPDU. Fifty ULPDUs of random sizes sent from
     * above MPA (markers and CRC on) appear on the wire as exactly fifty FPDUs, the k-th carrying the k-th
     * ULPDU, and the receiving stack passes up exactly those fifty ULPDUs.
     */
    @Test
    @Requirement("MPA-01")
    @DisplayName("MPA-01: every ULPDU sent travels as exactly one FPDU and is passed up as exactly one ULPDU")
    void oneUlpduPerFpdu() {
        Random r = new Random(1);
        try (EmbeddedPair pair = new EmbeddedPair(markersCrc(), markersCrc())) {
            int frame = pair.initiatorParameters().txSeqStartOffset();
            int mulpdu = pair.initiatorParameters().mulpdu();
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                byte[] u = Bytes.random(r, r.nextInt(mulpdu + 1));
                sent.add(u);
                Embedded.sendUlpdu(pair.initiator, u);
            }
            pair.pump();
            byte[] wire = pair.initiatorToResponder();
            List<DecodedFpdu> fpdus =
                    new FpduFraming(true, true, 0).decodeAll(Arrays.copyOfRange(wire, frame, wire.length));
            assertThat(fpdus).hasSize(50);
            List<byte[]> received = pair.responderProbe.ulpdus();
            assertThat(received).hasSize(50);
            for (int i = 0; i < 50; i++) {
                assertThat(fpdus.get(i).problems()).isEmpty();
                assertThat(fpdus.get(i).ulpdu()).isEqualTo(sent.get(i));
                assertThat(received.get(i)).isEqualTo(sent.get(i));
            }
        }
    }

    /**
     * MPA-01 / MPA-05 (RFC 5044 §3, §4.1): every golden FPDU is read as exactly one ULPDU of
     * ULPDU_Length octets, and nothing of the input is left over.
     */
    @Test
    @Requirement({"MPA-01", "MPA-05"})
    @DisplayName("MPA-01, MPA-05: every golden FPDU yields one ULPDU of exactly ULPDU_Length octets")
    void goldenFpdusYieldOneUlpduEach() {
        for (GoldenVector v : GoldenVectors.ofKind("fpdu", "fpdu-markers")) {
            boolean markers = v.kind().equals("fpdu-markers");
            FpduReader reader = new FpduReader(true, markers, Mulpdu.MAX, markers ? v.intField("stream_offset") : 0);
            ByteBuf in = Bytes.direct(v.bytes());
            try {
                byte[] ulpdu = Bytes.drain(reader.read(in, Bytes.ALLOC));
                assertThat(ulpdu).as(v.name()).hasSize(v.intField("ulpdu_length")).isEqualTo(v.hex("ulpdu_hex"));
                assertThat(in.isReadable()).as(v.name()).isFalse();
            } finally {
                in.release();
            }
        }
    }

    /**
     * MPA-05 (RFC 5044 §4.1): ULPDU_Length counts the ULPDU's octets only — not itself, PAD, CRC or
     * markers. Checked on the stack's own FPDUs for every ULPDU length 0…1100 at a stream offset where
     * markers fall inside the FPDU.
     */
    @Test
    @Requirement("MPA-05")
    @DisplayName("MPA-05: ULPDU_Length excludes the length field, PAD, CRC and markers")
    void ulpduLengthCountsTheUlpduOnly() {
        for (int len = 0; len <= 1100; len++) {
            int offset = 508 - 4 * (len % 100);
            byte[] wire = Codec.frame(true, true, offset, Bytes.pattern(len, len));
            DecodedFpdu d = new FpduFraming(true, true, offset).decode(wire);
            assertThat(d.ulpduLength()).isEqualTo(len);
            assertThat(wire.length).isEqualTo(2 + len + d.pad().length + 4 + 4 * d.markers().size());
        }
    }

    /**
     * MPA-06 (RFC 5044 §4.1): PAD is 0–3 octets so that 2 + ULPDU_Length + PAD is a multiple of 4, it is
     * sent as zeros, and the receiver ignores its value except for the CRC: an FPDU whose PAD is 0xFF
     * with a CRC over that PAD is accepted (with CRCs on and off); with a CRC computed over a zero PAD it
     * is a CRC error.
     */
    @Test
    @Requirement("MPA-06")
    @DisplayName("MPA-06: PAD aligns to 4, is sent as zeros and is ignored on receipt except by the CRC")
    void padding() {
        for (int len = 0; len < 12; len++) {
            byte[] wire = Codec.frame(true, false, 0, Bytes.pattern(len, 1));
            int pad = wire.length - 2 - len - 4;
            assertThat(pad).isBetween(0, 3);
            assertThat((2 + len + pad) % 4).isZero();
            assertThat(Arrays.copyOfRange(wire, 2 + len, 2 + len + pad)).isEqualTo(new byte[pad]);
        }
        byte[] ulpdu = Bytes.pattern(13, 0x40); // PAD 3
        for (boolean crc : new boolean[] {true, false}) {
            byte[] ffPad = new FpduFraming(crc, false, 0).encode(ulpdu, FpduTamper.NONZERO_PAD);
            assertThat(ffPad[2 + 13]).isEqualTo((byte) 0xFF);
            StackProbe probe = new StackProbe();
            EmbeddedChannel ch = Codec.decoder(crc, false, 0, probe);
            Embedded.inbound(ch, ffPad);
            assertThat(probe.ulpdus()).containsExactly(ulpdu);
            assertThat(probe.all(Throwable.class)).isEmpty();
            ch.finishAndReleaseAll();
        }
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, false, 0, probe);
        Embedded.inbound(ch, new FpduFraming(true, false, 0).encode(ulpdu, FpduTamper.NONZERO_PAD_UNCOVERED));
        assertThat(probe.ulpdus()).isEmpty();
        assertThat(probe.awaitMpaError().error()).isEqualTo(MpaError.CRC_ERROR);
        ch.finishAndReleaseAll();
    }

    /**
     * MPA-07 (RFC 5044 §4.1, §7.1.1): the CRC field is always present; with CRCs off its content is not
     * checked. The stack sends the 4 octets (zeros) with CRCs off; a receiver with CRCs off accepts any
     * value there; and two stacks that both send C=0 exchange FPDUs whose CRC field is never checked.
     */
    @Test
    @Requirement("MPA-07")
    @DisplayName("MPA-07: the CRC field is always present and not checked when CRCs are off")
    void crcFieldAlwaysPresent() {
        byte[] ulpdu = Bytes.pattern(10, 3);
        byte[] wire = Codec.frame(false, false, 0, ulpdu);
        assertThat(wire).hasSize(2 + 10 + 0 + 4);
        assertThat(Arrays.copyOfRange(wire, 12, 16)).isEqualTo(new byte[4]);

        MpaConfig noCrc = MpaConfig.builder().crc(false).build();
        try (EmbeddedPair pair = new EmbeddedPair(noCrc, noCrc)) {
            assertThat(pair.responderParameters().crc()).isFalse();
            // a FPDU with an arbitrary CRC field, injected below the Responder's MPA
            Embedded.sendUlpdu(pair.initiator, ulpdu); // the stack's own first FPDU (releases the hold)
            pair.pump();
            Embedded.inbound(pair.responder, new FpduFraming(false, false,
                    pair.initiatorToResponder().length - pair.initiatorParameters().txSeqStartOffset())
                    .encode(Bytes.pattern(7, 9), FpduTamper.BAD_CRC));
            assertThat(pair.responderProbe.ulpdus()).containsExactly(ulpdu, Bytes.pattern(7, 9));
            assertThat(pair.responderProbe.all(Throwable.class)).isEmpty();
        }
    }

    /**
     * MPA-19 (RFC 5044 §3, §4.3): the receiver keeps ULPDU boundaries and passes up each ULPDU without
     * markers, ULPDU_Length, PAD or CRC. Every golden marker FPDU, fed to the stack's decoder at its
     * stream offset, comes out as exactly its {@code ulpdu_hex}.
     */
    @Test
    @Requirement("MPA-19")
    @DisplayName("MPA-19: the decoder passes up each ULPDU alone, markers, length, PAD and CRC removed")
    void markersAndFramingAreStripped() {
        for (GoldenVector v : GoldenVectors.ofKind("fpdu-markers")) {
            StackProbe probe = new StackProbe();
            EmbeddedChannel ch = Codec.decoder(true, true, v.intField("stream_offset"), probe);
            Embedded.inbound(ch, v.bytes());
            assertThat(probe.ulpdus()).as(v.name()).containsExactly(v.hex("ulpdu_hex"));
            ch.finishAndReleaseAll();
        }
    }

    /**
     * MPA-40 (RFC 5044 §5.2, §6): receivers delimit FPDUs by ULPDU_Length. A stream of FPDUs whose
     * ULPDUs are full of octets that look like FPDU headers and markers (00 00 00 00, 00 2a …) is cut
     * exactly where the length fields say; with markers on, a marker is found only where the stream
     * offset puts one.
     */
    @Test
    @Requirement("MPA-40")
    @DisplayName("MPA-40: FPDUs are delimited by ULPDU_Length, whatever the ULPDUs contain")
    void delimitedByLength() {
        for (boolean markers : new boolean[] {false, true}) {
            FpduFraming tx = new FpduFraming(true, markers, 0);
            List<byte[]> ulpdus = new ArrayList<>();
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            for (int i = 0; i < 40; i++) {
                byte[] u = new byte[i * 37 % 700];
                for (int k = 0; k + 3 < u.length; k += 8) {
                    u[k + 1] = 0x2a; // "00 2a": looks like a ULPDU_Length of 42
                }
                ulpdus.add(u);
                stream.writeBytes(tx.encode(u));
            }
            StackProbe probe = new StackProbe();
            EmbeddedChannel ch = Codec.decoder(true, markers, 0, probe);
            Embedded.inbound(ch, stream.toByteArray());
            assertThat(probe.ulpdus()).hasSize(40);
            for (int i = 0; i < 40; i++) {
                assertThat(probe.ulpdus().get(i)).isEqualTo(ulpdus.get(i));
            }
            ch.finishAndReleaseAll();
        }
    }

    /**
     * MPA-41 (RFC 5044 §6): an FPDU goes up only once it is completely present and, with CRCs on, its
     * CRC verified. Fed one octet at a time, nothing goes up before the last octet; if that last octet
     * makes the CRC wrong, nothing goes up at all.
     */
    @Test
    @Requirement("MPA-41")
    @DisplayName("MPA-41: an FPDU is passed up only when complete and its CRC verified")
    void onlyCompleteVerifiedFpdus() {
        byte[] ulpdu = Bytes.pattern(600, 0);
        byte[] good = new FpduFraming(true, true, 0).encode(ulpdu);
        StackProbe probe = new StackProbe();
        EmbeddedChannel ch = Codec.decoder(true, true, 0, probe);
        for (int i = 0; i < good.length - 1; i++) {
            Embedded.inbound(ch, new byte[] {good[i]});
        }
        assertThat(probe.log()).isEmpty();
        Embedded.inbound(ch, new byte[] {good[good.length - 1]});
        assertThat(probe.ulpdus()).containsExactly(ulpdu);
        ch.finishAndReleaseAll();

        byte[] bad = good.clone();
        bad[bad.length - 1] ^= 0x10;
        StackProbe probe2 = new StackProbe();
        EmbeddedChannel ch2 = Codec.decoder(true, true, 0, probe2);
        Embedded.inboundInPieces(ch2, bad, bad.length - 1);
        assertThat(probe2.ulpdus()).isEmpty();
        MpaException e = probe2.awaitMpaError();
        assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
        ch2.finishAndReleaseAll();
    }
}
