package org.iwarp4j.verbs.internal;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * The threads of every RNIC's event loops, recognisable by type so that a blocking call of the API made on
 * one fails at once instead of deadlocking the loop that would have to answer it (Netty's
 * {@code BlockingOperationException} for the same mistake).
 */
final class EventLoopThreads extends DefaultThreadFactory {

    /** A thread of an iwarp4j event loop. */
    static final class LoopThread extends FastThreadLocalThread {
        LoopThread(ThreadGroup group, Runnable r, String name) {
            super(group, r, name);
        }
    }

    EventLoopThreads(String name) {
        super(name, true);
    }

    @Override
    protected Thread newThread(Runnable r, String name) {
        return new LoopThread(threadGroup, r, name);
    }

    /** Whether the calling thread is an iwarp4j event loop. */
    static boolean onEventLoop() {
        return Thread.currentThread() instanceof LoopThread;
    }

    /**
     * Fails when called on an event loop.
     *
     * @param what the blocking call, for the message
     */
    static void checkMayBlock(String what) {
        if (onEventLoop()) {
            throw new IllegalStateException(what + " blocks, and this is an iwarp4j event loop thread ("
                    + Thread.currentThread().getName() + "): blocking here would deadlock the loop that must answer."
                    + " In a callback, use the future's then* methods, poll instead of take, or hand the work to"
                    + " another thread");
        }
    }
}
