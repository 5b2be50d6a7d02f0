package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringSocketChannel;
import jdk.net.ExtendedSocketOptions;
import org.iwarp4j.verbs.cm.TcpKeepalive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sets a connection's {@link TcpKeepalive} on its channel, with the options of its transport: Netty's epoll and
 * io_uring options, or the JDK's extended socket options for NIO.
 */
final class TcpLiveness {

    private static final Logger LOG = LoggerFactory.getLogger(TcpLiveness.class);
    private static final AtomicBoolean NIO_USER_TIMEOUT_WARNED = new AtomicBoolean();

    private TcpLiveness() {
    }

    /** Sets {@code k} on {@code ch} before it connects or is registered; {@code k == null}: nothing (off). */
    static void apply(Channel ch, TcpKeepalive k) {
        if (k == null) {
            return;
        }
        ChannelConfig c = ch.config();
        int idle = (int) k.idle().getSeconds();
        int interval = (int) k.interval().getSeconds();
        int userTimeout = (int) k.userTimeout().toMillis();
        boolean set = c.setOption(ChannelOption.SO_KEEPALIVE, true);
        if (ch instanceof EpollSocketChannel) {
            set &= c.setOption(EpollChannelOption.TCP_KEEPIDLE, idle)
                    & c.setOption(EpollChannelOption.TCP_KEEPINTVL, interval)
                    & c.setOption(EpollChannelOption.TCP_KEEPCNT, k.probes());
            if (userTimeout > 0) {
                set &= c.setOption(EpollChannelOption.TCP_USER_TIMEOUT, userTimeout);
            }
        } else if (ch instanceof IoUringSocketChannel) {
            set &= c.setOption(IoUringChannelOption.TCP_KEEPIDLE, idle)
                    & c.setOption(IoUringChannelOption.TCP_KEEPINTVL, interval)
                    & c.setOption(IoUringChannelOption.TCP_KEEPCNT, k.probes());
            if (userTimeout > 0) {
                set &= c.setOption(IoUringChannelOption.TCP_USER_TIMEOUT, userTimeout);
            }
        } else if (ch instanceof NioSocketChannel) {
            set &= c.setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE), idle)
                    & c.setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL), interval)
                    & c.setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT), k.probes());
            if (userTimeout > 0 && NIO_USER_TIMEOUT_WARNED.compareAndSet(false, true)) {
                LOG.warn("TCP_USER_TIMEOUT is not available with Transport.NIO (JDK 17 has no such socket option):"
                        + " only keepalive is set; use Transport.EPOLL for it");
            }
        }
        if (!set) {
            LOG.warn("{}: the transport refused part of {}", ch, k);
        }
    }
}
