package org.iwarp4j.microbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.iwarp4j.mpa.fpdu.FpduLayout;
import org.iwarp4j.mpa.fpdu.FpduReader;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * FPDU encode and decode (RFC 5044 §4) at 1 KiB and 64768-octet ULPDUs (the largest legal one),
 * CRC on/off, markers on/off. Throughput in ops/µs; multiply by {@code ulpduSize} for octets/µs
 * (= MB/s). Run with {@code -prof gc} to see {@code gc.alloc.rate.norm} (B/op).
 *
 * <p>encode: frames one ULPDU into its parts (as {@code FpduEncoder} hands them to the channel) and
 * releases them, as the channel would after the write. decode: reads the next FPDU of a pre-encoded
 * stream of at least 128 FPDUs and releases the ULPDU; the stream ends on a marker boundary (a multiple
 * of 512 octets), so the same reader reads it over and over as one endless stream.
 *
 * <p>Runs on {@link EventLoopThreadExecutor} threads (Netty event-loop thread type), where Netty recycles
 * pooled slices as it does on a connection's event loop.
 *
 * <p>B/op is measured at Netty's default leak detection (SIMPLE): one allocation in 128 is tracked, and
 * every pooled derived buffer (retained slice) of a tracked buffer is tracked too, at the cost of two
 * stack traces. {@code -jvmArgsAppend "-Djmh.executor=CUSTOM
 * -Djmh.executor.class=org.iwarp4j.microbench.EventLoopThreadExecutor -Dio.netty.leakDetection.level=disabled"}
 * shows what the framing code itself allocates.
 *
 * <p>{@code java -jar microbench/target/benchmarks.jar FpduBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreadExecutor.JMH_EXECUTOR, EventLoopThreadExecutor.JMH_EXECUTOR_CLASS})
public class FpduBenchmark {

    private static final int STREAM_FPDUS = 128;

    @Param({"1024", "64768"})
    public int ulpduSize;

    @Param({"true", "false"})
    public boolean crc;

    @Param({"false", "true"})
    public boolean markers;

    /**
     * {@code adaptive}: Netty 4.2's default ({@code ByteBufAllocator.DEFAULT}); {@code pooled}:
     * {@code PooledByteBufAllocator.DEFAULT}, what a connection's channel and the RNIC use unless configured
     * otherwise.
     */
    @Param({"adaptive", "pooled"})
    public String allocator;

    private ByteBufAllocator alloc;
    private ByteBuf payload;
    private FpduWriter writer;
    private ByteBuf stream;
    private FpduReader reader;
    private final FpduWriter.PartSink releasing = (part, last) -> part.release();

    @Setup(Level.Trial)
    public void setup() {
        alloc = switch (allocator) {
            case "adaptive" -> {
                if (!(ByteBufAllocator.DEFAULT instanceof AdaptiveByteBufAllocator)) {
                    throw new IllegalStateException("ByteBufAllocator.DEFAULT is " + ByteBufAllocator.DEFAULT);
                }
                yield ByteBufAllocator.DEFAULT;
            }
            case "pooled" -> PooledByteBufAllocator.DEFAULT;
            default -> throw new IllegalArgumentException("allocator " + allocator);
        };
        byte[] data = new byte[ulpduSize];
        new Random(42).nextBytes(data);
        payload = alloc.directBuffer(ulpduSize).writeBytes(data);
        writer = new FpduWriter(crc, markers, 65535, 0);
        stream = alloc.directBuffer();
        FpduWriter w = new FpduWriter(crc, markers, 65535, 0);
        for (int i = 0; i < STREAM_FPDUS || (w.streamOffset() & (FpduLayout.MARKER_INTERVAL - 1)) != 0; i++) {
            if (i == 16 * STREAM_FPDUS) {
                throw new IllegalStateException("no FPDU ends on a marker boundary");
            }
            w.write(payload.retain(), null, alloc, (part, last) -> {
                stream.writeBytes(part, part.readerIndex(), part.readableBytes());
                part.release();
            });
        }
        reader = new FpduReader(crc, markers, 65535, 0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        payload.release();
        stream.release();
    }

    @Benchmark
    public long encode() {
        writer.write(payload.retain(), null, alloc, releasing);
        return writer.lastCrc();
    }

    @Benchmark
    public void decode(Blackhole bh) {
        if (!stream.isReadable()) {
            stream.readerIndex(0); // the stream ends on a marker boundary: the reader goes on as if it continued
        }
        ByteBuf ulpdu = reader.read(stream, alloc);
        bh.consume(ulpdu.readableBytes());
        ulpdu.release();
    }
}
