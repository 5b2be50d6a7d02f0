package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Blocking inside a callback would deadlock the event loop that has to deliver what it waits for; the API
 * throws instead, as Netty's promises do ({@code BlockingOperationException}).
 */
@Timeout(60)
class EventLoopBlockingTest {

    @Test
    void waitingForADisconnectInsideACmListenerFailsFast() throws Exception {
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        ConnectOptions options = ConnectOptions.builder().eventListener(e -> {
            if (e instanceof CmEvent.Established est) {
                try {
                    est.connection().disconnect().get(5, TimeUnit.SECONDS);
                    thrown.complete(null);
                } catch (Throwable t) {
                    thrown.complete(t);
                }
            }
        }).build();
        try (Peers p = new Peers(Transport.NIO, s -> { }, c -> { }, options, AcceptOptions.defaults(), x -> { })) {
            assertThat(thrown.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("event loop").hasMessageContaining("deadlock");
            // the loop was not blocked: the disconnect it asked for went through
            assertThat(p.clientConnection.closeFuture().get(20, TimeUnit.SECONDS).reason())
                    .isEqualTo(DisconnectReason.LOCAL_DISCONNECT);
        }
    }

    @Test
    void derivedStagesFailFastToo() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> {
                CompletableFuture<String> derived = p.clientConnection.closeFuture().thenApply(d -> d.reason().name());
                try {
                    derived.join();
                    thrown.complete(null);
                } catch (Throwable t) {
                    thrown.complete(t);
                }
            });
            p.client.post(SendWorkRequest.ImmediateData.of(1, 7).withFlags(Set.of(SendFlag.SIGNALED)));
            assertThat(thrown.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void blockingPollsAndListenRefuseToRunOnTheLoop() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            CompletableFuture<Throwable> poll = new CompletableFuture<>();
            CompletableFuture<Throwable> listen = new CompletableFuture<>();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> {
                q.poll(WorkCompletion.array(16)); // empty now: a blocking poll would have to wait
                poll.complete(catchThrowable(() -> q.poll(WorkCompletion.array(1), Duration.ofSeconds(5))));
                listen.complete(catchThrowable(() -> p.clientRnic.listen(new InetSocketAddress(0),
                        ListenOptions.defaults(), r -> { })));
            });
            p.client.post(SendWorkRequest.ImmediateData.of(1, 7));
            assertThat(poll.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("CompletionQueue.poll");
            assertThat(listen.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Rnic.listen");
            // a future that is already done may be read anywhere: there is nothing to wait for
            CompletableFuture<Object> done = new CompletableFuture<>();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> {
                try {
                    done.complete(p.clientRnic.connect(new InetSocketAddress(1), p.client.qp,
                            ConnectOptions.defaults()).handle((c, t) -> t).join());
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            });
            p.client.post(SendWorkRequest.ImmediateData.of(2, 7));
            assertThat(done.get(20, TimeUnit.SECONDS)).as("the connect's own failure, read without blocking")
                    .isInstanceOf(IllegalStateException.class).asString().contains("fresh IDLE queue pair");
        }
    }

    @Test
    void everyWaitRefusesOnTheLoopOnlyWhenItWouldHaveToWait() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            Listener listener = p.clientRnic.listen(new InetSocketAddress(
                    InetAddress.getLoopbackAddress(), 0), ListenOptions.defaults());
            CompletionChannel idle = p.clientRnic.createCompletionChannel();
            // a channel with an event pending: a queue armed on it gets the flush of a closed queue pair's receive
            CompletionChannel busy = p.clientRnic.createCompletionChannel();
            CompletionQueue cq = p.clientRnic.createCompletionQueue(4, busy);
            QueuePair idleQp = p.client.pd.createQueuePair(cq);
            idleQp.postReceive(ReceiveWorkRequest.of(9, p.client.region(8, Access.LOCAL_WRITE).sge(0, 8)));
            cq.arm(NotifyMode.NEXT);
            idleQp.close();
            assertThat(busy.pending()).isEqualTo(1);
            CompletableFuture<List<Object>> seen = new CompletableFuture<>();
            p.client.sendCq.arm(NotifyMode.NEXT, q -> seen.complete(Arrays.asList(
                    catchThrowable(() -> idle.take(Duration.ofSeconds(5))),
                    catchThrowable(() -> listener.take(Duration.ofSeconds(5))),
                    catchThrowable(p.clientRnic::close),
                    tryTake(busy))));
            p.client.post(SendWorkRequest.ImmediateData.of(1, 7).withFlags(Set.of(SendFlag.SIGNALED)));
            List<Object> r = seen.get(20, TimeUnit.SECONDS);
            assertThat((Throwable) r.get(0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("CompletionChannel.take");
            assertThat((Throwable) r.get(1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Listener.take");
            assertThat((Throwable) r.get(2)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Rnic.close");
            assertThat(r.get(3)).as("an event already there is handed out, even on the loop")
                    .isEqualTo(Optional.of(cq));
        }
    }

    private static Object tryTake(CompletionChannel channel) {
        try {
            return channel.take(Duration.ofSeconds(5));
        } catch (Throwable t) {
            return t;
        }
    }
}
