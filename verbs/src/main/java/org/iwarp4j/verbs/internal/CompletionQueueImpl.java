package org.iwarp4j.verbs.internal;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.WorkCompletion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A bounded multi-producer ring of preallocated {@link WorkCompletion}s. Producers (queue pairs on any
 * event loop) claim a slot with one CAS, fill it and publish it with a per-slot sequence number;
 * consumers copy published slots into their own flyweights. Nothing is allocated per completion.
 *
 * <p>Notification: {@link #arm} stores the target (a handler, run on the queue's event loop, or the
 * channel) and mode; the producer that publishes a matching completion disarms with one CAS. Blocking
 * readers count themselves in {@link #waiters} before they poll a last time and park; a producer reads
 * that count after publishing (both volatile, so one of the two always sees the other) and takes the
 * lock to signal only when someone waits (once per burst, {@link #signalSoon}): the data path pays one volatile
 * read.
 */
final class CompletionQueueImpl implements CompletionQueue {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionQueueImpl.class);
    private static final int DISARMED = -1;
    private static final WorkCompletionAccess WC = WorkCompletionAccess.get();

    private final EventLoop loop;
    private final int capacity;
    private final int mask;
    private final WorkCompletion[] entries;
    /**
     * Per slot, the queue pair whose send or receive queue slots its completion holds until it is polled (as a
     * verbs queue does: a completion queue as deep as its queues never overflows), and how many send slots
     * (0: one receive slot). Kept beside the entries, so that a polled completion refers to no queue pair.
     */
    private final QueuePairImpl[] holders;
    private final int[] heldSendSlots;
    private final AtomicLongArray published;
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();
    private final Object consumerLock = new Object();
    private final AtomicInteger armed = new AtomicInteger(DISARMED);
    private final CompletionChannelImpl channel;
    /** What an armed notification reaches: a {@link CompletionHandler} or {@link #channel}. */
    private volatile Object target;
    private final Runnable notifyTask = this::runHandler;
    /** {@link #loop} as the API hands it out: an executor, not the Netty type. */
    private final Executor executor;
    private final List<QueuePairImpl> users = new CopyOnWriteArrayList<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final ReentrantLock waitLock = new ReentrantLock();
    private final Condition nonEmpty = waitLock.newCondition();
    private final AtomicBoolean signalScheduled = new AtomicBoolean();
    private final Runnable signalTask = this::signalScheduledWaiters;
    private volatile CompletionHandler handlerToRun;
    /** See {@link #runningApplicationCode()}; read and written on {@link #loop} only. */
    private boolean runningApplicationCode;
    private volatile boolean overflowed;
    private volatile boolean closed;
    /** Tells the RNIC, which then forgets this queue. */
    private final Consumer<CompletionQueueImpl> onClosed;

    CompletionQueueImpl(EventLoop loop, int capacity, CompletionChannelImpl channel,
            Consumer<CompletionQueueImpl> onClosed) {
        this.loop = loop;
        this.executor = task -> {
            Objects.requireNonNull(task, "task");
            loop.execute(() -> runApplicationCode(task));
        };
        this.onClosed = onClosed;
        this.capacity = capacity;
        this.channel = channel;
        int size = Rings.size(capacity);
        this.mask = size - 1;
        this.entries = WorkCompletion.array(size);
        this.holders = new QueuePairImpl[size];
        this.heldSendSlots = new int[size];
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

    /** The claimed entry, to be filled with {@link WorkCompletionAccess#set} (which clears what it does not set). */
    WorkCompletion entry(long sequence) {
        return entries[(int) (sequence & mask)];
    }

    /** The claimed entry holds {@code slots} send queue slots of {@code qp} until it is polled. */
    void holdSendSlots(long sequence, QueuePairImpl qp, int slots) {
        int i = (int) (sequence & mask);
        holders[i] = qp;
        heldSendSlots[i] = slots;
    }

    /** The claimed entry holds one receive queue slot of {@code qp} until it is polled. */
    void holdReceiveSlot(long sequence, QueuePairImpl qp) {
        int i = (int) (sequence & mask);
        holders[i] = qp;
        heldSendSlots[i] = 0;
    }

    private void releaseHeld(int i) {
        QueuePairImpl qp = holders[i];
        if (qp != null) {
            holders[i] = null;
            if (heldSendSlots[i] > 0) {
                qp.releaseSendSlots(heldSendSlots[i]);
            } else {
                qp.releaseReceiveSlot();
            }
        }
    }

    /** Makes the filled entry visible; {@code solicitedOrError} fires a SOLICITED-armed notification. */
    void publish(long sequence, boolean solicitedOrError) {
        published.set((int) (sequence & mask), sequence + 1);
        int mode = armed.get();
        if (mode != DISARMED && (mode == NotifyMode.NEXT.ordinal() || solicitedOrError)
                && armed.compareAndSet(mode, DISARMED)) {
            Object t = target;
            if (t instanceof CompletionChannelImpl c) {
                c.fire(this);
            } else if (t instanceof CompletionHandler h) {
                handlerToRun = h;
                loop.execute(notifyTask);
            }
        }
        if (waiters.get() > 0) {
            signalSoon();
        }
    }

    /**
     * Wakes blocked readers once for a burst of completions: a producer on an event loop (every queue pair's
     * completions are made on its loop) leaves the signal to a task that runs after its current work, so the
     * completions of one flush or one read cost one wake-up, not one each. The flag is cleared before the
     * signal: a completion published after the clear schedules another, one published before it is polled by
     * the reader the signal wakes.
     */
    private void signalSoon() {
        EventExecutor here = ThreadExecutorMap.currentExecutor();
        if (here == null) {
            signalWaiters();
            return;
        }
        if (signalScheduled.compareAndSet(false, true)) {
            try {
                here.execute(signalTask);
            } catch (RejectedExecutionException e) {
                signalScheduled.set(false); // the loop is shutting down: signal now
                signalWaiters();
            }
        }
    }

    private void signalScheduledWaiters() {
        signalScheduled.set(false);
        signalWaiters();
    }

    private void signalWaiters() {
        waitLock.lock();
        try {
            nonEmpty.signalAll();
        } finally {
            waitLock.unlock();
        }
    }

    private void overflow() {
        if (overflowed) {
            return;
        }
        overflowed = true;
        LOG.warn("completion queue of capacity {} overflowed: completions are lost, its queue pairs fail", capacity);
        for (QueuePairImpl qp : users) {
            qp.completionQueueOverflowed();
        }
    }

    private void runHandler() {
        CompletionHandler h = handlerToRun;
        if (h == null) {
            return;
        }
        boolean outer = runningApplicationCode;
        runningApplicationCode = true;
        try {
            h.onCompletion(this);
        } catch (RuntimeException e) {
            LOG.warn("completion handler failed", e);
        } finally {
            runningApplicationCode = outer;
        }
    }

    /** A task of {@link #executor()}: the application's code, as a handler is. */
    private void runApplicationCode(Runnable task) {
        boolean outer = runningApplicationCode;
        runningApplicationCode = true;
        try {
            task.run();
        } finally {
            runningApplicationCode = outer;
        }
    }

    /**
     * Whether this queue's loop, the calling thread, is running the application's code at the top of a task: a
     * completion handler or an {@link #executor()} task, not the stack's own work (which may call the application
     * back, e.g. a future's callback). What such code posts may go to the queue pair's engine at once
     * ({@code QueuePairImpl.directEngine}). Call on this queue's loop only.
     */
    boolean runningApplicationCode() {
        return runningApplicationCode;
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
                WC.copy(entries[index], into[n]); // the entry is left as it is: the next claim's set overwrites it
                releaseHeld(index); // before the head moves on: the slot may be claimed again right after
                h++;
                n++;
            }
            head.set(h);
            return n;
        }
    }

    @Override
    public int poll(WorkCompletion[] into, Duration timeout) throws InterruptedException {
        int n = poll(into);
        if (n > 0 || into.length == 0) {
            return n;
        }
        EventLoopThreads.checkMayBlock("CompletionQueue.poll(into, timeout)");
        long nanos = timeout.toNanos();
        waiters.incrementAndGet();
        try {
            waitLock.lockInterruptibly();
            try {
                while ((n = poll(into)) == 0 && nanos > 0 && !closed) {
                    nanos = nonEmpty.awaitNanos(nanos);
                }
                return n;
            } finally {
                waitLock.unlock();
            }
        } finally {
            waiters.decrementAndGet();
        }
    }

    @Override
    public Optional<WorkCompletion> take(Duration timeout) throws InterruptedException {
        WorkCompletion[] one = {new WorkCompletion()};
        return poll(one, timeout) == 1 ? Optional.of(one[0]) : Optional.empty();
    }

    @Override
    public int drain(Consumer<WorkCompletion> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        WorkCompletion[] one = {new WorkCompletion()};
        int total = 0;
        while (poll(one) == 1) {
            consumer.accept(one[0]);
            total++;
        }
        return total;
    }

    @Override
    public void arm(NotifyMode mode) {
        Objects.requireNonNull(mode, "mode");
        if (channel == null) {
            throw new IllegalStateException("this completion queue has no completion channel: create it with"
                    + " Rnic.createCompletionQueue(capacity, channel), or arm it with a handler");
        }
        target = channel;
        armed.set(mode.ordinal());
    }

    @Override
    public void arm(NotifyMode mode, CompletionHandler completionHandler) {
        Objects.requireNonNull(mode, "mode");
        target = Objects.requireNonNull(completionHandler, "completionHandler");
        armed.set(mode.ordinal());
    }

    @Override
    public void disarm() {
        armed.set(DISARMED);
    }

    /** The event loop that runs this queue's handlers (and the queue pairs connected with it as send queue). */
    EventLoop loop() {
        return loop;
    }

    @Override
    public Executor executor() {
        return executor;
    }

    @Override
    public Optional<CompletionChannel> channel() {
        return Optional.ofNullable(channel);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int size() {
        return (int) (tail.get() - head.get());
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * {@code ibv_destroy_cq}; as there (EBUSY), not while a queue pair still uses the queue.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!users.isEmpty()) {
            throw new IllegalStateException("completion queue still used by queue pair(s) "
                    + users.stream().map(q -> String.valueOf(q.number())).distinct().toList() + ": close them first");
        }
        closed = true;
        armed.set(DISARMED);
        signalWaiters();
        onClosed.accept(this);
    }

    /** The RNIC closes its queue pairs first, then this. */
    void closeForRnic() {
        users.clear();
        close();
    }

    @Override
    public String toString() {
        return "CompletionQueue[capacity=" + capacity + " size=" + size() + "]";
    }
}
