package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
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
import java.util.function.IntUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * {@link FpduReadSizes}: reads sized to end where FPDUs end, so that {@link FpduDecoder} carries (copies) no FPDU
 * while the kernel has a read's worth queued, and every ULPDU still comes out as framed, however the reads fall.
 */
class FpduReadSizesTest {

    /** Loopback's MULPDU (an EMSS of 32,768 octets, RFC 5044 §4.5 without markers). */
    private static final int LIMIT = 32_734;

    @Test
    void readSizeEndsOnAnFpduBoundaryAndFillsTheTarget() {
        qt().forAll(integers().between(FpduReadSizes.ALIGN_FROM, 65_544), integers().between(0, 65_543))
                .checkAssert((frame, any) -> {
                    int missing = any % frame;
                    int size = FpduReadSizes.readSize(missing, frame, false);
                    assertThat(size).isGreaterThanOrEqualTo(Math.max(missing, 1));
                    assertThat((size - missing) % frame).as("whole FPDUs after the missing octets").isZero();
                    if (missing == 0) {
                        assertThat(size).as("at least one FPDU").isGreaterThanOrEqualTo(frame);
                    }
                    if (size - missing > frame) {
                        assertThat(size).as("more than one FPDU only within the target")
                                .isLessThanOrEqualTo(FpduReadSizes.READ_TARGET);
                    }
                    assertThat(size + frame).as("no further FPDU would fit")
                            .isGreaterThan(Math.max(FpduReadSizes.READ_TARGET, missing + frame - 1));
                });
    }

    @Test
    void shortFpdusAndMarkersAreLeftToTheWrappedAllocator() {
        qt().forAll(integers().between(1, FpduReadSizes.ALIGN_FROM - 1), integers().between(0, 65_543),
                        booleans().all())
                .checkAssert((frame, missing, markers) ->
                        assertThat(FpduReadSizes.readSize(missing, frame, markers)).isZero());
        qt().forAll(integers().between(1, 65_544), integers().between(0, 65_543))
                .checkAssert((frame, missing) -> assertThat(FpduReadSizes.readSize(missing, frame, true)).isZero());
    }

    @Test
    void readsEndingOnBoundariesCarryNothingAfterTheFirstRead() {
        Random random = new Random(7);
        byte[][] ulpdus = ulpdus(random, 300, i -> LIMIT);
        Outcome sized = decode(ulpdus, true, n -> n);
        Outcome plain = decode(ulpdus, false, n -> n);
        assertThat(sized.ulpdus).containsExactly(ulpdus);
        assertThat(plain.ulpdus).containsExactly(ulpdus);
        // The first read (the wrapped allocator's first guess) ends inside the first FPDU; after that none does.
        assertThat(sized.carried).isEqualTo(FpduLayout.wireLength(0, LIMIT, false));
        assertThat(plain.carried).as("reads of 64 KiB end inside every other FPDU")
                .isGreaterThan(sized.wireLength / 3);
    }

    @Test
    void aStreamThatRepeatsItsLengthsIsCarriedOnlyWhileTheHistoryFills() {
        // Messages of any pattern of up to 16 FPDUs, short and long (at least one long): once the history has seen
        // the pattern, no read ends inside an FPDU.
        qt().withExamples(30).forAll(longs().all()).checkAssert(seed -> {
            Random random = new Random(seed);
            int period = 1 + random.nextInt(16);
            int[] pattern = new int[period];
            for (int i = 0; i < period; i++) {
                pattern[i] = random.nextBoolean() ? random.nextInt(FpduReadSizes.ALIGN_FROM)
                        : FpduReadSizes.ALIGN_FROM + random.nextInt(LIMIT - FpduReadSizes.ALIGN_FROM + 1);
            }
            pattern[random.nextInt(period)] = LIMIT - random.nextInt(FpduReadSizes.ALIGN_FROM);
            byte[][] ulpdus = ulpdus(random, 40 * period + 2 * FpduLengthHistory.WINDOW, i -> pattern[i % period]);
            Outcome sized = decode(ulpdus, true, n -> n);
            assertThat(sized.ulpdus).containsExactly(ulpdus);
            assertThat(sized.carriedLater).as("carried after the history filled, pattern %s", Arrays.toString(pattern))
                    .isZero();
        });
    }

    @Test
    void aWriteOf64KiBIsThreeFpdusAndNoneIsCarried() {
        // Loopback's MULPDU: 32,720 octets of payload after the 14-octet tagged header, then the remaining 96.
        Random random = new Random(5);
        byte[][] ulpdus = ulpdus(random, 3 * 400, i -> i % 3 == 2 ? 96 + 14 : LIMIT);
        Outcome sized = decode(ulpdus, true, n -> n);
        assertThat(sized.ulpdus).containsExactly(ulpdus);
        assertThat(sized.carriedLater).isZero();
        assertThat(decode(ulpdus, false, n -> n).carried).as("without the sizes")
                .isGreaterThan(sized.wireLength / 3);
    }

