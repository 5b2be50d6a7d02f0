package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionQueue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion channel: a queue of "this completion queue fired" events under a lock and a condition, so a
 * waiting thread parks (a virtual thread unmounts: no {@code synchronized}) and a producer — the event loop
 * that published the completion — wakes it with one signal. Arming is one-shot, so at most one event per
 * arm is queued.
 */
final class CompletionChannelImpl implements CompletionChannel {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition fired = lock.newCondition();
    private final ArrayDeque<CompletionQueue> events = new ArrayDeque<>();
    private boolean closed;
    /** Tells the RNIC, which then forgets this channel. */
    private final Consumer<CompletionChannelImpl> onClosed;

    CompletionChannelImpl(Consumer<CompletionChannelImpl> onClosed) {
        this.onClosed = onClosed;
    }

    /** A completion queue armed on this channel got a matching completion (any thread). */
    void fire(CompletionQueue cq) {
        lock.lock();
        try {
            if (!closed) {
                events.add(cq);
                fired.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<CompletionQueue> take(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            if (events.isEmpty() && !closed && nanos > 0) {
                EventLoopThreads.checkMayBlock("CompletionChannel.take"); // only when it would have to wait
            }
            while (events.isEmpty() && !closed && nanos > 0) {
                nanos = fired.awaitNanos(nanos);
            }
            return Optional.ofNullable(events.poll());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int pending() {
        lock.lock();
        try {
            return events.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            events.clear();
            fired.signalAll();
        } finally {
            lock.unlock();
        }
        onClosed.accept(this);
    }

}
