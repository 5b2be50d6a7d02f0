package org.iwarp4j.conformance.support;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.netty.MpaStartupHandler;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The stack under test on real loopback TCP sockets (Netty NIO): an MPA Initiator that connects to a
 * {@link org.iwarp4j.testkit.peer.ScriptedPeer}, or an MPA Responder that a scripted peer connects to,
 * each with a {@link StackProbe} above MPA. Closes every channel and its event loop on {@link #close()}.
 */
public final class LoopbackStack implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final List<Channel> channels = new ArrayList<>();
    private boolean halfClosure;

    /** Let the stack see a peer's FIN as {@code ChannelInputShutdownEvent} (half-closed connection). */
    public LoopbackStack allowHalfClosure() {
        halfClosure = true;
        return this;
    }

    /** Connects an MPA Initiator to {@code peer}; returns its probe once the TCP connection is up. */
    public StackProbe initiator(InetSocketAddress peer, MpaConfig config) {
        return initiator(peer, config, new StackProbe());
    }

    /** As {@link #initiator(InetSocketAddress, MpaConfig)} with a probe prepared by the test. */
    public StackProbe initiator(InetSocketAddress peer, MpaConfig config, StackProbe probe) {
        return connect(peer, () -> MpaStartupHandler.initiator(config), probe);
    }

    /** Connects a channel whose pipeline is {@code handler} + probe (e.g. a plain TCP client). */
    public StackProbe connect(InetSocketAddress peer, Supplier<ChannelHandler> handler, StackProbe probe) {
        Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, halfClosure)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(handler.get(), probe);
                    }
                })
                .connect(peer).syncUninterruptibly().channel();
        synchronized (channels) {
            channels.add(ch);
        }
        return probe;
    }

    /** A listening MPA Responder: its address and the probe of the (one) connection it will accept. */
    public record Listener(InetSocketAddress address, StackProbe probe, CompletableFuture<Channel> accepted) {}

    /** Listens on 127.0.0.1 with an MPA Responder above each accepted connection. */
    public Listener responder(MpaConfig config) {
        return responder(config, new StackProbe());
    }

    /** As {@link #responder(MpaConfig)} with a probe prepared by the test. */
    public Listener responder(MpaConfig config, StackProbe probe) {
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, halfClosure)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(MpaStartupHandler.responder(config), probe);
                        synchronized (channels) {
                            channels.add(c);
                        }
                        accepted.complete(c);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        synchronized (channels) {
            channels.add(server);
        }
        return new Listener((InetSocketAddress) server.localAddress(), probe, accepted);
    }

    @Override
    public void close() {
        List<Channel> all;
        synchronized (channels) {
            all = new ArrayList<>(channels);
        }
        for (Channel c : all) {
            c.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
