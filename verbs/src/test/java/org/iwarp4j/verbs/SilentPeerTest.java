package org.iwarp4j.verbs;

import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ConnectionLostException;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MPA-39 (RFC 5044 §7.1.2 rule 10, "ULPs time out waiting for FPDUs"): a peer that accepts the connection, takes
 * our RDMA Read Request (TCP acknowledges it) and then never answers is noticed after the queue pair's response
 * timeout — the Read completes with RESPONSE_TIMEOUT, the rest is flushed, the queue pair fails with an async
 * event and the connection is closed with a FIN. The peer is a {@link ScriptedPeer} on loopback.
 */
class SilentPeerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Generous: the watchdog notices within 5/4 of the timeout; this only bounds a hang. */
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static StartupFrame.Enhanced block() {
        return new StartupFrame.Enhanced(false, false, 4, false, false, 4);
    }

    private static final class Client implements AutoCloseable {
        final Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build());
        final Peers.Side side;
        final Peers.Mem sink;
        final CompletableFuture<CmEvent.Disconnected> disconnected = new CompletableFuture<>();
        final CompletableFuture<AsyncEvent> event = new CompletableFuture<>();

        Client(Duration responseTimeout) throws VerbsException {
            side = new Peers.Side(rnic, 16);
            side.qp = side.pd.createQueuePair(side.qpConfig().responseTimeout(responseTimeout).build());
            side.qp.onAsyncEvent(event::complete);
            sink = side.region(64, Access.LOCAL_WRITE);
            side.receive(1, sink.sge(32, 32));
        }

        void connect(ScriptedPeer peer) throws Exception {
            rnic.connect(peer.address(), side.qp, ConnectOptions.builder().mpa(m -> m.crc(false)).eventListener(e -> {
                if (e instanceof CmEvent.Disconnected d) {
                    disconnected.complete(d);
                }
            }).build()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            rnic.close();
        }
    }

    @Test
    void aReadThePeerNeverAnswersTimesOutFailsTheQueuePairAndCloses() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client(TIMEOUT)) {
            peer.stepTimeout(WAIT);
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block()))
                    .expectFpdu().and() // our Read Request; never answered
                    .expectFpdu().and() // our Send
                    .expectFin()
                    .start();
            client.connect(peer);
            RemoteBuffer remote = new RemoteBuffer(new Stag(0x1234_5601), 0x1000, 16);
            long posted = System.nanoTime();
            client.side.post(RdmaRead.of(7, client.sink.sge(0, 16), remote));
            client.side.post(Send.of(8, client.sink.sge(0, 4))); // behind the Read; completes once TCP took it

            List<WorkCompletion> sends = Completions.await(client.side.sendCq, 2, WAIT);
            long waited = System.nanoTime() - posted;
            WorkCompletion read = sends.stream().filter(w -> w.wrId() == 7).findFirst().orElseThrow();
            WorkCompletion send = sends.stream().filter(w -> w.wrId() == 8).findFirst().orElseThrow();
            assertThat(read.status()).isEqualTo(CompletionStatus.RESPONSE_TIMEOUT);
            assertThat(read.status().isFlush()).isFalse();
            assertThat(read.opcode()).isEqualTo(CompletionOpcode.RDMA_READ);
            assertThat(send.status()).as("TCP took it (RFC 5040 §5.5)").isEqualTo(CompletionStatus.SUCCESS);
            assertThat(Duration.ofNanos(waited)).as("not before the timeout").isGreaterThanOrEqualTo(TIMEOUT);
            assertThat(Completions.one(client.side.recvCq).status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);

            AsyncEvent event = client.event.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(event.type()).isEqualTo(AsyncEvent.Type.RESPONSE_TIMEOUT);
            assertThat(event.detail()).contains("1000 ms").contains("responseTimeout");
            assertThat(client.side.qp.state()).isEqualTo(QueuePairState.ERROR);
            CmEvent.Disconnected d = client.disconnected.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(d.reason()).isEqualTo(DisconnectReason.RESPONSE_TIMEOUT);
            assertThat(d.reason().isClean()).isFalse();
            assertThat(d.cause()).containsInstanceOf(ConnectionLostException.class);
            peer.waitForScriptToComplete(WAIT); // the peer saw a FIN, not a reset, and nothing after the Read
        }
    }

    @Test
    void anAtomicThePeerNeverAnswersTimesOutToo() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client(TIMEOUT)) {
            peer.stepTimeout(WAIT);
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block()))
                    .expectFpdu().and()
                    .expectFin()
                    .start();
            client.connect(peer);
            client.side.post(AtomicFetchAdd.of(9, new RemoteBuffer(new Stag(0x1234_5601), 0x1000, 8), 1));
            WorkCompletion wc = Completions.one(client.side.sendCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.RESPONSE_TIMEOUT);
            assertThat(client.disconnected.get(WAIT.toSeconds(), TimeUnit.SECONDS).reason())
                    .isEqualTo(DisconnectReason.RESPONSE_TIMEOUT);
            peer.waitForScriptToComplete(WAIT);
        }
    }

    @Test
    void withTheTimeoutOffTheReadWaitsAndTheConnectionStays() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client(Duration.ZERO)) {
            peer.stepTimeout(WAIT);
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block())).expectFpdu().and().start();
            client.connect(peer);
            client.side.post(RdmaRead.of(7, client.sink.sge(0, 16), new RemoteBuffer(new Stag(0x1234_5601), 0, 16)));
            peer.waitForScriptToComplete(WAIT);
            // Four times the timeout of the other tests, and nothing happens.
            assertThat(client.side.sendCq.poll(WorkCompletion.array(1), TIMEOUT.multipliedBy(4))).isZero();
            assertThat(client.side.qp.state()).isEqualTo(QueuePairState.RTS);
            assertThat(client.disconnected).isNotDone();
        }
    }

    @Test
    void anIdleConnectionThatOwesNothingIsNeverTimedOut() throws Exception {
        try (Peers peers = new Peers(Transport.NIO, s -> { }, c -> c.responseTimeout(Duration.ofMillis(200)),
                ConnectOptions.defaults(), AcceptOptions.defaults(), p -> { })) {
            Peers.Mem served = peers.server.region(64, Access.REMOTE_READ);
            Peers.Mem sink = peers.client.region(64, Access.LOCAL_WRITE);
            // Idle for many timeouts: nothing outstanding, nothing to notice.
            assertThat(peers.client.sendCq.poll(WorkCompletion.array(1), Duration.ofSeconds(2))).isZero();
            assertThat(peers.client.qp.state()).isEqualTo(QueuePairState.RTS);
            RemoteBuffer remote = new RemoteBuffer(served.stag(), served.address(), 64);
            for (int i = 0; i < 20; i++) {
                WorkCompletion wc = peers.client.qp.postSendAsync(RdmaRead.of(i, sink.sge(0, 64), remote))
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            assertThat(peers.clientConnection.closeFuture()).isNotDone();
        }
    }
}
