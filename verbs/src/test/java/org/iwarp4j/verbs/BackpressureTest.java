package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A full send queue is backpressure, not an error: tryPostSend, cheap exceptions, per-request futures. */
@Timeout(60)
class BackpressureTest {

    @Test
    void tryPostSendSaysFullWithoutAnExceptionAndPostsNothing() throws Exception {
        try (Peers p = new Peers(Transport.NIO, s -> { }, c -> c.maxSendWr(4), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            Mem src = p.client.region(64);
            Mem remote = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            int posted = 0;
            int completed = 0;
            int refused = 0;
            for (int i = 0; i < 2000; i++) {
                if (p.client.qp.tryPostSend(SendWorkRequest.RdmaWrite.of(i, src.sge(0, 64),
                        remote.region().remoteBuffer()))) {
                    posted++;
                } else {
                    refused++;
                    assertThat(p.client.qp.sendQueueAvailable()).isLessThanOrEqualTo(0);
                    Completions.one(p.client.sendCq); // a completion frees a slot
                    completed++;
                }
            }
            assertThat(refused).as("a 4-deep queue fills under 2000 posts").isPositive();
            Completions.await(p.client.sendCq, posted - completed);
            assertThat(p.client.qp.sendQueueAvailable()).isEqualTo(4);
            assertThat(p.client.qp.query().sendQueueAvailable()).isEqualTo(4);
        }
    }

    @Test
    void aFullQueueThrowsACheapException() throws Exception {
        try (Peers p = new Peers(Transport.NIO, s -> { }, c -> c.maxSendWr(1), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            Mem src = p.client.region(64);
            Mem remote = p.server.region(1 << 20, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            List<VerbsException> full = new ArrayList<>();
            for (int i = 0; i < 200 && full.isEmpty(); i++) {
                try {
                    p.client.qp.postSend(SendWorkRequest.RdmaWrite.of(i, src.sge(0, 64),
                            remote.region().remoteBuffer()));
                } catch (VerbsException e) {
                    full.add(e);
                }
            }
            assertThat(full).isNotEmpty();
            VerbsException e = full.get(0);
            assertThat(e.reason()).isEqualTo(VerbsException.Reason.QUEUE_FULL);
            assertThat(e.getStackTrace()).as("no stack trace on the data path").isEmpty();
            assertThat(e.getMessage()).as("made when read, from the queue's name and capacity")
                    .startsWith("QUEUE_FULL: send queue of queue pair " + p.client.qp.number() + " is full (1) [")
                    .contains("RdmaWrite[wrId=");
            assertThat(e.workRequest()).isPresent();
        }
    }

    @Test
    void programmingErrorsAreUncheckedAndCarryTheirStackTrace() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            Mem other = new Peers.Side(p.serverRnic, 4).region(16); // a region of another RNIC's domain
            assertThatThrownBy(() -> p.client.qp.postSend(SendWorkRequest.Send.of(1, other.sge(0, 16))))
                    .isInstanceOfSatisfying(VerbsException.class, e -> {
                        assertThat(e.reason()).isEqualTo(VerbsException.Reason.INVALID_SGE);
                        assertThat(e.getStackTrace()).isNotEmpty();
                    });
        }
    }

    @Test
    void postSendAsyncCompletesItsOwnFutureInsteadOfTheQueue() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            Mem src = p.client.region(64);
            Mem remote = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            CompletableFuture<WorkCompletion> ok = p.client.qp.postSendAsync(
                    SendWorkRequest.RdmaWrite.of(1, src.sge(0, 64), remote.region().remoteBuffer())
                            .withFlags(Set.of())); // reported even unsignaled
            WorkCompletion wc = ok.get(20, TimeUnit.SECONDS);
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(wc.opcode()).isEqualTo(CompletionOpcode.RDMA_WRITE);
            assertThat(wc.byteLength()).isEqualTo(64);
            // a Read from an STag that does not exist: the peer terminates, the future fails with its completion
            RemoteBuffer bogus = new RemoteBuffer(new Stag(remote.stag().value() ^ 0x55), remote.address(), 64);
            CompletableFuture<WorkCompletion> bad = p.client.qp.postSendAsync(
                    SendWorkRequest.RdmaRead.of(2, p.client.region(64, Access.LOCAL_WRITE).sge(0, 64), bogus));
            assertThatThrownBy(() -> bad.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(WorkCompletionException.class, e -> {
                        assertThat(e.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
                        assertThat(e.completion().terminate()).isPresent();
                    });
            assertThat(p.client.sendCq.size()).as("neither went to the completion queue").isZero();
        }
    }
}
