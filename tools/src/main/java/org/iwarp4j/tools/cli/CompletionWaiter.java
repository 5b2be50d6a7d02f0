package org.iwarp4j.tools.cli;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.WorkCompletion;

/**
 * Waits on an application thread for the completions of one completion queue, the way rping's CQ
 * thread does with {@code ibv_req_notify_cq} / {@code ibv_get_cq_event} / {@code ibv_poll_cq}: poll; if
 * empty, arm, poll again (a completion may have arrived before the arm), then sleep until the handler
 * fires. Optionally spins first (perftest's busy polling) for latency-sensitive loops.
 *
 * <p>Not thread-safe: one waiting thread per queue. Nothing is allocated per completion.
 */
public final class CompletionWaiter {

    private final CompletionQueue cq;
    private final Semaphore wakeups = new Semaphore(0);
    private final CompletionHandler handler = q -> wakeups.release();
    private final WorkCompletion[] one = {new WorkCompletion()};
    private final long spinNanos;

    /** A waiter that blocks at once when the queue is empty. */
    public CompletionWaiter(CompletionQueue cq) {
        this(cq, 0);
    }

    /** A waiter that polls for up to {@code spinNanos} before it blocks. */
    public CompletionWaiter(CompletionQueue cq, long spinNanos) {
        this.cq = cq;
        this.spinNanos = spinNanos;
    }

    public CompletionQueue queue() {
        return cq;
    }

    /**
     * The next completion, or {@code null} when none arrived within the timeout. The returned flyweight
     * is reused by the next call.
     */
    public WorkCompletion next(long timeout, TimeUnit unit) throws InterruptedException {
        return poll(one, timeout, unit) == 1 ? one[0] : null;
    }

    /** Fills {@code into} with at least one completion (0 on timeout); returns how many. */
    public int poll(WorkCompletion[] into, long timeout, TimeUnit unit) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + unit.toNanos(timeout);
        int n = cq.poll(into);
        if (n > 0) {
            return n;
        }
        if (spinNanos > 0) {
            long spinUntil = start + Math.min(spinNanos, unit.toNanos(timeout));
            for (int spins = 1; System.nanoTime() < spinUntil; spins++) {
                // Yield now and then: the event loops that produce the completions may need this core.
                if ((spins & 0x3F) == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
                n = cq.poll(into);
                if (n > 0) {
                    return n;
                }
            }
        }
        while (true) {
            wakeups.drainPermits();
            cq.arm(NotifyMode.NEXT, handler);
            n = cq.poll(into);
            if (n > 0) {
                return n;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !wakeups.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                return cq.poll(into);
            }
            n = cq.poll(into);
            if (n > 0) {
                return n;
            }
        }
    }
}
