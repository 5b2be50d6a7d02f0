package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * Framing in the room around a header ({@link FpduWriter#write(ByteBuf, ByteBuf, io.netty.buffer.ByteBufAllocator,
 * FpduWriter.PartSink, boolean)}): the octets on the wire are those of RFC 5044 §4.1–§4.4 whatever room the
 * header has, and a ULPDU without payload and with room on both sides is one part.
 */
class FpduWriterInPlaceTest {

    /** What one write produced: the octets in order and how many parts carried them. */
    private record Written(byte[] octets, int parts, List<Boolean> lastFlags) {}

    private static Written write(FpduWriter w, byte[] ulpdu, int split, int headroom, int tailroom,
            boolean headerRoom) {
        ByteBuf header = TestBuffers.ALLOC.directBuffer(headroom + split + tailroom);
        header.writerIndex(headroom).readerIndex(headroom);
        header.writeBytes(ulpdu, 0, split);
        ByteBuf payload =
                split == ulpdu.length ? null : TestBuffers.heap(Arrays.copyOfRange(ulpdu, split, ulpdu.length));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Boolean> last = new ArrayList<>();
        w.write(header, payload, TestBuffers.ALLOC, (part, isLast) -> {
            out.writeBytes(ByteBufUtil.getBytes(part));
            last.add(isLast);
            part.release();
        }, headerRoom);
        return new Written(out.toByteArray(), last.size(), last);
    }

    /** RFC 5044 §4.1–§4.4 octet by octet: the reference encoding with markers, the plain FPDU without. */
    static byte[] expected(boolean crc, boolean markers, int off, byte[] ulpdu) {
        byte[] fpdu;
        if (markers) {
            fpdu = FpduPropertyTest.referenceEncode(off, ulpdu);
        } else {
            fpdu = new byte[FpduLayout.plainLength(ulpdu.length)];
            fpdu[0] = (byte) (ulpdu.length >> 8);
            fpdu[1] = (byte) ulpdu.length;
            System.arraycopy(ulpdu, 0, fpdu, 2, ulpdu.length);
            long c = Crc32c.compute(Arrays.copyOf(fpdu, fpdu.length - 4));
            for (int i = 0; i < 4; i++) {
                fpdu[fpdu.length - 4 + i] = (byte) (c >> (8 * i));
            }
        }
        if (!crc) {
            Arrays.fill(fpdu, fpdu.length - 4, fpdu.length, (byte) 0); // RFC 5044 §4.1: the field is sent as zeros
        }
        return fpdu;
    }

    @Test
    void anyRoomAnyOffsetGivesTheReferenceOctets() {
        qt().withExamples(400).forAll(FpduPropertyTest.offsets(), integers().between(0, 1600),
                integers().between(0, 63), longs().all()).checkAssert((off, len, flags, seed) -> {
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    int headroom = (flags >> 2) & 7;   // 0..7: below, at and above what a prefix needs
                    int tailroom = (flags >> 5) * 12; // 0 or 12 (the most a trailer needs is 11)
                    byte[] ulpdu = FpduPropertyTest.randomBytes(seed, len);
                    int split = seed % 3 == 0 ? len : (int) Math.floorMod(seed, len + 1);
                    FpduWriter inPlace = new FpduWriter(crc, markers, 65535, off);
                    FpduWriter parts = new FpduWriter(crc, markers, 65535, off);
                    Written a = write(inPlace, ulpdu, split, headroom, tailroom, true);
                    Written b = write(parts, ulpdu, split, 0, 0, false);
                    byte[] expected = expected(crc, markers, off, ulpdu);
                    assertThat(a.octets()).isEqualTo(expected);
                    assertThat(b.octets()).isEqualTo(expected);
                    assertThat(a.lastFlags()).containsOnlyOnce(true).endsWith(true);
                    assertThat(inPlace.streamOffset()).isEqualTo(parts.streamOffset());
                    assertThat(inPlace.lastCrc()).isEqualTo(parts.lastCrc());
                    assertThat(inPlace.lastMarkerCount()).isEqualTo(parts.lastMarkerCount());
                    assertThat(inPlace.lastWireLength()).isEqualTo(expected.length);
                });
    }

