package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * As in libibverbs, a request holds its queue slot until its completion is polled, so a completion queue as deep
 * as the queues that use it cannot overflow however the application lets completions pile up.
 */
@Timeout(60)
class QueueSizingTest {

    @Test
    void completionsNotPolledKeepTheirSlotsSoTheQueueCannotOverflow() throws Exception {
        try (Peers p = new Peers(Transport.NIO, s -> { }, c -> c.maxSendWr(4), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            CompletionQueue cq = p.clientRnic.createCompletionQueue(4); // exactly the send queue's depth
            // a second connection for this queue pair, whose send queue alone feeds the 4-deep queue
            QueuePair server2 = p.server.pd.createQueuePair(p.server.qpConfig().build());
            QueuePair client2 = p.client.pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(4).build());
            p.connectAnother(server2, client2);
            Mem src = p.client.region(64);
            Mem remote = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            int posted = 0;
            for (int i = 0; i < 100; i++) {
                if (client2.tryPostSend(SendWorkRequest.RdmaWrite.of(i, src.sge(0, 64),
                        remote.region().remoteBuffer()))) {
                    posted++;
                }
            }
            assertThat(posted).as("the fifth waits for a poll").isEqualTo(4);
            // all four complete, none overflows: the queue holds them until polled
            Completions.awaitSize(cq, 4);
            assertThat(cq.size()).isEqualTo(4);
            assertThat(client2.sendQueueAvailable()).as("completed, not polled: still taken").isZero();
            assertThat(client2.state()).isEqualTo(QueuePairState.RTS);
            WorkCompletion[] wcs = WorkCompletion.array(2);
            assertThat(cq.poll(wcs)).isEqualTo(2);
            assertThat(wcs).extracting(WorkCompletion::wrId, WorkCompletion::status)
                    .containsExactly(tuple(0L, CompletionStatus.SUCCESS), tuple(1L, CompletionStatus.SUCCESS));
            assertThat(client2.sendQueueAvailable()).as("polling frees them").isEqualTo(2);
            assertThat(client2.tryPostSend(SendWorkRequest.RdmaWrite.of(99, src.sge(0, 64),
                    remote.region().remoteBuffer()))).isTrue();
            assertThat(Completions.await(cq, 3)).as("the two left and request 99")
                    .extracting(WorkCompletion::wrId, WorkCompletion::status).containsExactly(
                            tuple(2L, CompletionStatus.SUCCESS), tuple(3L, CompletionStatus.SUCCESS),
                            tuple(99L, CompletionStatus.SUCCESS));
            assertThat(client2.sendQueueAvailable()).isEqualTo(4);
            // an unsignaled success has no completion: its slot frees when it completes
            assertThat(client2.tryPostSend(SendWorkRequest.RdmaWrite.of(100, src.sge(0, 64),
                    remote.region().remoteBuffer()).withFlags(Set.of()))).isTrue();
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (client2.sendQueueAvailable() < 4 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(client2.sendQueueAvailable()).isEqualTo(4);
            assertThat(cq.size()).isZero();
        }
    }
}
