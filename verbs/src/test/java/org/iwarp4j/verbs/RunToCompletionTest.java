package org.iwarp4j.verbs;

import io.netty.channel.EventLoop;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.netty.NettyVerbs;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Run to completion (docs/guide.md, "Run to completion"): a task handed to {@link CompletionQueue#executor()}
 * posts the first requests and arms the queue; its handler polls and posts the next, all on the queue's event
 * loop, one thread from the first post to the last completion.
 */
class RunToCompletionTest {

    private static final int WINDOW = 16;
    private static final int TOTAL = 2000;

    @Test
    void aWindowOfWritesKeptFullFromTheHandlerRunsOnOneThread() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            Peers.Mem src = p.client.region(64);
            Peers.Mem dst = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            PreparedSend write = p.client.qp.prepare(RdmaWrite.of(7, src.sge(0, 64), dst.region().remoteBuffer()));
            CompletionQueue cq = p.client.sendCq;
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            CompletableFuture<Integer> done = new CompletableFuture<>();
            WorkCompletion[] wcs = WorkCompletion.array(32);
            CompletionHandler handler = new CompletionHandler() {
                private int posted;
                private int completed;

                void fill() {
                    while (posted < TOTAL && posted - completed < WINDOW) {
                        write.execute();
                        posted++;
                    }
                }

                @Override
                public void onCompletion(CompletionQueue q) {
                    threads.add(Thread.currentThread());
                    fill();
                    int n;
                    do {
                        while ((n = q.poll(wcs)) > 0) {
                            for (int i = 0; i < n; i++) {
                                if (!wcs[i].isSuccess()) {
                                    done.completeExceptionally(new AssertionError(wcs[i].toString()));
                                    return;
                                }
                            }
                            completed += n;
                            fill();
                        }
                        if (completed == TOTAL) {
                            done.complete(completed);
                            return;
                        }
                        q.arm(NotifyMode.NEXT, this); // re-arm, then poll again: nothing in between is missed
                    } while (q.size() > 0);
                }
            };
            cq.executor().execute(() -> {
                threads.add(Thread.currentThread());
                handler.onCompletion(cq); // posts the first window and arms
            });
            assertThat(done.get(30, TimeUnit.SECONDS)).isEqualTo(TOTAL);
            assertThat(threads).as("the starting task and every handler call").hasSize(1);
            assertThat(threads.iterator().next()).isNotEqualTo(Thread.currentThread());
            assertThat(cq.size()).isZero();
            write.close();
        }
    }

    @Test
    void theExecutorRefusesTasksOnceTheRnicIsClosed() throws Exception {
        Executor executor;
        try (Peers p = new Peers(Transport.NIO)) {
            executor = p.client.sendCq.executor();
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            executor.execute(() -> ran.complete(Thread.currentThread()));
            assertThat(ran.get(10, TimeUnit.SECONDS).getName()).startsWith("iwarp-client");
        }
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void nettyVerbsNamesTheLoopBehindTheExecutorForTimersThere() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            CompletionQueue cq = p.client.sendCq;
            EventLoop loop = NettyVerbs.eventLoop(cq);
            CompletableFuture<Boolean> onIt = new CompletableFuture<>();
            cq.executor().execute(() -> onIt.complete(loop.inEventLoop()));
            assertThat(onIt.get(10, TimeUnit.SECONDS)).as("the executor's tasks run on that loop").isTrue();
            CompletableFuture<Thread> timer = new CompletableFuture<>();
            loop.schedule(() -> timer.complete(Thread.currentThread()), 1, TimeUnit.MILLISECONDS);
            assertThat(timer.get(10, TimeUnit.SECONDS).getName()).startsWith("iwarp-client");
            CompletionQueue foreign = (CompletionQueue) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {CompletionQueue.class}, (o, m, a) -> null);
            assertThatThrownBy(() -> NettyVerbs.eventLoop(foreign)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
