package org.iwarp4j.verbs.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.SocketChannel;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.internal.RnicImpl;
import org.iwarp4j.verbs.internal.Transports;

import java.util.Set;
import java.util.concurrent.ThreadFactory;

/**
 * The explicit Netty extras of the verbs API, for applications that already hold Netty buffers: register a
 * {@link ByteBuf} without copying, and choose the allocator of an RNIC's headers and control messages. The rest
 * of the API uses only {@link java.nio.ByteBuffer}.
 */
public final class NettyVerbs {

    private NettyVerbs() {}

    /**
     * {@code ibv_reg_mr} over indexes {@code 0..capacity()} of {@code buffer} (reader and writer indexes are
     * the application's). The region retains the buffer until it is closed and every operation using it has
     * finished. The base Tagged Offset is the native address for direct memory, else a unique synthetic base.
     *
     * @param pd     the protection domain
     * @param buffer the memory
     * @param access the rights
     * @return the region
     */
    public static MemoryRegion register(ProtectionDomain pd, ByteBuf buffer, Set<Access> access) {
        return RnicImpl.registerByteBuf(pd, buffer, access);
    }

    /**
     * Opens an RNIC whose headers and control messages come from {@code allocator} ({@code Rnic.open} uses Netty's
     * pooled allocator, {@code PooledByteBufAllocator.DEFAULT}, as every connection's channel does for what it
     * reads and the FPDUs it gathers, whatever the RNIC's allocator).
     *
     * @param config    the configuration
     * @param allocator the allocator, e.g. a fault-injecting one in tests
     * @return the RNIC
     */
    public static Rnic open(RnicConfig config, ByteBufAllocator allocator) {
        return new RnicImpl(config, allocator);
    }

    /**
     * The Netty event loop behind {@link CompletionQueue#executor()}, for what an executor cannot do: timers and
     * periodic tasks on the loop that runs the queue's handlers (e.g. a handler that also watches memory a peer's
     * RDMA Write fills, which no completion announces). The loop belongs to the RNIC: never shut it down.
     *
     * @param cq a completion queue of this stack
     * @return its event loop
     */
    public static EventLoop eventLoop(CompletionQueue cq) {
        return RnicImpl.eventLoopOf(cq);
    }

    /**
     * The transport an RNIC opened with {@code requested} runs on ({@link RnicConfig#transport()}).
     *
     * @param requested a transport, or {@code null}: epoll where available, else NIO
     * @return the transport
     * @throws IllegalStateException if the requested native transport is not available, with the reason
     */
    public static Transport resolve(Transport requested) {
        return Transports.resolve(requested);
    }

    /**
     * Event loops like an RNIC's, for plain TCP beside it on the same terms (as {@code iwarp perf tcp} runs).
     *
     * @param transport     a transport, or {@code null} as in {@link #resolve}
     * @param threads       event loops
     * @param busyPoll      loops that never sleep, as {@link RnicConfig#busyPoll()}
     * @param threadFactory their threads
     * @return the group; the caller shuts it down
     */
    public static EventLoopGroup newEventLoopGroup(Transport transport, int threads, boolean busyPoll,
                                                   ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory,
                Transports.ioHandlerFactory(resolve(transport), busyPoll));
    }

    /**
     * @param transport a transport, or {@code null} as in {@link #resolve}
     * @return its TCP socket channel type, for a {@code Bootstrap} on {@link #newEventLoopGroup}'s loops
     */
    public static Class<? extends SocketChannel> socketChannel(Transport transport) {
        return Transports.socketChannel(resolve(transport));
    }

    /**
     * @param transport a transport, or {@code null} as in {@link #resolve}
     * @return its TCP listening channel type, for a {@code ServerBootstrap} on {@link #newEventLoopGroup}'s loops
     */
    public static Class<? extends ServerChannel> serverChannel(Transport transport) {
        return Transports.serverChannel(resolve(transport));
    }
}
