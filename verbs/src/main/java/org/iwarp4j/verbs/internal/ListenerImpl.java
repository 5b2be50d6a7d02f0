package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/** A listening server channel and the handler its connection requests go to. */
final class ListenerImpl implements Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerImpl.class);

    private final RnicImpl rnic;
    private final ListenOptions options;
    private final ConnectionRequestHandler handler;
    private volatile Channel channel;
    private volatile SharedPcapFile pcap;

    ListenerImpl(RnicImpl rnic, ListenOptions options, ConnectionRequestHandler handler) {
        this.rnic = rnic;
        this.options = options;
        this.handler = handler;
    }

    void bound(Channel serverChannel, SharedPcapFile pcapFile) {
        this.channel = serverChannel;
        this.pcap = pcapFile;
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
        SharedPcapFile p = pcap;
        pcap = null;
        if (p != null) {
            p.release(); // the file stays open while connections the listener accepted still write to it
        }
        rnic.listenerClosed(this);
    }
}
