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
    private volatile boolean closed;
    /** How long a {@link #take} waits at a time before it looks whether the listener was closed meanwhile. */
    private static final long TAKE_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

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
        if (closed) {
            // accepted by TCP before the close, its MPA Request came after: nobody will answer it now
            LOG.info("{}: connection request rejected: the listener is closed", localAddressOrNone());
            request.rejectUnanswered();
            return;
        }
        if (requests != null) {
            requests.add(request); // unanswered in time, it is rejected (and skipped by take)
            if (closed) {
                rejectQueued(); // closed while it was added: close may have drained before it
            }
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
            while (r == null && !closed && deadline - System.nanoTime() > 0) {
                EventLoopThreads.checkMayBlock("Listener.take"); // only when it would have to wait
                r = requests.poll(Math.min(TAKE_SLICE_NANOS, Math.max(0, deadline - System.nanoTime())),
                        TimeUnit.NANOSECONDS);
            }
            if (r != null && closed) {
                r.rejectUnanswered(); // taken from the queue while close drained it
                r = null;
            }
            if (r == null) {
                return Optional.empty(); // a closed listener hands out nothing (close rejected what was queued)
            }
            if (r.isPending()) {
                return Optional.of(r);
            }
        }
    }

    private void rejectQueued() {
        if (requests == null) {
            return;
        }
        ConnectionRequestImpl r;
        int n = 0;
        while ((r = requests.poll()) != null) {
            if (r.isPending()) {
                r.rejectUnanswered();
                n++;
            }
        }
        if (n > 0) {
            LOG.info("{}: {} waiting connection request(s) rejected: the listener is closed", localAddressOrNone(), n);
        }
    }

    private Object localAddressOrNone() {
        Channel c = channel;
        return c != null ? c.localAddress() : "listener";
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /**
     * Stops listening. Requests that arrived and wait for {@link #take} are rejected at once (an MPA Reply with
     * R = 1 and no private data), as is any request of a connection TCP accepted before the close: without the
     * listener nobody would answer them, and their clients would wait for the decision timeout. A request the
     * application already holds is still its to accept or reject.
     */
    @Override
    public void close() {
        closed = true;
        rejectQueued();
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
