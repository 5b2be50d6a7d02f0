package org.iwarp4j.tools.perf;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.netty.NettyVerbs;

/**
 * A test run to completion on a completion queue's event loop (docs/guide.md, "Completions"): {@link #step} works
 * while there is something to do; when it finds nothing the handler arms the queue for the next completion and
 * looks once more (a completion added between the last poll and the arming is not missed), then returns to the
 * loop. A run that {@link #pollsMemory() polls memory} (the Write ping-pong, which no completion announces) is
 * instead a periodic task of the loop that never waits armed: the loop runs it again after each turn of its
 * sockets and tasks. It ends when {@link #done} is complete, exceptionally with whatever a step threw: nothing
 * escapes to the event loop. Start it with {@link #start}.
 *
 * @param <T> what the run yields
 */
abstract class LoopDrain<T> implements CompletionHandler {

    /** Completes when the run is over (a step completes it), or exceptionally when a step failed. */
    final CompletableFuture<T> done = new CompletableFuture<>();

    /** One step of the run; the number of completions it handled, 0 when there was nothing to handle. */
    abstract int step() throws Exception;

    /** Whether a step also looks at memory that a peer's RDMA Write changes: then the run never waits armed. */
    boolean pollsMemory() {
        return false;
    }

    /** What a run's {@link #done} failed with: the exception a step threw, else (an error) {@code e} itself. */
    static Exception failure(ExecutionException e) {
        return e.getCause() instanceof Exception c ? c : e;
    }

    /** Starts the run on {@code q}'s event loop. */
    final void start(CompletionQueue q) {
        if (!pollsMemory()) {
            q.executor().execute(() -> onCompletion(q));
            return;
        }
        // One task object for the whole run, put back in the loop's schedule after each look: a task handed to the
        // loop's queue again would run again before the loop reads its sockets (it drains the queue first).
        Future<?> looks = NettyVerbs.eventLoop(q).scheduleWithFixedDelay(this::look, 0, 1, TimeUnit.NANOSECONDS);
        done.whenComplete((v, e) -> looks.cancel(false));
    }

    private void look() {
        try {
            while (!done.isDone() && step() > 0) {
                // steps while there is work; then back to the loop
            }
        } catch (Exception | Error e) {
            done.completeExceptionally(e);
        }
    }

    @Override
    public final void onCompletion(CompletionQueue q) {
        try {
            while (!done.isDone()) {
                if (step() > 0 || done.isDone()) {
                    continue; // more to do, or the run is over (the loop ends without arming)
                }
                q.arm(NotifyMode.NEXT, this);
                if (q.size() == 0) {
                    return; // armed: the next completion calls again
                }
            }
        } catch (Exception | Error e) {
            done.completeExceptionally(e);
        }
    }
}
