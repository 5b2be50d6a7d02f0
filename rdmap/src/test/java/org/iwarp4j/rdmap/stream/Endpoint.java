package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;

import java.util.ArrayList;
import java.util.List;

/** One side of a test connection: a stream with its memory, listener and captured output. */
final class Endpoint implements AutoCloseable {

    static final long PD = 42;

    final TestMemory memory;
    private final boolean ownsMemory;
    private final ByteBufAllocator allocator;
    final RecordingListener listener = new RecordingListener();
    final CapturingLlp llp;
    final RdmapStream stream;
    final Object identity;
    private final List<ByteBuf> receiveBuffers = new ArrayList<>();

    Endpoint(RdmapStreamConfig config, int mulpdu) {
        this(config, mulpdu, new LockingAtomicExecutor());
    }

    Endpoint(RdmapStreamConfig config, int mulpdu, AtomicExecutor atomics) {
        this(config, mulpdu, atomics, ByteBufAllocator.DEFAULT);
    }

    /** An endpoint whose memory, receives, stream and lower layer all allocate from {@code allocator}. */
    Endpoint(RdmapStreamConfig config, int mulpdu, AtomicExecutor atomics, ByteBufAllocator allocator) {
        this(config, mulpdu, atomics, allocator, new TestMemory(allocator), true);
    }

    /**
     * An endpoint over memory that outlives it (registered once for many endpoints, e.g. a fuzz target's
     * inputs): {@link #close()} leaves {@code memory} to its owner.
     */
    Endpoint(RdmapStreamConfig config, int mulpdu, AtomicExecutor atomics, ByteBufAllocator allocator,
             TestMemory memory) {
        this(config, mulpdu, atomics, allocator, memory, false);
    }

    private Endpoint(RdmapStreamConfig config, int mulpdu, AtomicExecutor atomics, ByteBufAllocator allocator,
                     TestMemory memory, boolean ownsMemory) {
        this.allocator = allocator;
        this.memory = memory;
        this.ownsMemory = ownsMemory;
        this.identity = config.streamIdentity() != null ? config.streamIdentity() : new Object();
        this.llp = new CapturingLlp(mulpdu, allocator);
        this.stream = new RdmapStream(config.withProtectionDomain(PD, identity), memory, atomics, llp,
                allocator, listener);
    }

    /** An endpoint writing into another lower layer (e.g. {@link MpaLink}), which the caller closes. */
    Endpoint(RdmapStreamConfig config, LlpSegmentWriter lower, AtomicExecutor atomics) {
        this.allocator = ByteBufAllocator.DEFAULT;
        this.memory = new TestMemory();
        this.ownsMemory = true;
        this.identity = new Object();
        this.llp = new CapturingLlp(0);
        this.stream = new RdmapStream(config.withProtectionDomain(PD, identity), memory, atomics, lower,
                ByteBufAllocator.DEFAULT, listener);
    }

    static Endpoint create() {
        return new Endpoint(RdmapStreamConfig.defaults(), 1500);
    }

    /** Posts a receive of {@code capacity} octets and returns its buffer. */
    ByteBuf postReceive(long id, int capacity) {
        ByteBuf buf = allocator.directBuffer(capacity, capacity);
        buf.setZero(0, capacity);
        receiveBuffers.add(buf);
        stream.postReceive(id, new ByteBufUntaggedBuffer(buf));
        return buf;
    }

    static ByteBuf data(byte[] bytes) {
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }

    static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i * 7);
        }
        return b;
    }

    /** Writes every segment the stream wants to send now (acknowledging them at once). */
    int flush() {
        int n = 0;
        while (stream.writeNextSegment()) {
            n++;
        }
        stream.segmentsWritten(n);
        return n;
    }

    @Override
    public void close() {
        stream.close();
        if (ownsMemory) {
            memory.close();
        }
        for (ByteBuf b : receiveBuffers) {
            b.release();
        }
    }
}
