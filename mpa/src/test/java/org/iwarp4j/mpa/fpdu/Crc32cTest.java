package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.testkit.GoldenVector;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

/** CRC32c vectors (RFC 3720 patterns, RFC 5044 §4.4), fed through every ByteBuf shape. */
class Crc32cTest {

    static List<GoldenVector> crcVectors() {
        return GoldenVectors.ofKind("crc32c");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("crcVectors")
    void valueAndWireOrder(GoldenVector v) {
        byte[] input = v.bytes();
        long expected = v.number("crc32c_value");
        assertThat(Crc32c.compute(input)).isEqualTo(expected);
        ByteBuf direct = TestBuffers.direct(input);
        ByteBuf heap = TestBuffers.heap(input);
        CompositeByteBuf composite = TestBuffers.ALLOC.compositeDirectBuffer();
        int half = input.length / 2;
        composite.addComponent(true, TestBuffers.direct(Arrays.copyOfRange(input, 0, half)));
        composite.addComponent(true, TestBuffers.heap(Arrays.copyOfRange(input, half, input.length)));
        try {
            assertThat(Crc32c.compute(direct, direct.readerIndex(), input.length)).isEqualTo(expected);
            assertThat(Crc32c.compute(heap, heap.readerIndex(), input.length)).isEqualTo(expected);
            assertThat(Crc32c.compute(composite, composite.readerIndex(), input.length)).isEqualTo(expected);
            for (ByteBuf b : List.of(direct, heap, composite)) {
                for (int scratch : new int[] {input.length - 1, input.length, Crc32c.SCRATCH_LENGTH}) {
                    CRC32C crc = new CRC32C();
                    Crc32c.update(crc, b, b.readerIndex(), input.length, new byte[Math.max(0, scratch)]);
                    assertThat(crc.getValue()).as("%s through a scratch array of %d", b, scratch).isEqualTo(expected);
                }
            }
        } finally {
            direct.release();
            heap.release();
            composite.release();
        }
        ByteBuf adaptive = new AdaptiveByteBufAllocator().directBuffer(input.length + 8).writeZero(8).writeBytes(input);
        try {
            CRC32C crc = new CRC32C();
            Crc32c.update(crc, adaptive, 8, input.length, new byte[Crc32c.SCRATCH_LENGTH]);
            assertThat(crc.getValue()).as("adaptive direct buffer at an offset").isEqualTo(expected);
        } finally {
            adaptive.release();
        }
        ByteBuf wire = Unpooled.buffer(4).writeIntLE((int) expected);
        assertThat(HexFormat.of().formatHex(wire.array())).isEqualTo(v.field("crc_wire_bytes"));
    }
}
