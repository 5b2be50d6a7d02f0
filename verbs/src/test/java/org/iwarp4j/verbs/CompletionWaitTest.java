package org.iwarp4j.verbs;

import org.assertj.core.api.Assertions;
import org.iwarp4j.verbs.Peers.Mem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The three ways to wait for completions: a blocking poll, a completion channel, a handler. */
@Timeout(60)
class CompletionWaitTest {

    private static Peers peers() throws Exception {
        return new Peers(Transport.NIO);
    }

    /** A Send from the client, for which the server has a receive (one without would end the connection). */
    private static void send(Peers p, long wrId) {
        Mem sink = p.server.region(16, Access.LOCAL_WRITE);
        p.server.receive(wrId, sink.sge(0, 16));
        Mem src = p.client.region(16);
        p.client.post(SendWorkRequest.Send.of(wrId, src.sge(0, 16)));
    }

    /**
     * Spins (at most 10 s) until {@code t} parks. A thread parked in one of this API's blocking waits is past its
     * first look: whatever happens from then on (a completion, a close) has to wake it.
     */
    private static void awaitParked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Thread.State state;
        while ((state = t.getState()) != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            if (state == Thread.State.TERMINATED || System.nanoTime() > deadline) {
                throw new AssertionError(t.getName() + " did not park: " + state);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aBlockingPollWaitsForTheNextCompletionAndTimesOutEmpty() throws Exception {
        try (Peers p = peers()) {
            WorkCompletion[] wcs = WorkCompletion.array(4);
            long start = System.nanoTime();
            assertThat(p.client.sendCq.poll(wcs, Duration.ofMillis(200))).isZero();
            assertThat(System.nanoTime() - start).as("it waited").isGreaterThanOrEqualTo(150_000_000L);
            CompletableFuture<Integer> waiting = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    waiting.complete(p.client.sendCq.poll(wcs, Duration.ofSeconds(20)));
                } catch (Throwable e) {
                    waiting.completeExceptionally(e);
                }
            }, "poll-waiter");
            waiter.start();
            awaitParked(waiter); // so the completion wakes a waiter rather than meeting a poll
            send(p, 5);
            assertThat(waiting.get(20, TimeUnit.SECONDS)).isEqualTo(1);
            waiter.join(10_000);
            assertThat(wcs[0].wrId()).isEqualTo(5);
            assertThat(wcs[0].status()).isEqualTo(CompletionStatus.SUCCESS);
            send(p, 6);
            Optional<WorkCompletion> taken = p.client.sendCq.take(Duration.ofSeconds(20));
            assertThat(taken).hasValueSatisfying(wc -> assertThat(wc.wrId()).isEqualTo(6));
            assertThat(p.client.sendCq.take(Duration.ofMillis(50))).isEmpty();
        }
    }

    @Test
    void aCompletionChannelReportsEachArmedQueueOnce() throws Exception {
        try (Peers p = peers()) {
            CompletionChannel channel = p.clientRnic.createCompletionChannel();
            CompletionQueue cq = p.clientRnic.createCompletionQueue(16, channel);
            QueuePair qp = p.client.pd.createQueuePair(cq);
            assertThat(cq.channel()).containsSame(channel);
            // Completions without a connection: an unconnected queue pair's receive, flushed when it is closed.
            // Not armed: a completion fires nothing.
            CompletionQueue unarmed = p.clientRnic.createCompletionQueue(16, channel);
            QueuePair idle = p.client.pd.createQueuePair(unarmed);
            idle.postReceive(ReceiveWorkRequest.of(7, p.client.region(8, Access.LOCAL_WRITE).region()));
            idle.close();
            assertThat(Completions.one(unarmed)).extracting(WorkCompletion::wrId, WorkCompletion::status)
                    .containsExactly(7L, CompletionStatus.WORK_REQUEST_FLUSHED);
            assertThat(channel.pending()).as("an unarmed queue's completion").isZero();
            // armed: one completion, one event
            qp.postReceive(ReceiveWorkRequest.of(1, p.client.region(8, Access.LOCAL_WRITE).region()));
            cq.arm(NotifyMode.NEXT);
            qp.close(); // flushes the receive: one completion, one event
            assertThat(channel.take(Duration.ofSeconds(20))).containsSame(cq);
            assertThat(channel.pending()).isZero();
            assertThat(cq.poll(WorkCompletion.array(4))).isEqualTo(1);
            assertThat(channel.take(Duration.ofMillis(100))).as("one-shot: not re-armed").isEmpty();
            // closing the channel wakes a waiter, which returns empty instead of sitting out its 20 s
            CompletableFuture<Optional<CompletionQueue>> woken = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    woken.complete(channel.take(Duration.ofSeconds(20)));
                } catch (Throwable e) {
                    woken.completeExceptionally(e);
                }
            }, "channel-waiter");
            waiter.start();
            awaitParked(waiter);
            channel.close();
            waiter.join(10_000);
            assertThat(waiter.isAlive()).as("still waiting 10 s after the close").isFalse();
            assertThat(woken).isCompletedWithValue(Optional.empty());
            assertThat(channel.take(Duration.ofSeconds(5))).isEmpty();
        }
    }

    @Test
    void armingWithoutAChannelIsAClearError() throws Exception {
        try (Peers p = peers()) {
            Assertions.assertThatIllegalStateException()
                    .isThrownBy(() -> p.client.sendCq.arm(NotifyMode.NEXT))
                    .withMessageContaining("no completion channel");
        }
    }

    @Test
    void aHandlerRunsOnceOnAnEventLoopPerArm() throws Exception {
        try (Peers p = peers()) {
            AtomicInteger runs = new AtomicInteger();
            CompletableFuture<String> thread = new CompletableFuture<>();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> {
                runs.incrementAndGet();
                thread.complete(Thread.currentThread().getName());
            });
            send(p, 1);
            send(p, 2);
            assertThat(Completions.await(p.client.sendCq, 2)).extracting(WorkCompletion::wrId, WorkCompletion::status)
                    .containsExactly(tuple(1L, CompletionStatus.SUCCESS), tuple(2L, CompletionStatus.SUCCESS));
            assertThat(thread.get(20, TimeUnit.SECONDS)).startsWith("iwarp-client");
            awaitHandlersQueuedSoFar(p, p.client.sendCq, 3);
            assertThat(runs).as("two completions, one arm: one run").hasValue(1);
        }
    }

    /**
     * Arms {@code cq} with a handler, produces one more completion and waits until the handler has run. Handlers run
     * in order on the queue's event loop, so any run that earlier completions queued has happened by then.
     */
    private static void awaitHandlersQueuedSoFar(Peers p, CompletionQueue cq, long wrId) throws Exception {
        CompletableFuture<Void> ran = new CompletableFuture<>();
        cq.arm(NotifyMode.NEXT, q -> ran.complete(null));
        send(p, wrId);
        ran.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aDisarmedHandlerDoesNotRun() throws Exception {
        try (Peers p = peers()) {
            AtomicInteger runs = new AtomicInteger();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> runs.incrementAndGet());
            p.client.sendCq.disarm();
            send(p, 1);
            assertThat(p.client.sendCq.take(Duration.ofSeconds(20))).isPresent();
            awaitHandlersQueuedSoFar(p, p.client.sendCq, 2);
            assertThat(runs).hasValue(0);
            assertThat(Completions.one(p.client.sendCq)).extracting(WorkCompletion::wrId, WorkCompletion::status)
                    .containsExactly(2L, CompletionStatus.SUCCESS);
        }
    }

    /**
     * A virtual thread (Java 21) waits in a blocking poll like a platform thread: it parks, and the completions
     * wake it. This runs wherever the JVM has virtual threads; on Java 17 (the build's baseline) it cannot, and says
     * so (verbs/pom.xml runs this class once more on JDK 25 where that is installed).
     */
    @Test
    void aVirtualThreadWaitsForCompletions() throws Exception {
        Method ofVirtual;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
        } catch (NoSuchMethodException e) {
            org.slf4j.LoggerFactory.getLogger(CompletionWaitTest.class).warn("SKIPPED: virtual threads need Java 21+;"
                    + " this JVM is {}", Runtime.version());
            Assumptions.abort("virtual threads need Java 21+, this JVM is " + Runtime.version());
            return;
        }
        try (Peers p = peers()) {
            Object builder = ofVirtual.invoke(null);
            Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
            AtomicReference<List<Long>> got = new AtomicReference<>();
            Thread t = (Thread) start.invoke(builder, (Runnable) () -> {
                try {
                    got.set(Completions.await(p.client.sendCq, 3).stream().map(WorkCompletion::wrId).toList());
                } catch (RuntimeException e) {
                    got.set(List.of());
                }
            });
            awaitParked(t);
            send(p, 1);
            send(p, 2);
            send(p, 3);
            t.join(20_000);
            assertThat(got.get()).containsExactly(1L, 2L, 3L);
        }
    }
}