    @Test
    void aLentPayloadGivesTheReferenceOctetsAndStaysTheCallers() {
        qt().withExamples(400).forAll(FpduPropertyTest.offsets(), integers().between(0, 5000),
                integers().between(0, 31), longs().all()).checkAssert((off, len, flags, seed) -> {
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    int headroom = (flags >> 2) & 7;
                    byte[] ulpdu = FpduPropertyTest.randomBytes(seed, len);
                    int split = Math.min(len, 14 + (int) Math.floorMod(seed, 5)); // a DDP header's worth
                    ByteBuf header = TestBuffers.ALLOC.directBuffer(headroom + split);
                    header.writerIndex(headroom).readerIndex(headroom);
                    header.writeBytes(ulpdu, 0, split);
                    int before = (int) Math.floorMod(seed >> 8, 9); // octets of the source around the payload
                    ByteBuf source = TestBuffers.ALLOC.directBuffer();
                    source.writeZero(before).writeBytes(ulpdu, split, len - split).writeZero(3).readerIndex(1);
                    int reader = source.readerIndex();
                    int writer = source.writerIndex();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    int[] lentCalls = {0};
                    FpduWriter w = new FpduWriter(crc, markers, 65535, off);
                    try {
                        w.writeLent(header, source, before, len - split, TestBuffers.ALLOC, new FpduWriter.PartSink() {
                            @Override
                            public void part(ByteBuf part, boolean last) {
                                out.writeBytes(ByteBufUtil.getBytes(part));
                                part.release();
                            }

                            @Override
                            public void lentPart(ByteBuf lent, int index, int length) {
                                assertThat(lent).isSameAs(source);
                                lentCalls[0]++;
                                byte[] copy = new byte[length];
                                lent.getBytes(index, copy);
                                out.writeBytes(copy);
                            }
                        });
                        assertThat(out.toByteArray()).isEqualTo(expected(crc, markers, off, ulpdu));
                        assertThat(source.refCnt()).as("neither kept nor released").isEqualTo(1);
                        assertThat(source.readerIndex()).isEqualTo(reader);
                        assertThat(source.writerIndex()).isEqualTo(writer);
                        if (!markers && headroom >= FpduLayout.LENGTH_FIELD && len > split) {
                            assertThat(lentCalls[0]).as("copied from the source, no slice").isEqualTo(1);
                        }
                    } finally {
                        source.release();
                    }
                });
    }

