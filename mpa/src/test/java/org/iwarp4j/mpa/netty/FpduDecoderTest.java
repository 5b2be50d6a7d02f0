package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.TestBuffers;
import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * {@link FpduDecoder} over any cutting of the TCP stream into reads (RFC 5044 §4, §8): the ULPDUs that come out
 * are the ones framed, in order, whatever the read boundaries; an FPDU a read ends inside is completed from the
 * next reads and nothing more is buffered than that FPDU; a damaged FPDU is reported once and nothing follows it;
 * a connection that ends inside an FPDU is reported as lost (0x01).
 */
class FpduDecoderTest {

    private static final int LIMIT = 16384;

    /** A stream of {@code count} random FPDUs from stream offset {@code offset}, and the ULPDUs in it. */
    private static final class Stream {
        final List<byte[]> ulpdus = new ArrayList<>();
        final List<Integer> starts = new ArrayList<>();
        final byte[] wire;
        final boolean crc;
        final boolean markers;

        Stream(Random random, int count, boolean crc, boolean markers, int offset) {
            this.crc = crc;
            this.markers = markers;
            FpduWriter writer = new FpduWriter(crc, markers, LIMIT, offset);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < count; i++) {
                int n = random.nextInt(8) == 0 ? random.nextInt(LIMIT + 1) : random.nextInt(1200);
                byte[] ulpdu = new byte[n];
                random.nextBytes(ulpdu);
                ulpdus.add(ulpdu);
                starts.add(out.size());
                ByteBuf fpdu = writer.encode(TestBuffers.heap(ulpdu), TestBuffers.ALLOC);
                try {
                    out.writeBytes(ByteBufUtil.getBytes(fpdu));
                } finally {
                    fpdu.release();
                }
            }
            wire = out.toByteArray();
        }
    }

    /** What came out of the decoder: the ULPDUs' octets (each released) and the errors it fired. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        final List<byte[]> ulpdus = new ArrayList<>();
        final List<Throwable> errors = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ulpdus.add(TestBuffers.drain((ByteBuf) msg));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    /**
     * An allocator that remembers the largest buffer it was asked for (the initial capacity, or the bound a buffer
     * may grow to where one is given; an unbounded buffer grows only by what its writer writes) and how many, except
     * the reads the test makes with {@link #read}: the decoder's carry comes from the allocator of the read it
     * continues.
     */
    private static final class SizeWatchingAllocator extends PooledByteBufAllocator {
        int largest;
        int count;
        private boolean reading;

        SizeWatchingAllocator() {
            super(true);
        }

        /** A read of {@code octets} in a direct buffer of this allocator, not watched. */
        ByteBuf read(byte[] octets) {
            reading = true;
            try {
                return directBuffer(octets.length).writeBytes(octets);
            } finally {
                reading = false;
            }
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            watch(initialCapacity, maxCapacity);
            return super.newDirectBuffer(initialCapacity, maxCapacity);
        }

        private void watch(int initialCapacity, int maxCapacity) {
            if (reading) {
                return;
            }
            count++;
            largest = Math.max(largest, Math.max(initialCapacity, maxCapacity == Integer.MAX_VALUE ? 0 : maxCapacity));
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            watch(initialCapacity, maxCapacity);
            return super.newHeapBuffer(initialCapacity, maxCapacity);
        }
    }

    private static EmbeddedChannel channel(FpduReader reader, Sink sink, ByteBufAllocator alloc) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(alloc);
        ch.pipeline().addLast(new FpduDecoder(reader), sink);
        return ch;
    }

    /** Feeds {@code wire[from, to)} in reads of random lengths (1 octet up to several FPDUs). */
    private static void feed(EmbeddedChannel ch, byte[] wire, int from, int to, Random random) {
        feed(ch, wire, from, to, random, TestBuffers::direct);
    }

    /** {@link #feed(EmbeddedChannel, byte[], int, int, Random)} with each read in a buffer {@code reads} gives. */
    private static void feed(EmbeddedChannel ch, byte[] wire, int from, int to, Random random,
                             Function<byte[], ByteBuf> reads) {
        int at = from;
        while (at < to) {
            int max = random.nextInt(4) == 0 ? 8 : 40000;
            int n = Math.min(to - at, 1 + random.nextInt(max));
            ch.writeInbound(reads.apply(Arrays.copyOfRange(wire, at, at + n)));
            at += n;
        }
    }

    @Test
    void everyCuttingOfTheStreamGivesTheFramedUlpdusInOrder() {
        qt().withExamples(400).forAll(longs().all(), integers().between(0, 7), integers().between(1, 12))
                .checkAssert((seed, flags, count) -> {
                    Random random = new Random(seed);
                    boolean crc = (flags & 1) != 0;
                    boolean markers = (flags & 2) != 0;
                    boolean lend = (flags & 4) != 0;
                    int offset = random.nextInt() & ~3;
                    Stream s = new Stream(random, count, crc, markers, offset);
                    FpduReader reader = new FpduReader(crc, markers, LIMIT, offset);
                    Sink sink = new Sink();
                    SizeWatchingAllocator alloc = new SizeWatchingAllocator();
                    EmbeddedChannel ch = channel(reader, sink, alloc);
                    ch.pipeline().get(FpduDecoder.class).lendUlpdus(lend);
                    feed(ch, s.wire, 0, s.wire.length, random, alloc::read);
                    assertThat(ch.finish()).isFalse();
                    assertThat(sink.errors).isEmpty();
                    assertThat(sink.ulpdus).hasSameSizeAs(s.ulpdus);
                    for (int i = 0; i < s.ulpdus.size(); i++) {
                        assertThat(sink.ulpdus.get(i)).as("ULPDU %d", i).isEqualTo(s.ulpdus.get(i));
                    }
                    assertThat(reader.streamOffset()).isEqualTo(offset + s.wire.length);
                    // whatever the reads, the decoder's own buffers hold one FPDU at most
                    assertThat(alloc.largest).isLessThanOrEqualTo(reader.maxFpduWireLength());
                });
    }

    @Test
    void aLentUlpduIsTheReadsOwnBufferAroundTheUlpduAndTheReadMovesOnAfterIt() {
        Random random = new Random(11);
        FpduWriter writer = new FpduWriter(true, false, LIMIT, 0);
        int[] sizes = {0, 100, FpduReader.COPY_LIMIT + 1, 3000};
        List<byte[]> sent = new ArrayList<>();
        List<Integer> expectedStarts = new ArrayList<>();
        ByteBuf read = TestBuffers.ALLOC.directBuffer();
        for (int n : sizes) {
            byte[] ulpdu = new byte[n];
            random.nextBytes(ulpdu);
            sent.add(ulpdu);
            expectedStarts.add(read.writerIndex() + FpduLayout.LENGTH_FIELD);
            ByteBuf fpdu = writer.encode(TestBuffers.heap(ulpdu), TestBuffers.ALLOC);
            read.writeBytes(fpdu);
            fpdu.release();
        }
        List<byte[]> seen = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast(new FpduDecoder(new FpduReader(true, false, LIMIT, 0)).lendUlpdus(true),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf ulpdu = (ByteBuf) msg;
                        assertThat(ulpdu).as("lent, not sliced or copied").isSameAs(read);
                        assertThat(ulpdu.refCnt()).as("the decoder keeps its own reference").isEqualTo(2);
                        starts.add(ulpdu.readerIndex());
                        seen.add(TestBuffers.drain(ulpdu)); // moves the indexes: the decoder sets them after the call
                    }
                });
        ch.writeInbound(read);
        assertThat(seen).hasSize(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            assertThat(seen.get(i)).as("ULPDU %d", i).isEqualTo(sent.get(i));
        }
        assertThat(starts).as("each ULPDU where its FPDU put it").isEqualTo(expectedStarts);
        assertThat(read.refCnt()).as("released once the read is done").isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void anFpduStartIsNeverBufferedBeyondOneFpdu() {
        // reads of one octet: every FPDU is carried, octet by octet; the decoder's own buffers stay within one FPDU
        Random random = new Random(7);
        Stream s = new Stream(random, 6, true, true, 0);
        FpduReader reader = new FpduReader(true, true, LIMIT, 0);
        Sink sink = new Sink();
        SizeWatchingAllocator alloc = new SizeWatchingAllocator();
        EmbeddedChannel ch = channel(reader, sink, alloc);
        for (byte b : s.wire) {
            ch.writeInbound(alloc.read(new byte[] {b}));
        }
        assertThat(ch.finish()).isFalse();
        assertThat(sink.ulpdus).hasSize(6);
        assertThat(alloc.largest).isPositive().isLessThanOrEqualTo(reader.maxFpduWireLength());
    }

    /**
     * The carry comes from the allocator of the read it continues, not the channel's: a connection that reads into
     * buffers that keep their {@code ByteBuffer} view for the CRC (pooled ones) gets a carry that keeps one too.
     */
    @Test
    void theCarryComesFromTheReadsAllocator() {
        Stream s = new Stream(new Random(11), 3, true, false, 0);
        FpduReader reader = new FpduReader(true, false, LIMIT, 0);
        Sink sink = new Sink();
        SizeWatchingAllocator channels = new SizeWatchingAllocator();
        SizeWatchingAllocator reads = new SizeWatchingAllocator();
        EmbeddedChannel ch = channel(reader, sink, channels);
        int cut = s.starts.get(1) + 5; // inside the second FPDU
        ch.writeInbound(reads.read(Arrays.copyOfRange(s.wire, 0, cut)));
        ch.writeInbound(reads.read(Arrays.copyOfRange(s.wire, cut, s.wire.length)));
        assertThat(ch.finish()).isFalse();
        assertThat(sink.ulpdus).hasSize(3);
        assertThat(reads.count).as("the carry, from the reads' allocator").isEqualTo(1);
        assertThat(channels.count).as("nothing from the channel's").isZero();
    }

    @Test
    void aDamagedFpduIsReportedOnceAndNothingFollowsIt() {
        qt().withExamples(200).forAll(longs().all(), integers().between(2, 10)).checkAssert((seed, count) -> {
            Random random = new Random(seed);
            Stream s = new Stream(random, count, true, false, 0);
            int bad = random.nextInt(count);
            byte[] wire = s.wire.clone();
            wire[s.starts.get(bad) + 2 + random.nextInt(s.ulpdus.get(bad).length + 2)] ^= 0x40;
            FpduReader reader = new FpduReader(true, false, LIMIT, 0);
            Sink sink = new Sink();
            EmbeddedChannel ch = channel(reader, sink, TestBuffers.ALLOC);
            feed(ch, wire, 0, wire.length, random);
            ch.finish();
            assertThat(sink.ulpdus).hasSize(bad);
            assertThat(sink.errors).singleElement().isInstanceOfSatisfying(MpaException.class,
                    e -> assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR));
        });
    }

    @Test
    void aLengthAboveTheLimitIsRefusedBeforeTheFpduIsBuffered() {
        // ULPDU_Length 0xFFFF against a limit of 16384, arriving one octet at a time after a whole FPDU
        Stream s = new Stream(new Random(3), 1, true, false, 0);
        FpduReader reader = new FpduReader(true, false, LIMIT, 0);
        Sink sink = new Sink();
        SizeWatchingAllocator alloc = new SizeWatchingAllocator();
        EmbeddedChannel ch = channel(reader, sink, alloc);
        ch.writeInbound(alloc.read(s.wire));
        ch.writeInbound(alloc.read(new byte[] {(byte) 0xFF}));
        ch.writeInbound(alloc.read(new byte[] {(byte) 0xFF, 0, 0, 0}));
        ch.writeInbound(alloc.read(new byte[60000]));
        ch.finish();
        assertThat(sink.ulpdus).hasSize(1);
        assertThat(sink.errors).singleElement().isInstanceOfSatisfying(MpaException.class, e -> {
            assertThat(e.error()).isEqualTo(MpaError.CRC_ERROR);
            assertThat(e.getMessage()).contains("ULPDU_Length 65535 exceeds the receive limit of 16384");
        });
        assertThat(alloc.largest).isLessThanOrEqualTo(reader.maxFpduWireLength());
    }

    @Test
    void aConnectionThatEndsInsideAnFpduIsReportedAsLost() {
        qt().withExamples(200).forAll(longs().all(), integers().between(1, 8)).checkAssert((seed, count) -> {
            Random random = new Random(seed);
            Stream s = new Stream(random, count, random.nextBoolean(), random.nextBoolean(), 0);
            int lastStart = s.starts.get(count - 1);
            int cut = lastStart + 1 + random.nextInt(s.wire.length - lastStart - 1);
            Sink sink = new Sink();
            EmbeddedChannel ch = channel(new FpduReader(s.crc, s.markers, LIMIT, 0), sink, TestBuffers.ALLOC);
            feed(ch, s.wire, 0, cut, random);
            ch.close();
            assertThat(sink.ulpdus).hasSize(count - 1);
            assertThat(sink.errors).singleElement().isInstanceOfSatisfying(MpaException.class, e -> {
                assertThat(e.error()).isEqualTo(MpaError.TCP_CONNECTION_LOST);
                assertThat(e.getMessage()).contains("ended inside an FPDU (" + (cut - lastStart) + " octets");
            });
        });
    }
}
