package org.iwarp4j.verbs;

import io.netty.channel.EventLoop;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.netty.NettyVerbs;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
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

    /**
     * One event loop per RNIC, as the perf tools run: the accepted queue pair then lives on the loop of its completion
     * queues too (with more loops it lives on its channel's, and a task of its queues' executor runs elsewhere).
     */
    private static Peers oneLoopEach() throws Exception {
        return new Peers(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1), b -> { }, b -> { },
                ListenOptions.defaults(), ConnectOptions.defaults(), AcceptOptions.defaults(), q -> { });
    }

    /**
     * What the application's code on the loop posts goes to the queue pair at once, but never ahead of what another
     * thread posted before it and the loop has not taken yet: a receive posted (and returned) on another thread while
     * the loop runs a task is consumed before the one the task posts after it.
     */
    @Test
    void aReceivePostedOnTheLoopDoesNotPassOneHandedOverBeforeIt() throws Exception {
        try (Peers p = oneLoopEach()) {
            Peers.Mem in = p.server.region(32, Access.LOCAL_WRITE);
            Peers.Mem out = p.client.region(32);
            out.put(0, "first message...".getBytes(StandardCharsets.US_ASCII));
            out.put(16, "second message..".getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<Void> posted = new CompletableFuture<>();
            p.server.sendCq.executor().execute(() -> { // the server queue pair's loop
                try {
                    Thread other = new Thread(() -> p.server.receive(1, in.sge(0, 16)));
                    other.start();
                    other.join(); // handed over; the loop, running this task, has not taken it
                    p.server.receive(2, in.sge(16, 16));
                    posted.complete(null);
                } catch (Throwable t) {
                    posted.completeExceptionally(t);
                }
            });
            posted.get(10, TimeUnit.SECONDS);
            p.client.post(Send.of(11, out.sge(0, 16)));
            p.client.post(Send.of(12, out.sge(16, 16)));
            WorkCompletion first = Completions.one(p.server.recvCq);
            WorkCompletion second = Completions.one(p.server.recvCq);
            assertThat(first.wrId()).isEqualTo(1);
            assertThat(second.wrId()).isEqualTo(2);
            assertThat(new String(in.bytes(0, 32), StandardCharsets.US_ASCII))
                    .isEqualTo("first message...second message..");
        }
    }

    /**
     * The same for sends: a Send another thread posted while the loop ran a task goes out before the one the task
     * posts after it. A Bind Memory Window, a local operation, waits for the Sends before it; the Send posted after
     * it waits for it, and the Send its future's callback posts comes behind that one: nothing lost, nothing out of
     * the order of posting.
     */
    @Test
    void aSendPostedOnTheLoopDoesNotPassOneHandedOverBeforeIt() throws Exception {
        try (Peers p = oneLoopEach()) {
            Peers.Mem in = p.server.region(64, Access.LOCAL_WRITE);
            for (int i = 0; i < 4; i++) {
                p.server.receive(i, in.sge(16 * i, 16));
            }
            Peers.Mem out = p.client.region(64);
            for (int i = 0; i < 4; i++) {
                out.put(16 * i, ("message number " + i).getBytes(StandardCharsets.US_ASCII));
            }
            MemoryRegion bindable = p.client.pd.allocateRegion(64, Access.LOCAL_WRITE, Access.MW_BIND);
            MemoryWindow window = p.client.pd.allocateMemoryWindow();
            QueuePair qp = p.client.qp;
            CompletableFuture<Void> posted = new CompletableFuture<>();
            p.client.sendCq.executor().execute(() -> { // the client queue pair's loop
                try {
                    Thread other = new Thread(() -> qp.postSend(Send.of(20, out.sge(0, 16))));
                    other.start();
                    other.join();
                    qp.postSend(Send.of(21, out.sge(16, 16)));
                    qp.postSendAsync(SendWorkRequest.BindMemoryWindow.of(22, window, bindable, 0, 64,
                            Access.REMOTE_READ)).thenRun(() -> qp.postSend(Send.of(23, out.sge(32, 16))));
                    qp.postSend(Send.of(24, out.sge(48, 16)));
                    posted.complete(null);
                } catch (Throwable t) {
                    posted.completeExceptionally(t);
                }
            });
            posted.get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 4; i++) {
                WorkCompletion wc = Completions.one(p.server.recvCq);
                assertThat(wc.isSuccess()).as(wc.toString()).isTrue();
                assertThat(wc.wrId()).isEqualTo(i);
            }
            assertThat(new String(in.bytes(0, 64), StandardCharsets.US_ASCII))
                    .isEqualTo("message number 0message number 1message number 3message number 2");
            assertThat(window.isBound()).isTrue();
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
