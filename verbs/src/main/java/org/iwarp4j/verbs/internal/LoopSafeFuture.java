package org.iwarp4j.verbs.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The futures the API returns: a {@link CompletableFuture} whose blocking waits fail fast on an event loop
 * thread while the future is not done (as Netty's promises do), so that {@code connection.disconnect().get()}
 * in a callback throws instead of hanging. Stages derived from it behave the same.
 */
final class LoopSafeFuture<T> extends CompletableFuture<T> {

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new LoopSafeFuture<>();
    }

    private void check(String what) {
        if (!isDone()) {
            EventLoopThreads.checkMayBlock("CompletableFuture." + what + "()");
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        check("get");
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        check("get");
        return super.get(timeout, unit);
    }

    @Override
    public T join() {
        check("join");
        return super.join();
    }
}