    @Test
    void aWriteOf1MiBIsThirtyThreeFpdusAndNoneIsCarried() {
        Random random = new Random(9);
        byte[][] ulpdus = ulpdus(random, 33 * 16, i -> i % 33 == 32 ? 1_048_576 - 32 * (LIMIT - 14) + 14 : LIMIT);
        Outcome sized = decode(ulpdus, true, n -> n);
        assertThat(sized.ulpdus).containsExactly(ulpdus);
        assertThat(sized.carriedLater).isZero();
    }

    @Test
    void shortReadsAndChangingLengthsStillDeliverEveryUlpdu() {
        Random random = new Random(11);
        byte[][] ulpdus = ulpdus(random, 2_000, i -> random.nextInt(4) == 0 ? random.nextInt(300)
                : FpduReadSizes.ALIGN_FROM + random.nextInt(LIMIT - FpduReadSizes.ALIGN_FROM + 1));
        Random kernel = new Random(13);
        // A kernel that has the whole read queued three times in four, else part of it.
        Outcome sized = decode(ulpdus, true, n -> kernel.nextInt(4) == 0 ? 1 + kernel.nextInt(n) : n);
        assertThat(sized.ulpdus).containsExactly(ulpdus);
        assertThat(sized.carried).isLessThan(sized.wireLength);
    }

    private static byte[][] ulpdus(Random random, int count, IntUnaryOperator length) {
        byte[][] ulpdus = new byte[count][];
        for (int i = 0; i < count; i++) {
            ulpdus[i] = new byte[length.applyAsInt(i)];
            random.nextBytes(ulpdus[i]);
        }
        return ulpdus;
    }

    /** The ULPDUs out, the octets carried, those carried after twice the history had come out, the stream's length. */
    private record Outcome(List<byte[]> ulpdus, long carried, long carriedLater, int wireLength) {
    }

    /**
     * Frames {@code ulpdus} into one stream and feeds it to a decoder in reads the channel's read handle sizes, each
     * filled with as many octets as {@code kernel} says are queued (given what the read asks for).
     */
    private static Outcome decode(byte[][] ulpdus, boolean sized, IntUnaryOperator kernel) {
        FpduWriter writer = new FpduWriter(true, false, LIMIT, 0);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (byte[] u : ulpdus) {
            ByteBuf fpdu = writer.encode(TestBuffers.heap(u), TestBuffers.ALLOC);
            try {
                wire.writeBytes(ByteBufUtil.getBytes(fpdu));
            } finally {
                fpdu.release();
            }
        }
        byte[] stream = wire.toByteArray();
        EmbeddedChannel ch = new EmbeddedChannel();
        if (sized) {
            FpduReadSizes.install(ch);
        }
        FpduDecoder decoder = new FpduDecoder(new FpduReader(true, false, LIMIT, 0)).lendUlpdus(true);
        List<byte[]> out = new ArrayList<>();
        ch.pipeline().addLast(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                out.add(TestBuffers.drain((ByteBuf) msg));
            }
        });
        RecvByteBufAllocator.Handle handle = ch.config().getRecvByteBufAllocator().newHandle();
        if (!sized) {
            handle = new FixedReads(handle);
        }
        handle.reset(ch.config());
        int at = 0;
        long carriedEarly = -1;
        while (at < stream.length) {
            ByteBuf read = handle.allocate(PooledByteBufAllocator.DEFAULT);
            int n = Math.min(kernel.applyAsInt(read.writableBytes()), stream.length - at);
            read.writeBytes(stream, at, n);
            at += n;
            handle.lastBytesRead(n);
            ch.writeInbound(read);
            if (carriedEarly < 0 && out.size() >= 2 * FpduLengthHistory.WINDOW) {
                carriedEarly = decoder.carriedOctets();
            }
        }
        assertThat(decoder.failed()).isFalse();
        assertThat(ch.finish()).isFalse();
        long carried = decoder.carriedOctets();
        return new Outcome(out, carried, carriedEarly < 0 ? carried : carried - carriedEarly, stream.length);
    }

    /** Reads of 64 KiB, as Netty's adaptive reads of a bulk transfer are. */
    private static final class FixedReads extends RecvByteBufAllocator.DelegatingHandle {
        FixedReads(RecvByteBufAllocator.Handle delegate) {
            super(delegate);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return alloc.ioBuffer(FpduReadSizes.READ_TARGET);
        }
    }

}
