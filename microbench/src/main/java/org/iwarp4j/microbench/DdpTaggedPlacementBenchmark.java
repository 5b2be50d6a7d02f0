package org.iwarp4j.microbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiveListener;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.receive.UntaggedAdmission;
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

import java.util.concurrent.TimeUnit;

/**
 * DDP decode + tagged placement (RFC 5041 §5, §7.1): one received RDMA Write segment with
 * {@code payloadSize} octets goes through header parse, admission, STag lookup, the RFC 5041 §7.1 checks
 * and one copy into a direct registered region. 65521 octets is the largest payload an MPA ULPDU
 * (≤ 65535 octets) can carry after the 14-octet header. Expected allocation: 0 B/op.
 * Throughput in GB/s = ops/s × payloadSize.
 *
 * <p>Runs on {@link EventLoopThreadExecutor} threads (Netty event-loop thread type).
 *
 * <p>{@code java -jar microbench/target/benchmarks.jar DdpTaggedPlacement -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {EventLoopThreadExecutor.JMH_EXECUTOR, EventLoopThreadExecutor.JMH_EXECUTOR_CLASS})
public class DdpTaggedPlacementBenchmark {

    private static final int STAG = 0x1a2b3c4d;
    private static final long BASE_TO = 0x7f0000100000L;

    @Param({"1024", "65521"})
    int payloadSize;

    private ByteBuf segment;
    private ByteBuf memory;
    private DdpReceiver receiver;
    private ByteBufTaggedBuffer region;

    /** An RDMAP-like listener: admits Writes, counts what it is told. */
    static final class Listener implements DdpReceiveListener {
        long placed;
        long messages;

        @Override
        public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                                  ByteBuf segment) {
            return rsvdUlp == 0x40 ? TaggedAdmission.REMOTE_WRITE : TaggedAdmission.REJECT;
        }

        @Override
        public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                      int payloadLength, boolean last, ByteBuf segment) {
            return UntaggedAdmission.PLACE;
        }

        @Override
        public void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {
            placed += payloadLength;
        }

        @Override
        public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
            messages++;
        }

        @Override
        public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                               UntaggedBuffer buffer) {
        }

        @Override
        public void onSegmentRejected(DdpException error) {
            throw new IllegalStateException(error);
        }
    }

    private final Listener listener = new Listener();

    @Setup(Level.Trial)
    public void setUp() {
        memory = PooledByteBufAllocator.DEFAULT.directBuffer(256 * 1024, 256 * 1024);
        // a registered region as the verbs layer implements it (RegionImpl's view is a ByteBufTaggedBuffer)
        region = ByteBufTaggedBuffer.writable(STAG, BASE_TO, memory, 1);
        receiver = new DdpReceiver(stag -> stag == STAG ? region : null, 1, this, DdpReceiver.QUEUES_RFC5040, listener);
        int length = TaggedHeaderFlyweight.HEADER_LENGTH + payloadSize;
        segment = PooledByteBufAllocator.DEFAULT.directBuffer(length, length);
        segment.writerIndex(length);
        new TaggedHeaderFlyweight().wrap(segment, 0).control(DdpControl.encode(true, true)).rsvdUlp(0x40).stag(STAG)
                .taggedOffset(BASE_TO + 4096);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (listener.placed == 0) {
            throw new IllegalStateException("nothing placed");
        }
        segment.release();
        memory.release();
    }

    @Benchmark
    public long decodeAndPlaceTaggedSegment() {
        // The receiver consumes (releases) one reference per segment; indexes are left untouched.
        receiver.receive(segment.retain());
        return listener.placed;
    }
}
