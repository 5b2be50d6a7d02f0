package org.iwarp4j.rdmap.atomic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/** Byte order of the target word and RNIC-wide atomicity [EXT-05]. */
class LockingAtomicExecutorTest {

    @Test
    void defaultMemoryOrderIsLittleEndian() {
        ByteBuf mem = PooledByteBufAllocator.DEFAULT.directBuffer(16).writeZero(16);
        try {
            mem.setLongLE(8, 41);
            LockingAtomicExecutor executor = new LockingAtomicExecutor();
            assertThat(executor.memoryOrder()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
            assertThat(executor.fetchAdd(mem, 8, 1, 0)).isEqualTo(41);
            assertThat(mem.getLongLE(8)).isEqualTo(42);
            assertThat(mem.getByte(8)).isEqualTo((byte) 42);
            assertThat(mem.getLong(0)).isZero(); // neighbouring word untouched
        } finally {
            mem.release();
        }
    }

    @Test
    void bigEndianMemoryOrder() {
        ByteBuf mem = PooledByteBufAllocator.DEFAULT.heapBuffer(8).writeZero(8);
        try {
            mem.setLong(0, 0x64);
            LockingAtomicExecutor executor = new LockingAtomicExecutor(4, ByteOrder.BIG_ENDIAN);
            assertThat(executor.compareSwap(mem, 0, 0x64, -1L, 0x1111111111111111L, -1L)).isEqualTo(0x64);
            assertThat(mem.getLong(0)).isEqualTo(0x1111111111111111L);
            // mismatch leaves memory unchanged and still returns the original
            assertThat(executor.compareSwap(mem, 0, 0x64, -1L, 5, -1L)).isEqualTo(0x1111111111111111L);
            assertThat(mem.getLong(0)).isEqualTo(0x1111111111111111L);
        } finally {
            mem.release();
        }
    }

    @Test
    void concurrentFetchAddsThroughOneExecutorNeverLoseAnUpdate() throws Exception {
        ByteBuf mem = PooledByteBufAllocator.DEFAULT.directBuffer(64).writeZero(64);
        try {
            LockingAtomicExecutor executor = new LockingAtomicExecutor(16, ByteOrder.LITTLE_ENDIAN);
            int threads = 4;
            int perThread = 20_000;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                // every thread uses its own view of the same memory, as different streams would
                ByteBuf view = mem.duplicate();
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        executor.fetchAdd(view, 16, 1, 0);
                    }
                });
                w.start();
                workers.add(w);
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            assertThat(mem.getLongLE(16)).isEqualTo((long) threads * perThread);
        } finally {
            mem.release();
        }
    }
}
