package org.iwarp4j.verbs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Waits for completions the way an application does: poll, arm, poll again, wait for the handler. */
final class Completions {

    private Completions() {}

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** Exactly {@code n} completions (fails on timeout). */
    static List<WorkCompletion> await(CompletionQueue cq, int n) {
        return await(cq, n, TIMEOUT);
    }

    static List<WorkCompletion> await(CompletionQueue cq, int n, Duration timeout) {
        List<WorkCompletion> out = new ArrayList<>(n);
        Semaphore signal = new Semaphore(0);
        WorkCompletion[] batch = new WorkCompletion[Math.max(1, Math.min(n, 64))];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = new WorkCompletion();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < n) {
            if (take(cq, batch, out, n)) {
                continue;
            }
            cq.arm(NotifyMode.NEXT, q -> signal.release());
            if (take(cq, batch, out, n)) {
                continue;
            }
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !signal.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                    throw new AssertionError("timed out after " + timeout + " waiting for " + n
                            + " completions; got " + out.size() + ": " + out);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return out;
    }

    private static boolean take(CompletionQueue cq, WorkCompletion[] batch, List<WorkCompletion> out, int n) {
        int got = cq.poll(batch.length <= n - out.size() ? batch : java.util.Arrays.copyOf(batch, n - out.size()));
        for (int i = 0; i < got; i++) {
            out.add(new WorkCompletion().copyFrom(batch[i]));
        }
        return got > 0;
    }

    /** Waits (spinning on the condition, bounded) until {@code cq} holds at least {@code n} completions. */
    static void awaitSize(CompletionQueue cq, int n) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (cq.size() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("completion queue never held " + n + " completions");
            }
            Thread.onSpinWait();
        }
    }

    static WorkCompletion one(CompletionQueue cq) {
        return await(cq, 1).get(0);
    }
}
