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
 *
 * <p>A benchmark opts in with {@code @Fork(value = 1, jvmArgsAppend = {EventLoopThreadExecutor.JMH_EXECUTOR,
 * EventLoopThreadExecutor.JMH_EXECUTOR_CLASS})}.
 */
public final class EventLoopThreadExecutor extends ThreadPoolExecutor {

    /** JVM argument that makes JMH look up a custom executor. */
    public static final String JMH_EXECUTOR = "-Djmh.executor=CUSTOM";
    /** JVM argument that names this class as that executor. */
    public static final String JMH_EXECUTOR_CLASS =
            "-Djmh.executor.class=org.iwarp4j.microbench.EventLoopThreadExecutor";

    /** The constructor shape JMH's CUSTOM executor looks up. */
    public EventLoopThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix, true));
    }
}
