package org.iwarp4j.verbs.internal;

import io.netty.channel.EventLoop;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.WorkCompletion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * A bounded multi-producer ring of preallocated {@link WorkCompletion}s. Producers (queue pairs on any
 * event loop) claim a slot with one CAS, fill it and publish it with a per-slot sequence number;
 * consumers copy published slots into their own flyweights. Nothing is allocated per completion.
 *
 * <p>Notification: {@link #arm} stores the handler and mode; the producer that publishes a matching
 * completion disarms with one CAS and runs a preallocated task on the queue's event loop.
 */
final class CompletionQueueImpl implements CompletionQueue {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionQueueImpl.class);
    private static final int DISARMED = -1;

    private final RnicImpl rnic;
    private final EventLoop loop;
    private final int capacity;
    private final int mask;
    private final WorkCompletion[] entries;
    private final AtomicLongArray published;
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();
    private final Object consumerLock = new Object();
    private final AtomicInteger armed = new AtomicInteger(DISARMED);
    private volatile CompletionHandler handler;
    private final Runnable notifyTask = this::runHandler;
    private final List<QueuePairImpl> users = new CopyOnWriteArrayList<>();
    private volatile boolean overflowed;
    private volatile boolean closed;

    CompletionQueueImpl(RnicImpl rnic, EventLoop loop, int capacity) {
        this.rnic = rnic;
        this.loop = loop;
        this.capacity = capacity;
        int size = Rings.size(capacity);
        this.mask = size - 1;
        this.entries = new WorkCompletion[size];
        for (int i = 0; i < size; i++) {
            entries[i] = new WorkCompletion();
        }
        this.published = new AtomicLongArray(size);
        for (int i = 0; i < size; i++) {
            published.set(i, i - (long) size + 1); // "not yet published for sequence i"
        }
    }

    void attach(QueuePairImpl qp) {
        users.add(qp);
    }

    void detach(QueuePairImpl qp) {
        users.remove(qp);
    }

    /**
     * Claims a slot: returns its sequence, or -1 when the queue is full (overflow: reported to every
     * queue pair using it) or closed. The caller fills {@link #entry(long)} and calls {@link #publish}.
     */
    long claim() {
        while (true) {
            long t = tail.get();
            if (t - head.get() >= capacity || closed) {
                if (!closed) {
                    overflow();
                }
                return -1;
            }
            if (tail.compareAndSet(t, t + 1)) {
                return t;
            }
        }
    }

    WorkCompletion entry(long sequence) {
        return entries[(int) (sequence & mask)].reset();
    }

    /** Makes the filled entry visible; {@code solicitedOrError} fires a SOLICITED-armed handler. */
    void publish(long sequence, boolean solicitedOrError) {
        published.set((int) (sequence & mask), sequence + 1);
        int mode = armed.get();
        if (mode != DISARMED && (mode == NotifyMode.NEXT.ordinal() || solicitedOrError)
                && armed.compareAndSet(mode, DISARMED)) {
            loop.execute(notifyTask);
        }
    }

    private void overflow() {
        if (overflowed) {
            return;
        }
        overflowed = true;
        LOG.warn("completion queue of capacity {} overflowed: completions are lost, its queue pairs fail", capacity);
        for (QueuePairImpl qp : users) {
            qp.completionQueueOverflowed(this);
        }
    }

    private void runHandler() {
        CompletionHandler h = handler;
        if (h == null) {
            return;
        }
        try {
            h.onCompletion(this);
        } catch (RuntimeException e) {
            LOG.warn("completion handler failed", e);
        }
    }

    @Override
    public int poll(WorkCompletion[] into) {
        synchronized (consumerLock) {
            long h = head.get();
            int n = 0;
            while (n < into.length) {
                int index = (int) (h & mask);
                if (published.get(index) != h + 1) {
                    break;
                }
                into[n].copyFrom(entries[index]);
                entries[index].reset();
                h++;
                n++;
            }
            head.set(h);
            return n;
        }
    }

    @Override
    public int drain(Consumer<WorkCompletion> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        WorkCompletion wc = new WorkCompletion();
        WorkCompletion[] one = {wc};
        int total = 0;
        while (poll(one) == 1) {
            consumer.accept(wc);
            total++;
        }
        return total;
    }

    @Override
    public void arm(NotifyMode mode, CompletionHandler completionHandler) {
        Objects.requireNonNull(mode, "mode");
        this.handler = Objects.requireNonNull(completionHandler, "completionHandler");
        armed.set(mode.ordinal());
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int size() {
        return (int) (tail.get() - head.get());
    }

    EventLoop loop() {
        return loop;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        rnic.completionQueueClosed(this);
    }

    @Override
    public String toString() {
        return "CompletionQueue[capacity=" + capacity + " size=" + size() + "]";
    }
}
