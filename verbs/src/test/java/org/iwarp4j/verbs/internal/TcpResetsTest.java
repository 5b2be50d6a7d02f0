package org.iwarp4j.verbs.internal;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.Errors;
import org.iwarp4j.verbs.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each transport raises when the peer resets the connection (a socket closed with SO_LINGER 0 sends RST),
 * on the read path and on the write path, and that nothing else counts as a reset.
 */
class TcpResetsTest {

    static Stream<Transport> transports() {
        return Epoll.isAvailable() ? Stream.of(Transport.NIO, Transport.EPOLL) : Stream.of(Transport.NIO);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aResetReadFromThePeerIsAReset(Transport t) throws Exception {
        Throwable seen = failureAfterPeerReset(t, false);
        assertThat(seen).isInstanceOf(IOException.class);
        assertThat(TcpResets.isPeerReset(seen)).as("%s", seen).isTrue();
    }

    /** Not reading, we learn of the reset from a write (NIO: a plain IOException; epoll still reports the read). */
    @ParameterizedTest
    @MethodSource("transports")
    void aResetMetByAWriteIsAReset(Transport t) throws Exception {
        Throwable seen = failureAfterPeerReset(t, true);
        assertThat(seen).isInstanceOf(IOException.class);
        assertThat(TcpResets.isPeerReset(seen)).as("%s", seen).isTrue();
    }

    @Test
    void otherFailuresAreNotResets() {
        assertThat(TcpResets.isPeerReset(new ClosedChannelException())).isFalse();
        assertThat(TcpResets.isPeerReset(new IOException("Broken pipe"))).isFalse();
        assertThat(TcpResets.isPeerReset(new IOException("Connection timed out"))).isFalse();
        assertThat(TcpResets.isPeerReset(new IOException("reset"))).as("text alone is no reset").isFalse();
        assertThat(TcpResets.isPeerReset(new ConnectException("Connection refused"))).isFalse();
        assertThat(TcpResets.isPeerReset(new SocketException("Connection reset") { })).as("a subclass").isFalse();
        assertThat(TcpResets.isPeerReset(new IllegalStateException("Connection reset by peer"))).isFalse();
        if (Epoll.isAvailable()) {
            assertThat(TcpResets.isPeerReset(Errors.newIOException("writevAddresses", Errors.ERRNO_EPIPE_NEGATIVE)))
                    .isFalse();
            assertThat(TcpResets.isPeerReset(
                    Errors.newConnectionResetException("recvAddress", Errors.ERRNO_ECONNRESET_NEGATIVE))).isTrue();
        }
    }

    /** The first failure our side of a connection sees after the peer closed it with RST. */
    private static Throwable failureAfterPeerReset(Transport t, boolean writeOnly) throws Exception {
        boolean epoll = t == Transport.EPOLL;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        try {
            Channel server = new ServerBootstrap().group(group)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.AUTO_READ, !writeOnly)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            accepted.complete(ctx.channel());
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            failure.complete(cause);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            try (Socket peer = new Socket(InetAddress.getLoopbackAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort())) {
                Channel ours = accepted.get(10, TimeUnit.SECONDS);
                peer.setSoLinger(true, 0);
                peer.close();
                if (writeOnly) {
                    // Until the RST has arrived a write succeeds; keep writing until one fails.
                    for (int i = 0; i < 200 && !failure.isDone(); i++) {
                        ours.writeAndFlush(Unpooled.wrappedBuffer(new byte[64])).addListener(f -> {
                            if (!f.isSuccess()) {
                                failure.complete(f.cause());
                            }
                        });
                        Thread.sleep(10);
                    }
                }
                Throwable seen = failure.get(10, TimeUnit.SECONDS);
                server.close().sync();
                return seen;
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
