package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.mpa.TestBuffers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the reader hands a ULPDU up: up to {@link FpduReader#COPY_LIMIT} octets as a copy that holds no reference
 * to the input (the input can go at once), above it as a retained view of the input (zero-copy). Either way the
 * octets are the ULPDU's, and the input comes out consumed by exactly one FPDU.
 */
class FpduReaderCopyLimitTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 64, FpduReader.COPY_LIMIT, FpduReader.COPY_LIMIT + 1, 4000})
    void smallUlpdusAreCopiedLargerOnesAreViewsOfTheInput(int length) {
        byte[] ulpdu = FpduPropertyTest.randomBytes(length, length);
        byte[] wire = withoutMarkers(ulpdu);
        ByteBuf in = TestBuffers.direct(wire);
        FpduReader reader = new FpduReader(true, false, 65535, 0);

        ByteBuf read;
        try {
            read = reader.read(in, TestBuffers.ALLOC);
        } catch (RuntimeException e) {
            in.release();
            throw e;
        }
        boolean copied = length <= FpduReader.COPY_LIMIT;
        try {
            assertThat(ByteBufUtil.getBytes(read)).isEqualTo(ulpdu);
            assertThat(in.readerIndex()).isEqualTo(wire.length);
            assertThat(in.refCnt()).as("references to the input").isEqualTo(copied ? 1 : 2);
            if (length > 0) {
                // a view shows a later change of the input, a copy does not
                in.setByte(2, ~ulpdu[0]);
                assertThat(read.getByte(read.readerIndex())).isEqualTo(copied ? ulpdu[0] : (byte) ~ulpdu[0]);
            }
        } finally {
            read.release();
        }
        assertThat(in.refCnt()).isEqualTo(1);
        in.release();
    }

    /** RFC 5044 §4.1 without markers: ULPDU_Length, the ULPDU, PAD to a multiple of 4, CRC32C (as on the wire). */
    private static byte[] withoutMarkers(byte[] ulpdu) {
        int pad = (4 - (2 + ulpdu.length) % 4) % 4;
        byte[] wire = new byte[2 + ulpdu.length + pad + 4];
        wire[0] = (byte) (ulpdu.length >> 8);
        wire[1] = (byte) ulpdu.length;
        System.arraycopy(ulpdu, 0, wire, 2, ulpdu.length);
        byte[] covered = Arrays.copyOf(wire, wire.length - 4);
        long crc = Crc32c.compute(covered);
        for (int i = 0; i < 4; i++) {
            wire[covered.length + i] = (byte) (crc >> (8 * i));
        }
        return wire;
    }
}
