package org.iwarp4j.verbs;

import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectionLostException;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The connection manager's two duties towards MPA that live in {@code QueuePairHandler}: a FIN or RST
 * between FPDUs reaches RDMAP and the user as the LLP error 0x2/0x0/0x01 (RFC 5044 §8) and flushes the
 * outstanding work; and an Initiator that finds the Reply's private data unacceptable leaves MPA without
 * sending anything and closes (RFC 5044 §7.1.2 rule 3).
 */
class LlpLossAndReplyCheckTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The queue pair of an Initiator RNIC, one receive posted, connected to {@code peer}. */
    private static final class Client implements AutoCloseable {
        final Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build());
        final Peers.Side side;
        final CompletableFuture<CmEvent.Disconnected> disconnected = new CompletableFuture<>();

        Client() throws VerbsException {
            side = new Peers.Side(rnic, 16);
            side.qp = side.pd.createQueuePair(side.qpConfig().build());
            Peers.Mem recv = side.region(64, Access.LOCAL_WRITE);
            side.receive(1, recv.sge(0, 64));
        }

        CompletableFuture<Connection> connect(ScriptedPeer peer, ConnectOptions.Builder options) {
            return rnic.connect(peer.address(), side.qp, options.mpa(m -> m.crc(false)).eventListener(e -> {
                if (e instanceof CmEvent.Disconnected d) {
                    disconnected.complete(d);
                }
            }).build());
        }

        @Override
        public void close() {
            rnic.close();
        }
    }

    private static StartupFrame.Enhanced block() {
        return new StartupFrame.Enhanced(false, false, 4, false, false, 4);
    }

    @Test
    void peerFinBetweenFpdusIsACleanDisconnectAndFlushes() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block())).shutdownOutput().expectFin()
                    .start();
            client.connect(peer, ConnectOptions.builder()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            peer.waitForScriptToComplete(WAIT);
            // RFC 5044 §8 / RFC 5041 §7: the FIN reaches RDMAP as LLP error 0x01, which flushes the work; to the
            // application a FIN between FPDUs is the peer's graceful disconnect (RFC 5040 §6.2): no cause.
            CmEvent.Disconnected d = client.disconnected.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(d.reason()).isEqualTo(DisconnectReason.PEER_DISCONNECT);
            assertThat(d.cause()).isEmpty();
            WorkCompletion wc = Completions.one(client.side.recvCq);
            assertThat(wc.wrId()).isEqualTo(1);
            assertThat(wc.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        }
    }

    @Test
    void peerResetCarriesItsCause() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block())).dropConnection().start();
            client.connect(peer, ConnectOptions.builder()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            peer.waitForScriptToComplete(WAIT);
            CmEvent.Disconnected d = client.disconnected.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(d.reason()).isEqualTo(DisconnectReason.PEER_RESET);
            assertThat(d.cause()).containsInstanceOf(ConnectionLostException.class);
            assertThat(Completions.one(client.side.recvCq).status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        }
    }

    @Test
    void ourOwnDisconnectCarriesNoCause() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block())).expectFin().start();
            Connection c = client.connect(peer, ConnectOptions.builder()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            c.disconnect().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            peer.waitForScriptToComplete(WAIT);
            CmEvent.Disconnected d = client.disconnected.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(d.reason()).isEqualTo(DisconnectReason.LOCAL_DISCONNECT);
            assertThat(d.cause()).isEmpty();
            assertThat(c.closeFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(d);
        }
    }

    @Test
    void unacceptableReplyPrivateDataLeavesMpaAndCloses() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); Client client = new Client()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().enhanced(block()).privateData(new byte[] {'n', 'o'}))
                    .expectFin().start();
            CompletableFuture<Connection> f = client.connect(peer, ConnectOptions.builder()
                    .replyPrivateDataCheck(pd -> pd.length == 0));
            assertThatThrownBy(() -> f.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(ConnectionFailedException.class).hasMessageContaining("not accepted");
            assertThat(((ConnectionFailedException) f.handle((c, e) -> e.getCause() != null ? e.getCause() : e)
                    .get()).kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR);
            peer.waitForScriptToComplete(WAIT);
            assertThat(peer.received()).as("only the MPA Request went out").hasSize(24);
            assertThat(client.side.qp.state()).isEqualTo(QueuePairState.ERROR);
        }
    }
}
