package org.iwarp4j.mpa.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import org.iwarp4j.mpa.Mulpdu;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/** The EMSS for MULPDU (RFC 5044 §4.5): configured, else TCP_INFO's snd_mss, else the default. */
class EmssProbeTest {

    @Test
    void aConfiguredValueWins() {
        assertThat(EmssProbe.emss(new EmbeddedChannel(), 9000)).isEqualTo(9000);
    }

    @Test
    void aChannelWithoutTcpInfoGetsTheDefault() {
        assertThat(EmssProbe.emss(new EmbeddedChannel(), 0)).isEqualTo(Mulpdu.DEFAULT_EMSS);
    }

    @Test
    void anEpollConnectionReportsTheKernelsSendMss() throws Exception {
        assumeThat(Epoll.isAvailable()).as("epoll on this machine").isTrue();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            Channel server = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter())
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            EpollSocketChannel client = (EpollSocketChannel) new Bootstrap().group(group)
                    .channel(EpollSocketChannel.class).handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).sync().channel();
            int expected = (int) client.tcpInfo().sndMss();
            assertThat(expected).isPositive();
            // twice: the second call goes through the cached methods
            assertThat(EmssProbe.emss(client, 0)).isEqualTo(expected);
            assertThat(EmssProbe.emss(client, 0)).isEqualTo(expected);
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
