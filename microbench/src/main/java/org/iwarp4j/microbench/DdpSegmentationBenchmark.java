package org.iwarp4j.microbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
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

import java.util.concurrent.TimeUnit;

/**
 * DDP segment encode (RFC 5041 §5.2): one tagged message of {@code messageSize} octets cut into segments for
 * the MULPDU of a 1460-octet MSS without markers (1454, mpa/mulpdu-table), handed to a lower layer that
 * only releases the header and payload buffers. Zero-copy: the payloads are retained slices of the
 * message, the headers pooled buffers. Throughput in GB/s = ops/s × messageSize.
 *
 * <p>Runs on {@link EventLoopThreadExecutor} threads (Netty event-loop thread type).
 *
 * <p>{@code java -jar microbench/target/benchmarks.jar DdpSegmentation -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreadExecutor.JMH_EXECUTOR, EventLoopThreadExecutor.JMH_EXECUTOR_CLASS})
public class DdpSegmentationBenchmark {

    /** MULPDU for a 1460-octet EMSS without markers (vectors/mpa/mulpdu-table.vec). */
    static final int MULPDU = 1454;

    @Param({"65536", "1048576"})
    int messageSize;

    private ByteBuf message;
    private DdpSender sender;
    private ReleasingLlp llp;

    /** A lower layer that consumes each segment like a gathered write would, then releases it. */
    static final class ReleasingLlp implements LlpSegmentWriter {
        Blackhole blackhole;
        long octets;

        @Override
        public int mulpdu() {
            return MULPDU;
        }

        @Override
        public void writeSegment(ByteBuf header, ByteBuf payload) {
            octets += header.readableBytes() + payload.readableBytes();
            blackhole.consume(header.getByte(0));
            header.release();
            payload.release();
        }
    }

    @Setup(Level.Trial)
    public void setUp(Blackhole blackhole) {
        message = PooledByteBufAllocator.DEFAULT.directBuffer(messageSize, messageSize);
        message.writerIndex(messageSize);
        llp = new ReleasingLlp();
        llp.blackhole = blackhole;
        sender = new DdpSender(llp, PooledByteBufAllocator.DEFAULT, 3);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        message.release();
    }

    @Benchmark
    public long segmentTaggedMessage() {
        // The sender takes ownership of one reference per message.
        sender.tagged(0x40, 0x1a2b3c4d, 0x100000, message.retain()).writeAll();
        return llp.octets;
    }
}
