package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code fpdu} and {@code fpdu-markers} vector (RFC 5044 §4.1–§4.4, Fig. 5/6) decodes to the
 * listed MPA fields through the reader and the dissector, and re-encodes to the exact octets at the
 * vector's stream offset.
 */
class FpduVectorTest {

    static List<GoldenVector> fpduVectors() {
        return GoldenVectors.ofKind("fpdu", "fpdu-markers");
    }

    private static boolean markers(GoldenVector v) {
        return v.kind().equals("fpdu-markers");
    }

    private static int streamOffset(GoldenVector v) {
        return markers(v) ? v.intField("stream_offset") : 0;
    }

    /** {@code markers:} as (index within hex, fpduptr) pairs. */
    private static List<int[]> listedMarkers(GoldenVector v) {
        List<int[]> out = new ArrayList<>();
        String s = v.has("markers") ? v.field("markers").trim() : "-";
        if (s.equals("-") || s.isEmpty()) {
            return out;
        }
        for (String m : s.split("\\s+")) {
            String[] p = m.split(":fpduptr=");
            out.add(new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])});
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fpduVectors")
    void readerDeliversTheUlpdu(GoldenVector v) {
        FpduReader reader = new FpduReader(true, markers(v), FpduLayout.MAX_ULPDU_LENGTH_FIELD, streamOffset(v));
        ByteBuf in = TestBuffers.direct(v.bytes());
        try {
            ByteBuf ulpdu = reader.read(in, TestBuffers.ALLOC);
            assertThat(ulpdu).isNotNull();
            assertThat(TestBuffers.drain(ulpdu)).isEqualTo(v.hex("ulpdu_hex"));
            assertThat(in.isReadable()).isFalse();
            assertThat(reader.lastUlpduLength()).isEqualTo(v.intField("ulpdu_length"));
            assertThat(reader.lastCrcField()).isEqualTo(v.number("crc32c_value"));
            assertThat(reader.lastMarkerCount()).isEqualTo(listedMarkers(v).size());
            assertThat(reader.streamOffset()).isEqualTo(streamOffset(v) + v.bytes().length);
        } finally {
            in.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fpduVectors")
    void dissectorListsEveryField(GoldenVector v) {
        FpduDissection d = new FpduDissector(true, markers(v), streamOffset(v)).dissect(v.bytes());
        assertThat(d.error()).isNull();
        assertThat(d.fpdus()).hasSize(1);
        DissectedFpdu f = d.fpdus().get(0);
        assertThat(f.error()).isNull();
        assertThat(f.inputOffset()).isZero();
        assertThat(f.wireLength()).isEqualTo(v.intField("length"));
        assertThat(f.ulpduLength()).isEqualTo(v.intField("ulpdu_length"));
        assertThat(f.padLength()).isEqualTo(v.intField("pad_length"));
        assertThat(f.crcField()).isEqualTo(v.number("crc32c_value"));
        assertThat(f.computedCrc()).isEqualTo(v.number("crc32c_value"));
        assertThat(f.crcValid()).isTrue();
        assertThat(f.crcCoveredLength()).isEqualTo(v.intField("crc_covered_octets"));
        assertThat(f.ulpdu()).isEqualTo(v.hex("ulpdu_hex"));
        List<int[]> listed = listedMarkers(v);
        assertThat(f.markers()).hasSize(listed.size());
        for (int i = 0; i < listed.size(); i++) {
            DissectedMarker m = f.markers().get(i);
            assertThat(m.fpduOffset()).isEqualTo(listed.get(i)[0]);
            assertThat(m.fpduptr()).isEqualTo(listed.get(i)[1]);
            assertThat(m.expectedFpduptr()).isEqualTo(listed.get(i)[1]);
            assertThat(m.reserved()).isZero();
            assertThat(m.valid()).isTrue();
        }
        // and the same octets with CRC checking off: not checked, still decoded
        DissectedFpdu off = new FpduDissector(false, markers(v), streamOffset(v)).dissect(v.bytes()).fpdus().get(0);
        assertThat(off.crcValid()).isNull();
        assertThat(off.ulpdu()).isEqualTo(v.hex("ulpdu_hex"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fpduVectors")
    void reEncodesToTheExactOctets(GoldenVector v) {
        byte[] ulpdu = v.hex("ulpdu_hex");
        FpduWriter writer = new FpduWriter(true, markers(v), FpduLayout.MAX_ULPDU_LENGTH_FIELD, streamOffset(v));
        ByteBuf fpdu = writer.encode(TestBuffers.direct(ulpdu), TestBuffers.ALLOC);
        assertThat(TestBuffers.drain(fpdu)).isEqualTo(v.bytes());
        assertThat(writer.lastCrc()).isEqualTo(v.number("crc32c_value"));
        assertThat(writer.streamOffset()).isEqualTo(streamOffset(v) + v.bytes().length);
        // as header + payload, split at every 7th position: same octets, no copy of the payload
        for (int split = 0; split <= ulpdu.length; split += 7) {
            FpduWriter w = new FpduWriter(true, markers(v), FpduLayout.MAX_ULPDU_LENGTH_FIELD, streamOffset(v));
            CompositeByteBuf out = TestBuffers.ALLOC.compositeBuffer(Integer.MAX_VALUE);
            ByteBuf header = TestBuffers.direct(Arrays.copyOfRange(ulpdu, 0, split));
            ByteBuf payload = TestBuffers.heap(Arrays.copyOfRange(ulpdu, split, ulpdu.length));
            w.write(header, payload, TestBuffers.ALLOC, (part, last) -> out.addComponent(true, part));
            assertThat(ByteBufUtil.getBytes(out)).as("split at %d", split).isEqualTo(v.bytes());
            out.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fpduVectors")
    void crcOffSendsZerosAndIsNotChecked(GoldenVector v) {
        FpduWriter w = new FpduWriter(false, markers(v), FpduLayout.MAX_ULPDU_LENGTH_FIELD, streamOffset(v));
        byte[] wire = TestBuffers.drain(w.encode(TestBuffers.direct(v.hex("ulpdu_hex")), TestBuffers.ALLOC));
        byte[] expected = v.bytes();
        Arrays.fill(expected, expected.length - 4, expected.length, (byte) 0);
        assertThat(wire).isEqualTo(expected);
        // RFC 5044 §4.1: with CRCs off any value is accepted
        byte[] garbage = v.bytes();
        garbage[garbage.length - 1] ^= 0x5a;
        FpduReader r = new FpduReader(false, markers(v), FpduLayout.MAX_ULPDU_LENGTH_FIELD, streamOffset(v));
        ByteBuf in = TestBuffers.direct(garbage);
        try {
            assertThat(TestBuffers.drain(r.read(in, TestBuffers.ALLOC))).isEqualTo(v.hex("ulpdu_hex"));
        } finally {
            in.release();
        }
    }
}
