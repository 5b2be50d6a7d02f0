package org.iwarp4j.microbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
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
 * stream of 128 FPDUs and releases the ULPDU.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FpduBenchmark {

    private static final int STREAM_FPDUS = 128;

    @Param({"1024", "64768"})
    public int ulpduSize;

    @Param({"true", "false"})
    public boolean crc;

    @Param({"false", "true"})
    public boolean markers;

    private final PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private ByteBuf payload;
    private FpduWriter writer;
    private ByteBuf stream;
    private FpduReader reader;
    private final FpduWriter.PartSink releasing = (part, last) -> part.release();

    @Setup(Level.Trial)
    public void setup() {
        byte[] data = new byte[ulpduSize];
        new Random(42).nextBytes(data);
        payload = alloc.directBuffer(ulpduSize).writeBytes(data);
        writer = new FpduWriter(crc, markers, 65535, 0);
        stream = alloc.directBuffer();
        FpduWriter w = new FpduWriter(crc, markers, 65535, 0);
        for (int i = 0; i < STREAM_FPDUS; i++) {
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
            stream.readerIndex(0);
            reader = new FpduReader(crc, markers, 65535, 0);
        }
        ByteBuf ulpdu = reader.read(stream, alloc);
        bh.consume(ulpdu.readableBytes());
        ulpdu.release();
    }
}
