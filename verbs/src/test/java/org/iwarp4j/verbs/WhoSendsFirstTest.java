package org.iwarp4j.verbs;

import java.time.Duration;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RFC 5044 §7.1.2 rule 4: an MPA Responder sends no FPDU before it received the Initiator's first. A server's
 * Send right after accept is held, and the API says so instead of staying silent.
 */
@Timeout(60)
class WhoSendsFirstTest {

    @Test
    void aServersSendIsHeldVisiblyUntilTheClientSends() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            assertThat(p.serverConnection.sendsHeld()).isTrue();
            assertThat(p.server.qp.query().sendsHeld()).isTrue();
            assertThat(p.clientConnection.sendsHeld()).as("an Initiator sends at once").isFalse();
            Mem recv = p.client.region(8, Access.LOCAL_WRITE);
            p.client.receive(1, recv.sge(0, 8));
            p.server.post(SendWorkRequest.Send.of(1, p.server.region(8).sge(0, 8)));
            assertThat(p.client.recvCq.take(Duration.ofMillis(300))).as("held").isEmpty();
            assertThat(p.server.sendCq.size()).as("not completed either").isZero();
            // the client speaks first: the hold lifts, the server's Send goes out
            p.server.receive(1, p.server.region(8, Access.LOCAL_WRITE).sge(0, 8));
            p.client.post(SendWorkRequest.Send.of(2, p.client.region(8).sge(0, 8)));
            assertThat(Completions.one(p.client.recvCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(Completions.one(p.server.sendCq).wrId()).isEqualTo(1);
            assertThat(p.serverConnection.sendsHeld()).isFalse();
        }
    }

    @Test
    void peerToPeerModeLetsTheServerSendFirst() throws Exception {
        try (Peers p = new Peers(Transport.NIO, s -> { }, c -> { },
                ConnectOptions.builder().mpa(m -> m.peerToPeer(RtrType.WRITE)).build(), AcceptOptions.defaults(),
                x -> { })) {
            Mem recv = p.client.region(8, Access.LOCAL_WRITE);
            p.client.receive(1, recv.sge(0, 8));
            p.server.post(SendWorkRequest.Send.of(1, p.server.region(8).sge(0, 8)));
            assertThat(Completions.one(p.client.recvCq).status()).as("the RTR released the server").isEqualTo(
                    CompletionStatus.SUCCESS);
            assertThat(p.serverConnection.sendsHeld()).isFalse();
            assertThat(p.server.sendCq.poll(WorkCompletion.array(1), Duration.ofSeconds(20))).isEqualTo(1);
        }
    }
}
