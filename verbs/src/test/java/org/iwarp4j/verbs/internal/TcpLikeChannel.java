package org.iwarp4j.verbs.internal;

import io.netty.channel.embedded.EmbeddedChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * An {@link EmbeddedChannel} (connected, registered, no handlers) with the addresses of a TCP connection, as the
 * connection manager reports them: what {@link RnicImpl#connectOver} runs a queue pair's pipeline on in tests.
 */
final class TcpLikeChannel extends EmbeddedChannel {

    static final InetSocketAddress LOCAL = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000);
    static final InetSocketAddress REMOTE = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4791);

    /** Registered with its own loop, as {@code new EmbeddedChannel()}. */
    TcpLikeChannel() {
    }

    /** {@code register} false: for a loop of the caller's choice ({@code loop.register(channel)}). */
    TcpLikeChannel(boolean register) {
        super(false, register);
    }

    @Override
    protected SocketAddress localAddress0() {
        return isActive() ? LOCAL : null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return isActive() ? REMOTE : null;
    }
}
