package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/** The CRC a writer computes through its {@link CrcFeed} is CRC32C of the octets, whatever buffer holds them. */
class CrcFeedTest {

    private static final List<ByteBufAllocator> ALLOCATORS = List.of(new UnpooledByteBufAllocator(true),
            PooledByteBufAllocator.DEFAULT, new AdaptiveByteBufAllocator(), new UnpooledByteBufAllocator(false));

    private static long expected(byte[] octets, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(octets, from, length);
        return crc.getValue();
    }

    private static byte[] random(long seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aRangeOfASliceOfAnyBufferGivesCrc32cOfItsOctets() {
        CrcFeed feed = new CrcFeed();
        qt().withExamples(500).forAll(integers().between(0, ALLOCATORS.size() - 1), integers().between(1, 70_000),
                        longs().all())
                .checkAssert((kind, size, seed) -> {
                    byte[] octets = random(seed, size);
                    ByteBuf parent = ALLOCATORS.get(kind).buffer(size).writeBytes(octets);
                    Random r = new Random(seed ^ 0x5DEECE66DL);
                    int sliceFrom = r.nextInt(size);
                    int sliceLength = 1 + r.nextInt(size - sliceFrom);
                    ByteBuf slice = parent.retainedSlice(sliceFrom, sliceLength);
                    try {
                        for (int i = 0; i < 3; i++) { // the same view again, at other places in the parent
                            int from = r.nextInt(sliceLength);
                            int length = r.nextInt(sliceLength - from + 1);
                            CRC32C crc = new CRC32C();
                            feed.update(crc, slice, from, length);
                            assertThat(crc.getValue()).as("%s, %d octets from %d of a slice at %d", parent, length,
                                    from, sliceFrom).isEqualTo(expected(octets, sliceFrom + from, length));
                        }
                        CRC32C whole = new CRC32C();
                        feed.update(whole, parent, 0, size);
                        assertThat(whole.getValue()).isEqualTo(expected(octets, 0, size));
                    } finally {
                        slice.release();
                        parent.release();
                    }
                });
    }

    @Test
    void slicesOfOneBufferShareOneView() {
        byte[] octets = random(7, 64 * 1024);
        ByteBuf region = Unpooled.directBuffer(octets.length).writeBytes(octets);
        try {
            CrcFeed feed = new CrcFeed();
            for (int i = 0; i < 16; i++) {
                ByteBuf payload = region.retainedSlice(i * 4096, 4096);
                CRC32C crc = new CRC32C();
                feed.update(crc, payload, 0, 4096);
                assertThat(crc.getValue()).isEqualTo(expected(octets, i * 4096, 4096));
                payload.release();
            }
            // one view, held weakly: a collection in between may take it and cost one more
            assertThat(feed.viewsMade()).as("views for sixteen payloads of one region").isBetween(1L, 3L);
        } finally {
            region.release();
        }
    }

    @Test
    void theFeedKeepsNoRegionAliveThatTheApplicationDropped() throws InterruptedException {
        CrcFeed feed = new CrcFeed();
        ByteBuffer memory = ByteBuffer.allocateDirect(8192);
        WeakReference<ByteBuffer> dropped = new WeakReference<>(memory);
        ByteBuf region = Unpooled.wrappedBuffer(memory); // as a registered ByteBuffer is held
        ByteBuf payload = region.retainedSlice(1024, 4096);
        feed.update(new CRC32C(), payload, 0, 4096);
        assertThat(feed.viewsMade()).isEqualTo(1);
        payload.release();
        region.release();
        memory = null;
        region = null;
        payload = null;
        for (int i = 0; i < 50 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(dropped.get()).as("the region's memory, collected though the feed saw it last").isNull();
    }

    @Test
    void aPooledParentRecycledForOtherMemoryGetsAViewOfThat() {
        CrcFeed feed = new CrcFeed();
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true);
        for (int round = 0; round < 50; round++) {
            byte[] octets = random(round, 2048 + round * 97);
            ByteBuf parent = alloc.directBuffer(octets.length).writeBytes(octets);
            ByteBuf slice = parent.retainedSlice(100, octets.length - 200);
            try {
                CRC32C crc = new CRC32C();
                feed.update(crc, slice, 0, slice.readableBytes());
                assertThat(crc.getValue()).as("round %d", round).isEqualTo(expected(octets, 100, octets.length - 200));
            } finally {
                slice.release();
                parent.release();
            }
        }
    }

    /** The FPDU {@code writer} makes of a 14-octet header and {@code payload}, as octets. */
    private static byte[] frame(FpduWriter writer, ByteBuf payload) {
        CompositeByteBuf out = Unpooled.compositeBuffer(Integer.MAX_VALUE);
        try {
            writer.write(Unpooled.buffer(14).writeZero(14), payload, UnpooledByteBufAllocator.DEFAULT,
                    (part, last) -> out.addComponent(true, part));
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    @Test
    void aWriterFramesPayloadSlicesWithTheCrcOfACopy() {
        // the same ULPDUs through a writer: once as slices of one region, once copied into buffers of their own
        byte[] octets = random(11, 32 * 1024);
        ByteBuf region = Unpooled.directBuffer(octets.length).writeBytes(octets);
        FpduWriter sliced = new FpduWriter(true, false, 32_734, 0);
        FpduWriter copied = new FpduWriter(true, false, 32_734, 0);
        try {
            for (int i = 0; i < 8; i++) {
                byte[] a = frame(sliced, region.retainedSlice(i * 4096, 4096));
                byte[] b = frame(copied, Unpooled.directBuffer(4096).writeBytes(octets, i * 4096, 4096));
                assertThat(a).as("FPDU %d", i).isEqualTo(b);
            }
            assertThat(sliced.crcViewsMade()).as("views for eight payloads of one region").isBetween(1L, 3L);
        } finally {
            region.release();
        }
    }
}
