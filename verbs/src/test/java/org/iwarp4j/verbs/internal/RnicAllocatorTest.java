package org.iwarp4j.verbs.internal;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.netty.NettyVerbs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Netty's pooled allocator: every connection's channel, on both sides, allocates from it (its reads, its FPDUs),
 * whatever the RNIC's own allocator; and that one ({@link RnicImpl#allocator()}, headers and control messages) is
 * it too unless the application gives another ({@code NettyVerbs.open}). And the reason for pooled: its buffers
 * hand their {@code ByteBuffer} view and their slices out again, where adaptive ones make new objects each time.
 */
class RnicAllocatorTest {

    @Test
    void theDefaultIsNettysPooledAllocator() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().name("default").eventLoopThreads(1).build())) {
            assertThat(((RnicImpl) rnic).allocator()).isSameAs(PooledByteBufAllocator.DEFAULT);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"NIO", "EPOLL"})
    void bothEndsOfAConnectionAllocateFromThePool(Transport transport) throws Exception {
        assumeTrue(transport != Transport.EPOLL || Epoll.isAvailable(), "SKIPPED LOUDLY: epoll is not available");
        ByteBufAllocator own = new PooledByteBufAllocator(true);
        try (Rnic server = Rnic.open(RnicConfig.builder().name("server").transport(transport).build());
             Rnic client = NettyVerbs.open(RnicConfig.builder().name("client").transport(transport).build(), own)) {
            OutboundBufferTest.Pair p = OutboundBufferTest.connect(server, client, 64);
            assertThat(allocator(p.server())).isSameAs(PooledByteBufAllocator.DEFAULT);
            assertThat(allocator(p.client())).as("whatever the RNIC's own").isSameAs(PooledByteBufAllocator.DEFAULT);
            assertThat(((RnicImpl) client).allocator()).isSameAs(own);
        }
    }

    /**
     * Why pooled: on an event loop's kind of thread, a pooled buffer's memory comes back with the same
     * {@code ByteBuffer} view (MPA's CRC32C reads each received FPDU through it) and its retained slice object is
     * recycled (the framing between large FPDUs is written as such slices); an adaptive buffer's are new each time.
     */
    @Test
    void aPooledBufferReusesItsViewAndSlicesAndAnAdaptiveOneDoesNot() throws Exception {
        CompletableFuture<boolean[]> same = new CompletableFuture<>();
        Thread loopLike = new FastThreadLocalThread(() -> {
            try {
                ByteBufAllocator adaptive = new AdaptiveByteBufAllocator();
                same.complete(new boolean[] {
                        sameViewTwice(PooledByteBufAllocator.DEFAULT), sameViewTwice(adaptive),
                        sameSliceTwice(PooledByteBufAllocator.DEFAULT), sameSliceTwice(adaptive)});
            } catch (Throwable t) {
                same.completeExceptionally(t);
            }
        });
        loopLike.start();
        boolean[] r = same.get(20, TimeUnit.SECONDS);
        assertThat(r[0]).as("pooled: the same view").isTrue();
        assertThat(r[1]).as("adaptive: a new view").isFalse();
        assertThat(r[2]).as("pooled: the same slice object").isTrue();
        assertThat(r[3]).as("adaptive: a new slice object").isFalse();
    }

    private static ByteBufAllocator allocator(Connection c) {
        return ((ConnectionImpl) c).channel().config().getAllocator();
    }

    private static boolean sameViewTwice(ByteBufAllocator alloc) {
        ByteBuf b = alloc.directBuffer(4096);
        ByteBuffer first = b.internalNioBuffer(0, 4096);
        b.release();
        b = alloc.directBuffer(4096);
        ByteBuffer second = b.internalNioBuffer(0, 4096);
        b.release();
        return first == second;
    }

    private static boolean sameSliceTwice(ByteBufAllocator alloc) {
        ByteBuf b = alloc.directBuffer(4096).writeZero(4096);
        try {
            ByteBuf first = b.retainedSlice(0, 1024);
            first.release();
            ByteBuf second = b.retainedSlice(0, 1024);
            second.release();
            return unwrapped(first) == unwrapped(second);
        } finally {
            b.release();
        }
    }

    /** The slice itself, not the leak detector's wrapper around it (the tests run with PARANOID detection). */
    private static ByteBuf unwrapped(ByteBuf slice) {
        return slice.getClass().getSimpleName().contains("LeakAware") ? slice.unwrap() : slice;
    }
}
