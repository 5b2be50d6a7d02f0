package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The peer's framing oracle reproduces every golden FPDU and takes it apart again. */
class FpduFramingTest {

    static List<GoldenVector> plainFpdus() {
        return GoldenVectors.ofKind("fpdu");
    }

    static List<GoldenVector> markerFpdus() {
        return GoldenVectors.ofKind("fpdu-markers");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plainFpdus")
    void encodesAndDecodesEveryFpduWithoutMarkers(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        assertThat(new FpduFraming(true, false, 0).encode(ulpdu)).isEqualTo(v.bytes());
        FpduFraming rx = new FpduFraming(true, false, 0);
        assertThat(rx.headerPosition()).isZero();
        assertThat(rx.wireLength(ulpdu.length)).isEqualTo(v.intField("length"));
        DecodedFpdu d = rx.decode(v.bytes());
        assertThat(d.ulpdu()).isEqualTo(ulpdu);
        assertThat(d.pad()).isEqualTo(new byte[v.intField("pad_length")]);
        assertThat(d.crcField()).isEqualTo(v.number("crc32c_value"));
        assertThat(d.problems()).isEmpty();
        assertThat(rx.streamOffset()).isEqualTo(v.intField("length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("markerFpdus")
    void encodesAndDecodesEveryFpduWithMarkersAtItsStreamOffset(GoldenVector v) {
        int offset = v.intField("stream_offset");
        byte[] ulpdu = v.hex("ulpdu_hex");
        assertThat(new FpduFraming(true, true, offset).encode(ulpdu)).isEqualTo(v.bytes());
        FpduFraming rx = new FpduFraming(true, true, offset);
        DecodedFpdu d = rx.decode(v.bytes());
        assertThat(d.ulpdu()).isEqualTo(ulpdu);
        assertThat(d.problems()).isEmpty();
        List<String> markers = new ArrayList<>();
        for (DecodedFpdu.Marker m : d.markers()) {
            markers.add(m.position() + ":fpduptr=" + m.fpduptr());
        }
        String listed = v.field("markers").trim();
        assertThat(String.join(" ", markers)).isEqualTo(listed.equals("-") ? "" : listed);
        assertThat(rx.streamOffset()).isEqualTo(v.intField("stream_offset_end"));
    }

    @Test
    void wireLengthAgreesWithEncodingForAnyOffsetAndLength() {
        Random r = new Random(5044);
        for (int i = 0; i < 2000; i++) {
            int offset = r.nextInt() & ~3;
            int len = r.nextInt(3000);
            FpduFraming f = new FpduFraming(true, true, offset);
            int predicted = f.wireLength(len);
            byte[] wire = f.encode(new byte[len]);
            assertThat(wire).hasSize(predicted);
            DecodedFpdu d = new FpduFraming(true, true, offset).decode(wire);
            assertThat(d.problems()).isEmpty();
            // RFC 5044 §4.3: a marker at every stream offset ≡ 0 (mod 512), modulo 2^32
            for (DecodedFpdu.Marker m : d.markers()) {
                assertThat((offset + m.position()) & 511).isZero();
            }
            int expectedMarkers = 0;
            for (int p = 0; p < wire.length - 4; p += 4) {
                if (((offset + p) & 511) == 0) {
                    expectedMarkers++;
                }
            }
            assertThat(d.markers()).hasSize(expectedMarkers);
        }
    }

    @Test
    void markerStreamWrapsAroundTwoToTheThirtyTwo() {
        FpduFraming f = new FpduFraming(true, true, -8); // 8 octets before the 2^32 boundary
        byte[] wire = f.encode(new byte[30]);
        DecodedFpdu d = new FpduFraming(true, true, -8).decode(wire);
        assertThat(d.markers()).extracting(DecodedFpdu.Marker::position).containsExactly(8);
        assertThat(d.markers().get(0).fpduptr()).isEqualTo(8);
        assertThat(f.streamOffset()).isEqualTo(-8 + wire.length);
    }

    @Test
    void tampersBreakExactlyWhatTheySay() {
        byte[] ulpdu = new byte[601]; // crosses a marker at stream offset 512, PAD 1
        Arrays.fill(ulpdu, (byte) 7);
        assertThat(decode(ulpdu, FpduTamper.NONE).problems()).isEmpty();
        DecodedFpdu badCrc = decode(ulpdu, FpduTamper.BAD_CRC);
        assertThat(badCrc.crcValid()).isFalse();
        assertThat(badCrc.markersValid()).isTrue();
        DecodedFpdu badMarker = decode(ulpdu, FpduTamper.BAD_MARKER_FPDUPTR);
        assertThat(badMarker.crcValid()).isTrue();
        assertThat(badMarker.markersValid()).isFalse();
        DecodedFpdu lowBits = decode(ulpdu, FpduTamper.MARKER_FPDUPTR_LOW_BITS);
        assertThat(lowBits.problems()).isEmpty();
        assertThat(lowBits.markers()).allSatisfy(m -> assertThat(m.fpduptr() & 3).isEqualTo(3));
        DecodedFpdu reserved = decode(ulpdu, FpduTamper.MARKER_RESERVED_BITS);
        assertThat(reserved.problems()).isEmpty();
        assertThat(reserved.markers()).allSatisfy(m -> assertThat(m.reserved()).isEqualTo(0xA5A5));
        DecodedFpdu pad = decode(ulpdu, FpduTamper.NONZERO_PAD);
        assertThat(pad.problems()).isEmpty();
        assertThat(pad.pad()).containsExactly(0xFF);
        DecodedFpdu uncovered = decode(ulpdu, FpduTamper.NONZERO_PAD_UNCOVERED);
        assertThat(uncovered.crcValid()).isFalse();
        assertThat(uncovered.crcField()).isEqualTo(decode(ulpdu, FpduTamper.NONE).crcField());
        assertThatThrownBy(() -> new FpduFraming(true, false, 0).encode(ulpdu, FpduTamper.BAD_MARKER_FPDUPTR))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void withoutCrcTheFieldIsZeroAndNotJudged() {
        byte[] wire = new FpduFraming(false, false, 0).encode(new byte[5]);
        assertThat(Arrays.copyOfRange(wire, wire.length - 4, wire.length)).containsOnly(0);
        byte[] bad = new FpduFraming(false, false, 0).encode(new byte[5], FpduTamper.BAD_CRC);
        assertThat(new FpduFraming(false, false, 0).decode(bad).problems()).isEmpty();
    }

    @Test
    void streamDecoderTakesAnySplit() {
        FpduFraming tx = new FpduFraming(true, true, 0);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<byte[]> ulpdus = new ArrayList<>();
        Random r = new Random(1);
        for (int i = 0; i < 30; i++) {
            byte[] u = new byte[r.nextInt(700)];
            r.nextBytes(u);
            ulpdus.add(u);
            all.writeBytes(tx.encode(u));
        }
        byte[] stream = all.toByteArray();
        FpduStreamDecoder d = new FpduStreamDecoder(new FpduFraming(true, true, 0));
        List<byte[]> got = new ArrayList<>();
        for (int at = 0; at < stream.length; ) {
            int n = Math.min(stream.length - at, 1 + r.nextInt(97));
            d.feed(Arrays.copyOfRange(stream, at, at + n)).forEach(f -> got.add(f.ulpdu()));
            at += n;
        }
        assertThat(got).hasSize(ulpdus.size());
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i)).isEqualTo(ulpdus.get(i));
        }
        assertThat(d.pendingOctets()).isZero();
    }

    private static DecodedFpdu decode(byte[] ulpdu, FpduTamper tamper) {
        byte[] wire = new FpduFraming(true, true, 0).encode(ulpdu, tamper);
        return new FpduFraming(true, true, 0).decode(wire);
    }
}
