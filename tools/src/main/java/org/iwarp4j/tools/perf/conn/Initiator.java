package org.iwarp4j.tools.perf.conn;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;

/**
 * The connecting side: opens connections with at most a window of them in flight, from one thread (the
 * caller's). Each connection is a queue pair created for it, {@code rnic.connect}, the MPA exchange, and (in
 * {@link #cycles}) a graceful disconnect, after which its queue pair is closed. The RNIC's callbacks only hand
 * the attempt back to the caller's thread through a bounded queue, so nothing blocks an event loop.
 */
final class Initiator implements AutoCloseable {

    /** The RNIC's name, which names its event loop threads ({@code iwarp-connect-initiator-…}). */
    static final String RNIC_NAME = "connect-initiator";
    /** The longest wait for any connection to make progress before the run fails. */
    static final long WAIT_SECONDS = 30;

    private final ConnSettings settings;
    private final Rnic rnic;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final ConnectOptions connectOptions;
    private final MemoryRegion receiveMemory;
    private final int receivesEach;

    /** {@code receivesEach}: receives to post on each queue pair before it connects (they complete flushed). */
    Initiator(ConnSettings settings, int receivesEach, long maxConnections) {
        this.settings = settings;
        this.receivesEach = receivesEach;
        this.rnic = settings.openRnic(RNIC_NAME);
        try {
            this.pd = rnic.allocateProtectionDomain();
            this.cq = rnic.createCompletionQueue((int) Math.min(rnic.config().maxCompletionQueueDepth(),
                    Math.max(64, maxConnections * receivesEach + 64)));
            this.receiveMemory = receivesEach == 0 ? null : pd.allocateRegion(64, Access.LOCAL_WRITE);
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
        this.connectOptions = settings.connectOptions();
    }

    Rnic rnic() {
        return rnic;
    }

    /** One connection's progress, handed between the event loops and the driving thread. */
    private static final class Attempt {
        QueuePair qp;
        Connection connection;
        Throwable failure;
        long started;
        long established;
        long disconnectStarted;
        long ended;
    }

    /** What a run of cycles measured. */
    record CycleResult(long connections, long nanos, List<Long> batchNanos, int batchSize, Histogram setup,
                       Histogram teardown) {}

    /** {@code count} cycles before the measured ones, at most {@code window} at once, in one batch (none: none). */
    void warmUp(List<InetSocketAddress> targets, long count, int window) throws ConnectFailure, InterruptedException {
        if (count > 0) {
            cycles(targets, count, window, (int) Math.min(count, Integer.MAX_VALUE));
        }
    }

    /**
     * Connects and disconnects {@code count} times, at most {@code window} at once, round robin over
     * {@code targets}; records the time of each batch of {@code batch} completed cycles, the setup latency
     * (create the queue pair → ESTABLISHED) and the teardown latency (disconnect → TCP closed).
     */
    CycleResult cycles(List<InetSocketAddress> targets, long count, int window, int batch)
            throws ConnectFailure, InterruptedException {
        Histogram setup = new Histogram(1, TimeUnit.SECONDS.toNanos(100), 3);
        Histogram teardown = new Histogram(1, TimeUnit.SECONDS.toNanos(100), 3);
        List<Long> batches = new ArrayList<>();
        BlockingQueue<Attempt> events = new ArrayBlockingQueue<>(2 * window + 4);
        ArrayDeque<Attempt> spare = new ArrayDeque<>();
        for (int i = 0; i < window; i++) {
            spare.add(new Attempt());
        }
        long started = 0;
        long done = 0;
        int inFlight = 0;
        long begin = System.nanoTime();
        long batchStart = begin;
        Failure failure = new Failure();
        while (done < count && !(failure.happened() && inFlight == 0)) {
            while (!failure.happened() && started < count && inFlight < window) {
                Attempt a = spare.poll();
                if (!start(a, targets.get((int) (started % targets.size())), events, failure)) {
                    spare.add(a);
                    break;
                }
                started++;
                inFlight++;
            }
            Attempt a = progressed(events, inFlight, failure, done + inFlight);
            if (a == null) {
                break;
            }
            if (a.failure != null) {
                failure.note("connection " + (started - inFlight + 1) + " failed: " + Stacks.describe(a.failure),
                        a.failure, done + inFlight);
                a.qp.close();
                a.failure = null;
                inFlight--;
                spare.add(a);
            } else if (a.ended == 0) {
                setup.recordValue(clamp(a.established - a.started, setup));
                a.disconnectStarted = System.nanoTime();
                a.connection.disconnect().whenComplete((v, e) -> {
                    a.ended = System.nanoTime();
                    events.add(a);
                });
            } else {
                teardown.recordValue(clamp(a.ended - a.disconnectStarted, teardown));
                a.qp.close();
                a.connection = null;
                a.ended = 0;
                inFlight--;
                done++;
                spare.add(a);
                if (done % batch == 0) {
                    long now = System.nanoTime();
                    batches.add(now - batchStart);
                    batchStart = now;
                }
            }
        }
        long nanos = System.nanoTime() - begin;
        failure.throwIfHappened();
        return new CycleResult(done, nanos, batches, batch, setup, teardown);
    }

    /** What {@link #hold} connected. */
    record Held(List<Connection> connections, long nanos, Histogram setup) {}

    /**
     * Connects {@code count} queue pairs, at most {@code window} at once, round robin over {@code targets}, and
     * keeps them. On a failure, what was connected is disconnected again before the failure is thrown.
     */
    Held hold(List<InetSocketAddress> targets, long count, int window) throws ConnectFailure, InterruptedException {
        Histogram setup = new Histogram(1, TimeUnit.SECONDS.toNanos(100), 3);
        List<Connection> held = new ArrayList<>((int) count);
        BlockingQueue<Attempt> events = new ArrayBlockingQueue<>(window + 4);
        long started = 0;
        int inFlight = 0;
        long begin = System.nanoTime();
        Failure failure = new Failure();
        while (held.size() < count && !(failure.happened() && inFlight == 0)) {
            while (!failure.happened() && started < count && inFlight < window) {
                if (!start(new Attempt(), targets.get((int) (started % targets.size())), events, failure)) {
                    break;
                }
                started++;
                inFlight++;
            }
            Attempt a = progressed(events, inFlight, failure, held.size() + inFlight);
            if (a == null) {
                break;
            }
            inFlight--;
            if (a.failure != null) {
                failure.note("a connection failed with " + held.size() + " established: " + Stacks.describe(a.failure),
                        a.failure, held.size() + inFlight + 1);
                a.qp.close();
            } else {
                setup.recordValue(clamp(a.established - a.started, setup));
                held.add(a.connection);
            }
        }
        long nanos = System.nanoTime() - begin;
        if (failure.happened()) {
            release(held, window);
            failure.throwIfHappened();
        }
        return new Held(held, nanos, setup);
    }

    /**
     * Disconnects every connection of {@code held} gracefully, at most {@code window} at once, and closes the
     * queue pairs; returns the nanoseconds it took.
     */
    long release(List<Connection> held, int window) throws InterruptedException {
        long begin = System.nanoTime();
        BlockingQueue<Connection> ended = new ArrayBlockingQueue<>(window + 4);
        int next = 0;
        int inFlight = 0;
        int done = 0;
        while (done < held.size()) {
            while (next < held.size() && inFlight < window) {
                Connection c = held.get(next++);
                inFlight++;
                c.disconnect().whenComplete((v, e) -> ended.add(c));
            }
            Connection c = ended.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            if (c == null) {
                break; // closing the RNIC resets what is left
            }
            c.queuePair().close();
            inFlight--;
            done++;
        }
        held.clear();
        drainCompletions();
        return System.nanoTime() - begin;
    }

    /** Takes the flushed receives off the completion queue. */
    private void drainCompletions() {
        WorkCompletion[] wcs = WorkCompletion.array(256);
        while (cq.poll(wcs) > 0) {
            // the flushed receives of the released queue pairs
        }
    }

    /**
     * The next of the {@code inFlight} attempts to make progress; null when none is in flight, or when none made
     * progress for {@link #WAIT_SECONDS} (noted as the failure, with {@code open} connections open).
     */
    private static Attempt progressed(BlockingQueue<Attempt> events, int inFlight, Failure failure, long open)
            throws InterruptedException {
        if (inFlight == 0) {
            return null;
        }
        Attempt a = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (a == null) {
            failure.note("no connection made progress for " + WAIT_SECONDS + " s with " + inFlight + " in flight",
                    null, open);
        }
        return a;
    }

    /** Starts one attempt; false (the failure noted) when its queue pair cannot even be created. */
    private boolean start(Attempt a, InetSocketAddress target, BlockingQueue<Attempt> events, Failure failure) {
        a.started = System.nanoTime();
        try {
            a.qp = pd.createQueuePair(settings.queuePairConfig(cq));
            for (int i = 0; i < receivesEach; i++) {
                a.qp.postReceive(ReceiveWorkRequest.of(i, receiveMemory.sge()));
            }
        } catch (RuntimeException e) {
            if (a.qp != null) {
                a.qp.close();
            }
            failure.note("cannot create a queue pair: " + Stacks.describe(e), e, 0);
            return false;
        }
        rnic.connect(target, a.qp, connectOptions).whenComplete((c, e) -> {
            a.established = System.nanoTime();
            a.connection = c;
            a.failure = e;
            events.add(a);
        });
        return true;
    }

    private static long clamp(long nanos, Histogram h) {
        return Math.max(1, Math.min(nanos, h.getHighestTrackableValue()));
    }

    @Override
    public void close() {
        rnic.close();
    }

    /** The first failure of a run, with what it says about the machine's limits. */
    private static final class Failure {
        private String message;
        private Throwable cause;
        private long connectionsThen;

        void note(String m, Throwable c, long connections) {
            if (message == null) {
                message = m;
                cause = c;
                connectionsThen = connections;
            }
        }

        boolean happened() {
            return message != null;
        }

        void throwIfHappened() throws ConnectFailure {
            if (message == null) {
                return;
            }
            String advice = "";
            if (cause != null && Limits.outOfFiles(cause)) {
                advice = "; this process ran out of file descriptors with about " + connectionsThen
                        + " connections open: the limit is " + Limits.openFilesSoft() + ", "
                        + Limits.raiseAdvice(2 * connectionsThen + 256);
            } else if (cause != null && Limits.outOfPorts(cause)) {
                advice = "; no ephemeral port was free (net.ipv4.ip_local_port_range, ports in TIME_WAIT): wait a"
                        + " minute, or spread the connections over more loopback addresses (--addresses)";
            }
            throw new ConnectFailure(message + advice);
        }
    }

    /** A connection test failed; the message says why and, where it can, what limit to raise. */
    static final class ConnectFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ConnectFailure(String message) {
            super(message);
        }
    }
}
