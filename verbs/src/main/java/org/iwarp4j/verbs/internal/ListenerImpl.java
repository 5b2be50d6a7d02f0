package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A listening server channel and the handler its connection requests go to. */
final class ListenerImpl implements Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerImpl.class);

    private final RnicImpl rnic;
    private final ListenOptions options;
    private final ConnectionRequestHandler handler;
    /** Requests for {@link #take}, when the listener has no handler. */
    private final BlockingQueue<ConnectionRequestImpl> requests;
    private volatile Channel channel;
    private volatile SharedPcapFile pcap;
    private final ResourceLimit connections;

    /** {@code handler} {@code null}: requests wait for {@link #take}. */
    ListenerImpl(RnicImpl rnic, ListenOptions options, ConnectionRequestHandler handler) {
        this.rnic = rnic;
        this.options = options;
        this.handler = handler;
        this.requests = handler == null ? new LinkedBlockingQueue<>() : null;
        this.connections = new ResourceLimit("maxConnections", options.maxConnections());
    }

    /**
     * At TCP accept, before anything of MPA is made for {@code ch}: the connection's slots of the RNIC's
     * {@code maxStartupsInProgress} and of this listener's {@code maxConnections}, given back when the channel
     * closes; {@code null} (and the channel closed, a FIN) when the RNIC has its maximum of startups in progress.
     */
    Admission admit(Channel ch) {
        ResourceLimit startups = rnic.startups();
        Admission a = Admission.tryAdmit(startups, connections);
        if (a == null) {
            LOG.warn("{}: closed at once, before its MPA Request: {} (RnicConfig)", ch, startups.reached());
            ch.close();
            return null;
        }
        ch.closeFuture().addListener(f -> a.closed());
        return a;
    }

    /** This listener's connections now (for tests). */
    long connectionsHeld() {
        return connections.used();
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
        if (requests != null) {
            requests.add(request); // unanswered in time, it is rejected (and skipped by take)
            return;
        }
        try {
            handler.onConnectionRequest(request);
        } catch (RuntimeException e) {
            LOG.warn("connection request handler failed; rejecting", e);
            request.reject(new byte[0]);
        }
    }

    @Override
    public Optional<ConnectionRequest> take(Duration timeout) throws InterruptedException {
        if (requests == null) {
            throw new IllegalStateException("this listener hands its requests to its handler");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ConnectionRequestImpl r = requests.poll();
            if (r == null && timeout.toNanos() > 0) {
                EventLoopThreads.checkMayBlock("Listener.take"); // only when it would have to wait
                r = requests.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            if (r == null) {
                return Optional.empty();
            }
            if (r.isPending()) {
                return Optional.of(r);
            }
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
            if (EventLoopThreads.onEventLoop()) {
                c.close(); // in a callback: close without waiting for the loop this thread is
            } else {
                c.close().syncUninterruptibly();
            }
        }
        SharedPcapFile p = pcap;
        pcap = null;
        if (p != null) {
            p.release(); // the file stays open while connections the listener accepted still write to it
        }
        rnic.listenerClosed(this);
    }
}
