package org.iwarp4j.verbs;

import org.assertj.core.api.Assertions;
import org.iwarp4j.verbs.Peers.Mem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Graceful and abortive disconnects with work outstanding on both sides: every work request completes
 * (done ones with SUCCESS, in order, the rest with WORK_REQUEST_FLUSHED), nothing hangs.
 */
class DisconnectTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);
    private static final int WRITES = 32;
    private static final int SIZE = 1 << 20;

    private static void loadAndEnd(Peers p, boolean graceful) throws Exception {
        Mem target = p.server.region(SIZE, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        Mem serverRecv = p.server.region(64, Access.LOCAL_WRITE);
        for (int i = 0; i < 3; i++) {
            p.server.receive(100 + i, serverRecv.sge(i * 16, 16));
        }
        // the server also has a Read outstanding towards the client when the client goes away
        Mem clientReadable = p.client.region(SIZE, Access.REMOTE_READ, Access.LOCAL_WRITE);
        Mem serverSink = p.server.region(SIZE, Access.LOCAL_WRITE);
        Mem src = p.client.region(SIZE);
        Mem clientRecv = p.client.region(64, Access.LOCAL_WRITE);
        for (int i = 0; i < 3; i++) {
            p.client.receive(200 + i, clientRecv.sge(i * 16, 16));
        }
        for (int i = 0; i < WRITES; i++) {
            p.client.post(new SendWorkRequest.RdmaWrite(i, List.of(src.sge(0, SIZE)), target.stag(), target.address(),
                    SIGNALED));
        }
        p.server.post(new SendWorkRequest.RdmaRead(300, List.of(serverSink.sge(0, SIZE)), clientReadable.stag(),
                clientReadable.address(), SIGNALED));
        if (graceful) {
            p.clientConnection.disconnect().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } else {
            p.clientConnection.close();
        }
        List<WorkCompletion> writes = Completions.await(p.client.sendCq, WRITES);
        assertThat(writes).extracting(WorkCompletion::wrId).as("in posting order")
                .isEqualTo(LongStream.range(0, WRITES).boxed().toList());
        int firstFlushed = WRITES;
        for (int i = 0; i < WRITES; i++) {
            CompletionStatus s = writes.get(i).status();
            assertThat(s).isIn(CompletionStatus.SUCCESS, CompletionStatus.WORK_REQUEST_FLUSHED);
            if (s == CompletionStatus.WORK_REQUEST_FLUSHED && firstFlushed == WRITES) {
                firstFlushed = i;
            }
            if (i > firstFlushed) {
                assertThat(s).as("nothing succeeds after the first flushed request").isEqualTo(
                        CompletionStatus.WORK_REQUEST_FLUSHED);
            }
        }
        List<WorkCompletion> clientReceives = Completions.await(p.client.recvCq, 3);
        assertThat(clientReceives).extracting(WorkCompletion::status)
                .containsOnly(CompletionStatus.WORK_REQUEST_FLUSHED);
        assertThat(clientReceives).extracting(WorkCompletion::wrId).containsExactly(200L, 201L, 202L);
        assertThat(clientReceives).extracting(WorkCompletion::opcode).containsOnly(CompletionOpcode.RECV);
        // the peer's FIN or RST is a normal disconnect for the server (siw-interop §A, §G)
        List<WorkCompletion> serverReceives = Completions.await(p.server.recvCq, 3);
        assertThat(serverReceives).extracting(WorkCompletion::status)
                .containsOnly(CompletionStatus.WORK_REQUEST_FLUSHED);
        WorkCompletion read = Completions.one(p.server.sendCq);
        assertThat(read.wrId()).isEqualTo(300);
        assertThat(read.status()).isIn(CompletionStatus.SUCCESS, CompletionStatus.WORK_REQUEST_FLUSHED);
        p.serverConnection.closeFuture().toCompletableFuture().get(20, TimeUnit.SECONDS);
        assertThat(p.client.qp.state()).isEqualTo(QueuePairState.ERROR);
        assertThat(p.server.qp.state()).isEqualTo(QueuePairState.ERROR);
        // posting to a dead queue pair is accepted and flushed, as in the libibverbs error state
        p.client.post(new SendWorkRequest.Send(9, List.of(), Set.of(SendFlag.SIGNALED)));
        WorkCompletion late = Completions.one(p.client.sendCq);
        assertThat(late.wrId()).isEqualTo(9);
        assertThat(late.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        // ... until the queue pair is closed: then the post is refused
        p.client.qp.close();
        assertThat(Assertions.catchThrowableOfType(VerbsException.class, () -> p.client.post(
                new SendWorkRequest.Send(10, List.of(), Set.of()))).reason())
                .isEqualTo(VerbsException.Reason.WRONG_STATE);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void gracefulDisconnectFlushesEverything(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            loadAndEnd(p, true);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void abortiveCloseFlushesEverything(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            loadAndEnd(p, false);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void closingTheQueuePairClosesTheConnection(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem recv = p.server.region(16, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 16));
            p.client.qp.close();
            WorkCompletion wc = Completions.one(p.server.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            p.clientConnection.closeFuture().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
    }
}
