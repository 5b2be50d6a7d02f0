package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** An established connection: the queue pair, what MPA negotiated, and disconnect/close. */
final class ConnectionImpl implements Connection {

    private final ConnectionControl control;
    private final QueuePairImpl qp;
    private final ConnectionParameters parameters;
    private final Channel channel;
    private final LoopSafeFuture<CmEvent.Disconnected> closed = new LoopSafeFuture<>();
    private volatile boolean sendsHeld;

    ConnectionImpl(ConnectionControl control, QueuePairImpl qp, MpaParameters params, Channel channel,
                   boolean sendsHeld) {
        this.control = control;
        this.qp = qp;
        this.parameters = parameters(params);
        this.channel = channel;
        this.sendsHeld = sendsHeld;
    }

    /** What the API shows of MPA's result. */
    static ConnectionParameters parameters(MpaParameters p) {
        return new ConnectionParameters(p.revision(), p.crc(), p.txMarkers(), p.rxMarkers(), p.ird(), p.ord(),
                MpaConfigs.depth(p.peerIrd()), MpaConfigs.depth(p.peerOrd()), p.peerToPeer(),
                Optional.ofNullable(p.rtr()), p.mulpdu(), p.localPrivateData(), p.peerPrivateData());
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

    /** The connection's channel (tests look at the options it was given). */
    Channel channel() {
        return channel;
    }

    @Override
    public boolean sendsHeld() {
        return sendsHeld;
    }

    /** The Initiator's first FPDU arrived: the Responder's FPDUs flow (RFC 5044 §7.1.2 rule 4). */
    void sendsReleased() {
        sendsHeld = false;
    }

    @Override
    public CompletableFuture<Void> disconnect() {
        return control.disconnect();
    }

    @Override
    public void close() {
        control.abort();
    }

    @Override
    public CompletableFuture<CmEvent.Disconnected> closeFuture() {
        return closed;
    }

    /** On the loop, once: the connection ended. */
    void disconnected(CmEvent.Disconnected event) {
        closed.complete(event);
    }

    @Override
    public String toString() {
        return "Connection[" + channel + " qp=" + qp.number() + "]";
    }
}
