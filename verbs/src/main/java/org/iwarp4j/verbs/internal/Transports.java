package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import org.iwarp4j.verbs.Transport;

import java.nio.channels.spi.SelectorProvider;

/**
 * What each {@link Transport} is in Netty: its I/O handler and channel types, and whether it is available here.
 * One place for the RNIC's connection manager and for tools that run plain TCP beside it.
 */
public final class Transports {

    /**
     * Never block: every turn of the loop asks the kernel for ready sockets without waiting (a select-now) and then
     * runs its tasks, the same path on epoll and NIO. (Netty's {@code SelectStrategy.BUSY_WAIT} is a native loop
     * on epoll only; NIO treats it as a blocking select.)
     */
    private static final SelectStrategyFactory NEVER_BLOCK = () -> (selectNow, hasTasks) -> selectNow.get();

    private Transports() {}

    /**
     * The transport to use for {@code requested}.
     *
     * @param requested a transport, or {@code null}: epoll where available, else NIO
     * @return the transport
     * @throws IllegalStateException if the requested native transport is not available, with the reason
     */
    public static Transport resolve(Transport requested) {
        if (requested == null) {
            return Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO;
        }
        if (requested == Transport.EPOLL && !Epoll.isAvailable()) {
            throw new IllegalStateException("epoll is not available: " + Epoll.unavailabilityCause());
        }
        if (requested == Transport.IO_URING && !IoUring.isAvailable()) {
            throw new IllegalStateException("io_uring is not available: " + IoUring.unavailabilityCause());
        }
        return requested;
    }

    /**
     * The I/O handler of event loops on {@code transport}.
     *
     * @param transport a resolved transport
     * @param busyPoll  loops that never sleep (a core each): epoll and NIO only
     * @return the factory
     * @throws IllegalArgumentException busy polling on io_uring
     */
    public static IoHandlerFactory ioHandlerFactory(Transport transport, boolean busyPoll) {
        if (busyPoll && transport == Transport.IO_URING) {
            throw new IllegalArgumentException("busy polling needs epoll or NIO: io_uring's loop waits in the kernel");
        }
        return switch (transport) {
            case EPOLL -> busyPoll ? EpollIoHandler.newFactory(0, NEVER_BLOCK) : EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO -> busyPoll ? NioIoHandler.newFactory(SelectorProvider.provider(), NEVER_BLOCK)
                    : NioIoHandler.newFactory();
        };
    }

    /**
     * @param transport a resolved transport
     * @return its TCP socket channel type
     */
    public static Class<? extends SocketChannel> socketChannel(Transport transport) {
        return switch (transport) {
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    /**
     * @param transport a resolved transport
     * @return its TCP listening channel type
     */
    public static Class<? extends ServerChannel> serverChannel(Transport transport) {
        return switch (transport) {
            case EPOLL -> EpollServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    /**
     * Sets {@code TCP_NOTSENT_LOWAT} ({@link org.iwarp4j.verbs.RnicConfig#tcpNotSentLowat()}) on a TCP channel
     * before it connects or is registered: at most {@code octets} unsent octets in its socket.
     *
     * @param ch     an epoll or io_uring socket channel (NIO has no such option)
     * @param octets the limit; 0 leaves the kernel's default
     * @return whether the option was set (false for 0, for NIO, or where the kernel refused it)
     */
    public static boolean setNotSentLowat(Channel ch, int octets) {
        if (octets <= 0) {
            return false;
        }
        ChannelOption<Long> option = ch instanceof EpollSocketChannel ? EpollChannelOption.TCP_NOTSENT_LOWAT
                : ch instanceof IoUringSocketChannel ? IoUringChannelOption.TCP_NOTSENT_LOWAT : null;
        return option != null && ch.config().setOption(option, (long) octets);
    }
}
