package org.iwarp4j.microbench;

import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A JMH executor ({@code -Djmh.executor=CUSTOM -Djmh.executor.class=...}) whose worker threads are Netty
 * {@code FastThreadLocalThread}s, like the event-loop threads the protocol code runs on in production.
 * Netty 4.2 recycles pooled buffer objects (and keeps per-thread pool caches) only on such threads; on a
 * plain thread every pooled {@code ByteBuf} and slice costs a fresh object, which is not what a
 * connection's event loop sees.
 */
public final class EventLoopThreadExecutor extends ThreadPoolExecutor {

    /** The constructor shape JMH's CUSTOM executor looks up. */
    public EventLoopThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix, true));
    }
}
