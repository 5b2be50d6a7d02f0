package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;

/** A listening server channel and the handler its connection requests go to. */
final class ListenerImpl implements Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerImpl.class);

    private final RnicImpl rnic;
    private final ListenOptions options;
    private final ConnectionRequestHandler handler;
    private volatile Channel channel;
    private volatile OutputStream pcap;

    ListenerImpl(RnicImpl rnic, ListenOptions options, ConnectionRequestHandler handler) {
        this.rnic = rnic;
        this.options = options;
        this.handler = handler;
    }

    void bound(Channel serverChannel, OutputStream pcapStream) {
        this.channel = serverChannel;
        this.pcap = pcapStream;
    }

    RnicImpl rnic() {
        return rnic;
    }

    ListenOptions options() {
        return options;
    }

    void dispatch(ConnectionRequestImpl request) {
        try {
            handler.onConnectionRequest(request);
        } catch (RuntimeException e) {
            LOG.warn("connection request handler failed; rejecting", e);
            request.reject(new byte[0]);
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        Channel c = channel;
        if (c != null) {
            c.close().syncUninterruptibly();
        }
        OutputStream p = pcap;
        if (p != null) {
            try {
                synchronized (p) {
                    p.close();
                }
            } catch (IOException e) {
                LOG.warn("closing the pcap file failed", e);
            }
        }
        rnic.listenerClosed(this);
    }
}
