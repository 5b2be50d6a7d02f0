package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** An established connection: the queue pair, what MPA negotiated, and disconnect/close. */
final class ConnectionImpl implements Connection {

    private final ConnectionControl control;
    private final QueuePairImpl qp;
    private final ConnectionParameters parameters;
    private final Channel channel;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    ConnectionImpl(ConnectionControl control, QueuePairImpl qp, MpaParameters params, Channel channel) {
        this.control = control;
        this.qp = qp;
        this.parameters = ConnectionParameters.of(params);
        this.channel = channel;
        channel.closeFuture().addListener(f -> closed.complete(null));
    }

    @Override
    public QueuePair queuePair() {
        return qp;
    }

    @Override
    public ConnectionParameters parameters() {
        return parameters;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    @Override
    public CompletionStage<Void> disconnect() {
        return control.disconnect();
    }

    @Override
    public void close() {
        control.abort();
    }

    @Override
    public CompletionStage<Void> closeFuture() {
        return closed;
    }

    @Override
    public String toString() {
        return "Connection[" + channel + " qp=" + qp.number() + "]";
    }
}
