package org.iwarp4j.mpa.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.Mulpdu;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two peers over real loopback TCP sockets negotiate Rev 2 with CRC and markers through
 * MpaStartupHandler and exchange 10,000 random ULPDUs in each direction; all must arrive intact and
 * in order (and nothing may leak: LeakDetectionExtension). Without markers and with loopback's EMSS the
 * FPDUs are long enough for {@link FpduReadSizes} to size the reads, over each transport's own read loop.
 */
class LoopbackTest {

    private static final int COUNT = 10_000;
    /** EMSS 9000 (jumbo frames) with markers: MULPDU 8922 (RFC 5044 §4.5), the same on both peers. */
    private static final MpaConfig MARKERS = MpaConfig.builder().revision(2).crc(true).markers(true).emss(9000)
            .build();
    /** EMSS 32,768 without markers: MULPDU 32,734, FPDUs whose reads {@link FpduReadSizes} sizes. */
    private static final MpaConfig LONG_FPDUS = MpaConfig.builder().revision(2).crc(true).markers(false)
            .emss(32_768).build();

    @Test
    void nio() throws Exception {
        overNio(MARKERS);
    }

    @Test
    void epoll() throws Exception {
        overEpoll(MARKERS);
    }

    @Test
    void nioLongFpdus() throws Exception {
        overNio(LONG_FPDUS);
    }

    @Test
    void epollLongFpdus() throws Exception {
        overEpoll(LONG_FPDUS);
    }

    private void overNio(MpaConfig cfg) throws Exception {
        run(NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class, cfg);
    }

    private void overEpoll(MpaConfig cfg) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll not available");
        run(EpollIoHandler.newFactory(), EpollServerSocketChannel.class, EpollSocketChannel.class, cfg);
    }

    /** Sends COUNT ULPDUs generated from a seed and checks the COUNT it receives from the peer's seed. */
    static final class Peer extends ChannelInboundHandlerAdapter {
        final long sendSeed;
        final Random expected;
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CompletableFuture<MpaParameters> params = new CompletableFuture<>();
        final int mulpdu;
        int received;

        Peer(long sendSeed, long receiveSeed, int mulpdu) {
            this.sendSeed = sendSeed;
            this.expected = new Random(receiveSeed);
            this.mulpdu = mulpdu;
        }

        static int size(Random r, int mulpdu) {
            return r.nextInt(10) == 0 ? r.nextInt(mulpdu + 1) : r.nextInt(Math.min(mulpdu, 2048) + 1);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof MpaEstablishedEvent e) {
                params.complete(e.parameters());
                Random r = new Random(sendSeed);
                for (int i = 0; i < COUNT; i++) {
                    int n = size(r, e.parameters().mulpdu());
                    byte[] data = new byte[n];
                    r.nextBytes(data);
                    if (i % 2 == 0) {
                        ctx.write(ctx.alloc().directBuffer(Math.max(1, n)).writeBytes(data));
                    } else {
                        int h = Math.min(n, 18);
                        e.sender().send(ctx.alloc().directBuffer(Math.max(1, h)).writeBytes(data, 0, h),
                                ctx.alloc().heapBuffer(Math.max(1, n - h)).writeBytes(data, h, n - h),
                                ctx.voidPromise());
                    }
                    if (i % 64 == 63) {
                        ctx.flush();
                    }
                }
                ctx.flush();
            } else if (evt instanceof MpaStartupEvent other) {
                failure.compareAndSet(null, new AssertionError("startup: " + other));
                done.countDown();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                int n = size(expected, mulpdu);
                byte[] want = new byte[n];
                expected.nextBytes(want);
                byte[] got = new byte[b.readableBytes()];
                b.readBytes(got);
                if (!Arrays.equals(want, got)) {
                    failure.compareAndSet(null, new AssertionError("ULPDU " + received + " differs: " + got.length
                            + " octets, expected " + n));
                    done.countDown();
                }
                if (++received == COUNT) {
                    done.countDown();
                }
            } finally {
                b.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failure.compareAndSet(null, cause);
            done.countDown();
        }
    }

    private void run(IoHandlerFactory io, Class<? extends ServerSocketChannel> serverType,
                     Class<? extends SocketChannel> clientType, MpaConfig cfg) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, io);
        int mulpdu = Mulpdu.of(cfg.emss(), cfg.markers());
        Peer server = new Peer(11, 22, mulpdu);
        Peer client = new Peer(22, 11, mulpdu);
        try {
            Channel listener = new ServerBootstrap().group(group).channel(serverType)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(MpaStartupHandler.responder(cfg), server);
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            Channel ch = new Bootstrap().group(group).channel(clientType)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            c.pipeline().addLast(MpaStartupHandler.initiator(cfg), client);
                        }
                    }).connect(listener.localAddress()).sync().channel();
            MpaParameters cp = client.params.get(10, TimeUnit.SECONDS);
            MpaParameters sp = server.params.get(10, TimeUnit.SECONDS);
            assertThat(cp.mulpdu()).isEqualTo(mulpdu);
            assertThat(sp.mulpdu()).isEqualTo(mulpdu);
            assertThat(cp.revision()).isEqualTo(2);
            assertThat(cp.crc()).isTrue();
            assertThat(cp.txMarkers()).isEqualTo(cfg.markers());
            assertThat(cp.rxMarkers()).isEqualTo(cfg.markers());
            assertThat(sp.txMarkers()).isEqualTo(cfg.markers());
            assertThat((Object) ch.config().getRecvByteBufAllocator()).isInstanceOf(FpduReadSizes.class);
            assertThat(client.done.await(60, TimeUnit.SECONDS)).as("client received all").isTrue();
            assertThat(server.done.await(60, TimeUnit.SECONDS)).as("server received all").isTrue();
            assertThat(client.failure.get()).isNull();
            assertThat(server.failure.get()).isNull();
            assertThat(client.received).isEqualTo(COUNT);
            assertThat(server.received).isEqualTo(COUNT);
            ch.close().sync();
            listener.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
