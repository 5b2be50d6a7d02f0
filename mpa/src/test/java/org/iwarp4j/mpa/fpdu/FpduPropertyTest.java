package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/** Property tests of the FPDU codec (RFC 5044 §4.1–§4.4, §6, §8). */
class FpduPropertyTest {

    /** Reference marker placement: the byte-by-byte algorithm of docs/protocol/mpa.md §4.3 (iwarpgen.py). */
    static byte[] referenceEncode(int streamOffset, byte[] ulpdu) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = streamOffset;
        if ((pos & 511) == 0) {
            out.writeBytes(new byte[] {0, 0, 0, 0});
            pos += 4;
        }
        int hdr = pos;
        int pad = (4 - (2 + ulpdu.length) % 4) % 4;
        byte[] content = new byte[2 + ulpdu.length + pad];
        content[0] = (byte) (ulpdu.length >> 8);
        content[1] = (byte) ulpdu.length;
        System.arraycopy(ulpdu, 0, content, 2, ulpdu.length);
        for (int i = 0; i < content.length; i++) {
            if (i > 0 && (pos & 511) == 0) {
                int p = pos - hdr;
                out.writeBytes(new byte[] {0, 0, (byte) (p >> 8), (byte) p});
                pos += 4;
            }
            out.write(content[i]);
            pos++;
        }
        if ((pos & 511) == 0) {
            int p = pos - hdr;
            out.writeBytes(new byte[] {0, 0, (byte) (p >> 8), (byte) p});
        }
        byte[] covered = out.toByteArray();
        long crc = Crc32c.compute(covered);
        out.writeBytes(new byte[] {(byte) crc, (byte) (crc >> 8), (byte) (crc >> 16), (byte) (crc >> 24)});
        return out.toByteArray();
    }

    static byte[] randomBytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static byte[] encode(boolean crc, boolean markers, int off, byte[] ulpdu, int split) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FpduWriter w = new FpduWriter(crc, markers, 65535, off);
        w.write(TestBuffers.direct(Arrays.copyOf(ulpdu, split)),
                TestBuffers.heap(Arrays.copyOfRange(ulpdu, split, ulpdu.length)), TestBuffers.ALLOC,
                (part, last) -> {
                    out.writeBytes(ByteBufUtil.getBytes(part));
                    part.release();
                });
        return out.toByteArray();
    }

    /** Offsets near 0, near 2^32 (TCP wrap) and anywhere, all 4-aligned. */
    static org.quicktheories.core.Gen<Integer> offsets() {
        return integers().between(-4096, 4096).mix(integers().all(), 50).map(i -> i & ~3);
    }

    @Test
    void markerPositionsAndFpduptrsFollowSection43ForEveryOffset() {
        qt().withExamples(400).forAll(offsets(), integers().between(0, 3000), longs().all())
                .checkAssert((off, len, seed) -> {
                    byte[] ulpdu = randomBytes(seed, len);
                    byte[] expected = referenceEncode(off, ulpdu);
                    assertThat(encode(true, true, off, ulpdu, len / 3)).isEqualTo(expected);
                    assertThat(FpduLayout.wireLength(off, len, true)).isEqualTo(expected.length);
                    // every marker sits at a 512 boundary and points back to ULPDU_Length
                    DissectedFpdu d = new FpduDissector(true, true, off).dissect(expected).fpdus().get(0);
                    for (DissectedMarker m : d.markers()) {
                        assertThat((off + m.fpduOffset()) & 511).isZero();
                        assertThat(m.valid()).isTrue();
                    }
                    assertThat(d.ulpdu()).isEqualTo(ulpdu);
                });
    }

    @Test
    void roundTripAnyUlpduOffsetCrcAndMarkers() {
        qt().withExamples(300).forAll(offsets(), integers().between(0, 64768), integers().between(0, 3), longs().all())
                .checkAssert((off, len0, flags, seed) -> {
                    int len = seed % 4 == 0 ? len0 : len0 % 2048;
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    byte[] ulpdu = randomBytes(seed, len);
                    byte[] wire = encode(crc, markers, off, ulpdu, (int) Math.floorMod(seed, len + 1));
                    FpduReader r = new FpduReader(crc, markers, 64768, off);
                    ByteBuf in = TestBuffers.direct(wire);
                    try {
                        assertThat(TestBuffers.drain(r.read(in, TestBuffers.ALLOC))).isEqualTo(ulpdu);
                        assertThat(in.isReadable()).isFalse();
                        assertThat(r.streamOffset()).isEqualTo(off + wire.length);
                    } finally {
                        in.release();
                    }
                });
    }

    @Test
    void anySplitOfAStreamDecodesIdentically() {
        qt().withExamples(60).forAll(offsets(), integers().between(1, 12), integers().between(0, 3), longs().all())
                .checkAssert((off, count, flags, seed) -> {
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    Random rnd = new Random(seed);
                    List<byte[]> ulpdus = new ArrayList<>();
                    ByteArrayOutputStream stream = new ByteArrayOutputStream();
                    int o = off;
                    for (int i = 0; i < count; i++) {
                        byte[] u = randomBytes(rnd.nextLong(), rnd.nextInt(1500));
                        ulpdus.add(u);
                        byte[] f = encode(crc, markers, o, u, u.length / 2);
                        o += f.length;
                        stream.writeBytes(f);
                    }
                    byte[] all = stream.toByteArray();
                    // chunks of random sizes, fed to one reader through a cumulation buffer
                    FpduReader r = new FpduReader(crc, markers, 64768, off);
                    ByteBuf cum = TestBuffers.ALLOC.directBuffer();
                    List<byte[]> got = new ArrayList<>();
                    try {
                        int p = 0;
                        while (p < all.length) {
                            int n = Math.min(all.length - p, 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 700));
                            cum.writeBytes(all, p, n);
                            p += n;
                            ByteBuf u;
                            while ((u = r.read(cum, TestBuffers.ALLOC)) != null) {
                                got.add(TestBuffers.drain(u));
                            }
                            // never more than one incomplete FPDU buffered
                            assertThat(cum.readableBytes()).isLessThan(r.maxFpduWireLength());
                            cum.discardReadBytes();
                        }
                        assertThat(cum.isReadable()).isFalse();
                    } finally {
                        cum.release();
                    }
                    assertThat(got).hasSize(ulpdus.size());
                    for (int i = 0; i < got.size(); i++) {
                        assertThat(got.get(i)).isEqualTo(ulpdus.get(i));
                    }
                });
    }

    @Test
    void everySingleBitFlipWithCrcOnIsAnErrorNeverADelivery() {
        qt().withExamples(40).forAll(offsets(), integers().between(0, 1200), integers().between(0, 1), longs().all())
                .checkAssert((off, len, m, seed) -> {
                    boolean markers = m == 1;
                    byte[] wire = encode(true, markers, off, randomBytes(seed, len), 0);
                    for (int bit = 0; bit < wire.length * 8; bit++) {
                        byte[] flipped = wire.clone();
                        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
                        FpduReader r = new FpduReader(true, markers, 65535, off);
                        ByteBuf in = TestBuffers.heap(flipped);
                        try {
                            ByteBuf u = r.read(in, TestBuffers.ALLOC);
                            // a flip in ULPDU_Length may make the FPDU look longer: incomplete, nothing delivered
                            assertThat(u).as("bit %d delivered", bit).isNull();
                        } catch (MpaException e) {
                            assertThat(e.error()).isIn(MpaError.CRC_ERROR, MpaError.MARKER_MISMATCH);
                            assertThat(r.failed()).isTrue();
                        } finally {
                            in.release();
                        }
                    }
                });
    }

    @Test
    void fpduptrLowBitsAndReservedAreIgnored() {
        byte[] wire = referenceEncode(492, randomBytes(7, 42)); // marker inside, FPDUPTR 20 (RFC 5044 Fig. 6)
        wire[20 + 3] |= 0x03; // low two bits of FPDUPTR
        wire[20] = 0x7f; // RESERVED
        // CRC off: the marker check alone decides
        FpduReader r = new FpduReader(false, true, 65535, 492);
        ByteBuf in = TestBuffers.heap(wire);
        try {
            assertThat(TestBuffers.drain(r.read(in, TestBuffers.ALLOC))).isEqualTo(randomBytes(7, 42));
        } finally {
            in.release();
        }
        wire[20 + 3] = 0x18; // FPDUPTR 24: wrong
        FpduReader r2 = new FpduReader(false, true, 65535, 492);
        ByteBuf in2 = TestBuffers.heap(wire);
        try {
            r2.read(in2, TestBuffers.ALLOC);
            throw new AssertionError("expected 0x03");
        } catch (MpaException e) {
            assertThat(e.error()).isEqualTo(MpaError.MARKER_MISMATCH);
            assertThat(e.streamOffset()).isEqualTo(492);
        } finally {
            in2.release();
        }
    }

    @Test
    void randomBytesNeverEscapeLeakOrOverBuffer() {
        qt().withExamples(300).forAll(longs().all(), integers().between(0, 3), integers().between(128, 65535))
                .checkAssert((seed, flags, limit) -> {
                    Random rnd = new Random(seed);
                    byte[] junk = new byte[rnd.nextInt(4000)];
                    rnd.nextBytes(junk);
                    FpduReader r = new FpduReader((flags & 1) != 0, (flags & 2) != 0, limit, rnd.nextInt() & ~3);
                    ByteBuf in = TestBuffers.direct(junk);
                    try {
                        ByteBuf u;
                        while ((u = r.read(in, TestBuffers.ALLOC)) != null) {
                            assertThat(u.readableBytes()).isLessThanOrEqualTo(limit);
                            u.release();
                        }
                        assertThat(in.readableBytes()).isLessThan(r.maxFpduWireLength());
                    } catch (MpaException e) {
                        assertThat(e.error()).isIn(MpaError.CRC_ERROR, MpaError.MARKER_MISMATCH);
                    } finally {
                        in.release();
                    }
                });
    }

    @Test
    void ulpduLengthAboveTheLimitFailsBeforeBuffering() {
        FpduReader r = new FpduReader(true, false, 1024, 0);
        ByteBuf in = TestBuffers.heap(new byte[] {(byte) 0xff, (byte) 0xf0}); // 65520, only 2 octets present
        try {
            r.read(in, TestBuffers.ALLOC);
            throw new AssertionError("expected an error");
        } catch (MpaException e) {
            assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
            assertThat(e.getMessage()).contains("65520");
        } finally {
            in.release();
        }
        assertThat(r.failed()).isTrue();
    }
}
