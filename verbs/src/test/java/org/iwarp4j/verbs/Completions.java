package org.iwarp4j.verbs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Waits for completions the way an application does: a blocking poll with a deadline. */
final class Completions {

    private Completions() {}

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** Exactly {@code n} completions (fails on timeout). */
    static List<WorkCompletion> await(CompletionQueue cq, int n) {
        return await(cq, n, TIMEOUT);
    }

    static List<WorkCompletion> await(CompletionQueue cq, int n, Duration timeout) {
        List<WorkCompletion> out = new ArrayList<>(n);
        WorkCompletion[] batch = WorkCompletion.array(Math.max(1, Math.min(n, 64)));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + n + " completions; got "
                        + out.size() + ": " + out);
            }
            WorkCompletion[] into = batch.length <= n - out.size() ? batch : Arrays.copyOf(batch, n - out.size());
            int got;
            try {
                got = cq.poll(into, Duration.ofNanos(left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            for (int i = 0; i < got; i++) {
                out.add(into[i].copy());
            }
        }
        return out;
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
