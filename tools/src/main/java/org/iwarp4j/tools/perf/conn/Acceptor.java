package org.iwarp4j.tools.perf.conn;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.Listener;

/**
 * The accepting side of {@code iwarp perf connect} and {@code iwarp perf idle}: a listener whose handler creates
 * a fresh queue pair for every connection request and accepts it, on the connection's event loop; the queue
 * pair is closed when its connection ends, whoever ends it. Counts what it accepted, what is open and what
 * ended.
 */
final class Acceptor implements AutoCloseable {

    /** The RNIC's name, which names its event loop threads ({@code iwarp-connect-responder-…}). */
    static final String RNIC_NAME = "connect-responder";

    private final ConnSettings settings;
    private final Rnic rnic;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final Object changed = new Object();
    private final List<Listener> listeners = new ArrayList<>();

    Acceptor(ConnSettings settings) {
        this.settings = settings;
        this.rnic = settings.openRnic(RNIC_NAME);
        try {
            this.pd = rnic.allocateProtectionDomain();
            this.cq = rnic.createCompletionQueue(1024);
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
    }

    /** Listens on {@code bind} (port 0: any); returns the port. */
    int listen(InetSocketAddress bind) {
        Listener listener = rnic.listen(bind, settings.wire().listen().backlog(4096)
                .maxConnections(maxConnections(Limits.openFilesSoft())).build(), this::onRequest);
        listeners.add(listener);
        return listener.localAddress().getPort();
    }

    /**
     * The listener's limit on connections at once: the open-file limit, which each accepted connection takes a
     * descriptor of, so that it is what stops a test of many idle queue pairs (with its advice) and not a listener's
     * default limit; without a known limit, none.
     */
    static int maxConnections(long openFilesSoft) {
        return openFilesSoft < 1 ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE, openFilesSoft);
    }

    /** Listens on each of {@code binds} (port 0: any); returns the addresses listened on, in the same order. */
    List<InetSocketAddress> listen(List<InetSocketAddress> binds) {
        List<InetSocketAddress> listening = new ArrayList<>();
        for (InetSocketAddress bind : binds) {
            listening.add(new InetSocketAddress(bind.getAddress(), listen(bind)));
        }
        return listening;
    }

    Rnic rnic() {
        return rnic;
    }

    private void onRequest(ConnectionRequest request) {
        QueuePair qp;
        try {
            qp = pd.createQueuePair(settings.queuePairConfig(cq));
        } catch (RuntimeException e) {
            fail("cannot create a queue pair for " + request.remoteAddress() + ": " + Stacks.describe(e));
            request.reject("iwarp perf: no queue pair".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        request.accept(qp, AcceptOptions.defaults()).whenComplete((c, e) -> {
            if (e != null) {
                qp.close();
                fail("accept failed: " + Stacks.describe(e));
                return;
            }
            accepted.incrementAndGet();
            c.closeFuture().whenComplete((d, x) -> {
                qp.close();
                ended.incrementAndGet();
                signal();
            });
            signal();
        });
    }

    private void fail(String why) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, why);
        signal();
    }

    private void signal() {
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    long accepted() {
        return accepted.get();
    }

    long ended() {
        return ended.get();
    }

    /** Connections accepted and not ended. */
    long open() {
        return accepted.get() - ended.get();
    }

    long failed() {
        return failed.get();
    }

    /** The first failure, or {@code null}. */
    String firstFailure() {
        return firstFailure.get();
    }

    /** Waits at most {@code timeout} until {@code n} connections have ended; returns whether they had. */
    boolean awaitEnded(long n, Duration timeout) throws InterruptedException {
        return await(() -> ended.get() >= n, timeout);
    }

    /** Waits at most {@code timeout} until {@code n} connections are open; returns whether they were. */
    boolean awaitOpen(long n, Duration timeout) throws InterruptedException {
        return await(() -> open() >= n, timeout);
    }

    private boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (changed) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
        return true;
    }

    @Override
    public void close() {
        try {
            for (Listener listener : listeners) {
                listener.close();
            }
        } finally {
            rnic.close();
        }
    }
}