    @Test
    void aSmallUlpduWithRoomOnBothSidesIsOnePart() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(3, 78); // a tagged DDP header and 64 octets
        FpduWriter w = new FpduWriter(true, false, 65535, 0);
        Written one = write(w, ulpdu, ulpdu.length, w.maxPrefixLength(), w.maxTrailerLength(), true);
        assertThat(one.parts()).isEqualTo(1);
        assertThat(one.octets()).isEqualTo(expected(true, false, 0, ulpdu));
        // markers: a leading marker at stream offset 0 goes in front as well
        FpduWriter m = new FpduWriter(true, true, 65535, 0);
        Written marked = write(m, ulpdu, ulpdu.length, m.maxPrefixLength(), m.maxTrailerLength(), true);
        assertThat(marked.parts()).isEqualTo(1);
        assertThat(marked.octets()).isEqualTo(FpduPropertyTest.referenceEncode(0, ulpdu));
    }

    @Test
    void withAPayloadTheHeaderCarriesTheLengthAndTheTrailerIsItsOwnPart() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(4, 1000);
        FpduWriter w = new FpduWriter(true, false, 65535, 0);
        Written three = write(w, ulpdu, 14, w.maxPrefixLength(), w.maxTrailerLength(), true);
        assertThat(three.parts()).isEqualTo(3); // length+header, payload, PAD+CRC
        assertThat(three.octets()).isEqualTo(expected(true, false, 0, ulpdu));
    }

    @Test
    void withoutRoomOrWhenNotAllowedTheHeaderIsLeftAlone() {
        byte[] ulpdu = FpduPropertyTest.randomBytes(5, 40);
        FpduWriter w = new FpduWriter(true, false, 65535, 0);
        assertThat(write(w, ulpdu, ulpdu.length, 1, 16, true).parts()).as("too little headroom").isEqualTo(3);
        assertThat(write(w, ulpdu, ulpdu.length, 8, 16, false).parts()).as("not the writer's room").isEqualTo(3);
        // a header someone else also holds is never written around
        ByteBuf header = TestBuffers.ALLOC.directBuffer(64).writeZero(8).readerIndex(8).writeBytes(ulpdu);
        ByteBuf shared = header.retain();
        List<ByteBuf> parts = new ArrayList<>();
        w.write(header, null, TestBuffers.ALLOC, (part, last) -> parts.add(part), true);
        assertThat(parts).hasSize(3);
        assertThat(shared.getShort(6)).isZero();
        parts.forEach(ByteBuf::release);
        shared.release();
    }
    /**
     * {@link FpduWriter#frameInPlace}: a ULPDU written into a buffer the caller owns, at the writer's prefix length,
     * is framed where it lies into the reference octets (RFC 5044 §4.1–§4.4), the buffer's octets before the FPDU are
     * untouched and its writer index ends the FPDU; the writer's state advances as {@link FpduWriter#write} would
     * have it. The in-place wire length is -1 exactly when a marker falls inside the ULPDU (markers must then split
     * it, which in-place framing does not do).
     */
    @Test
    void framingWhereTheUlpduLiesGivesTheReferenceOctets() {
        qt().withExamples(600).forAll(FpduPropertyTest.offsets(), integers().between(0, 1600),
                integers().between(0, 15), longs().all()).checkAssert((off, len, flags, seed) -> {
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    int before = (flags >> 2) * 5; // octets already in the buffer: 0, 5, 10 or 15
                    byte[] ulpdu = FpduPropertyTest.randomBytes(seed, len);
                    FpduWriter inPlace = new FpduWriter(crc, markers, 65535, off);
                    FpduWriter reference = new FpduWriter(crc, markers, 65535, off);
                    int wire = inPlace.inPlaceWireLength(len);
                    boolean split = markers && markerInside(off, len);
                    if (split) {
                        assertThat(wire).isEqualTo(-1);
                        ByteBuf small = TestBuffers.heap(new byte[8]);
                        assertThatThrownBy(() -> inPlace.frameInPlace(small, 0, len))
                                .isInstanceOf(IllegalStateException.class);
                        small.release();
                        assertThat(inPlace.streamOffset()).isEqualTo(off);
                        return;
                    }
                    ByteBuf out = TestBuffers.ALLOC.directBuffer(before + wire);
                    try {
                        byte[] junk = FpduPropertyTest.randomBytes(~seed, before + wire);
                        out.writeBytes(junk, 0, before); // what the buffer held before: must stay
                        out.setBytes(before, junk, before, wire); // garbage where the FPDU goes
                        out.setBytes(before + inPlace.inPlacePrefixLength(), ulpdu);
                        inPlace.frameInPlace(out, before, len);
                        byte[] expected = expected(crc, markers, off, ulpdu);
                        assertThat(wire).isEqualTo(expected.length);
                        assertThat(out.writerIndex()).isEqualTo(before + wire);
                        assertThat(ByteBufUtil.getBytes(out, 0, before)).isEqualTo(Arrays.copyOf(junk, before));
                        assertThat(ByteBufUtil.getBytes(out, before, wire)).isEqualTo(expected);
                        Written w = write(reference, ulpdu, len, 0, 0, false);
                        assertThat(w.octets()).isEqualTo(expected);
                        assertThat(inPlace.streamOffset()).isEqualTo(reference.streamOffset());
                        assertThat(inPlace.lastCrc()).isEqualTo(reference.lastCrc());
                        assertThat(inPlace.lastMarkerCount()).isEqualTo(reference.lastMarkerCount());
                        assertThat(inPlace.lastWireLength()).isEqualTo(wire);
                        assertThat(inPlace.fpdusWritten()).isEqualTo(1);
                    } finally {
                        out.release();
                    }
                });
    }

    @Test
    void aUlpduLongerThanTheMaximumIsNotFramedInPlace() {
        FpduWriter w = new FpduWriter(true, false, 100, 0);
        assertThat(w.inPlaceWireLength(100)).isEqualTo(FpduLayout.plainLength(100));
        assertThat(w.inPlaceWireLength(101)).isEqualTo(-1);
        ByteBuf out = TestBuffers.heap(new byte[200]);
        assertThatThrownBy(() -> w.frameInPlace(out, 0, 101)).isInstanceOf(IllegalStateException.class);
        assertThat(out.writerIndex()).as("nothing written").isEqualTo(200);
        out.release();
    }

    /** Whether a marker (every 512 octets of the stream, RFC 5044 §4.3) falls in the FPDU's length field or ULPDU. */
    private static boolean markerInside(int off, int len) {
        long start = Integer.toUnsignedLong(off);
        long from = start + (start % 512 == 0 ? 4 : 0); // the length field, behind a leading marker
        long nextMarker = (from / 512 + 1) * 512;
        return nextMarker < from + FpduLayout.LENGTH_FIELD + len;
    }
}
