package org.iwarp4j.tools.perf;

import java.util.concurrent.CompletableFuture;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.NotifyMode;

/**
 * A test run to completion on a completion queue's event loop (docs/guide.md, "Completions"): {@link #step} works
 * while there is something to do; when it finds nothing the handler arms the queue for the next completion and
 * looks once more (a completion added between the last poll and the arming is not missed), then returns to the
 * loop. It ends when {@link #done} is complete, exceptionally with whatever a step threw: nothing escapes to the
 * event loop. Start it with {@code cq.executor().execute(() -> drain.onCompletion(cq))}.
 *
 * @param <T> what the run yields
 */
abstract class LoopDrain<T> implements CompletionHandler {

    /** Completes when the run is over (a step completes it), or exceptionally when a step failed. */
    final CompletableFuture<T> done = new CompletableFuture<>();

    /** One step of the run; the number of completions it handled, 0 when there was nothing to handle. */
    abstract int step() throws Exception;

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
