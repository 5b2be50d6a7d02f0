package org.iwarp4j.conformance.siw;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.SiwFixtures;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.peer.ConversationReplay;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5, part (b): a machine without the lab still tests against real siw octets. The scripted peer
 * plays Linux siw's side of a recorded rping conversation (the lab's captures), segment by segment with
 * siw's exact octets; the real stack plays the other side through the verbs API with rping's logic. The
 * stack's octets must equal the lab probe's recorded octets except for the STags and addresses of its own
 * memory ({@link AddressMap}), which siw's later segments then carry back.
 */
class SiwRpingReplayTest {

    private static final int SIZE = 64;

    /**
     * What the stack tolerates from siw, without the first-FPDU nudge: the recording has no zero-length Write, and a
     * nudge (sent if siw's answer took longer than 500 ms on a loaded machine) would break the octet comparison.
     */
    private static final PeerProfile SIW_WITHOUT_NUDGE = PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ZERO);

    private static ConversationReplay recorded(String pcap) {
        return ConversationReplay.of(SiwFixtures.conversation(pcap));
    }

    /** Plays the recorded ULPDUs after the MPA exchange: siw's are sent (substituted), the stack's are checked. */
    private static void play(ScriptedPeer peer, ConversationReplay replay, Direction siw) {
        AddressMap addresses = new AddressMap();
        int i = 0;
        for (ConversationReplay.Ulpdu u : replay.timeline()) {
            i++;
            if (u.direction() == siw) {
                peer.sendFpdu(addresses.substitute(u.octets()));
            } else {
                CompletableFuture<DecodedFpdu> got = peer.expectFpdu().received();
                VerbsStack.awaitTrue(() -> got.isDone() || peer.failure() != null, "the stack's ULPDU " + i);
                assertThat(peer.failure()).isNull();
                String problem = addresses.check(u.octets(), got.join().ulpdu());
                assertThat(problem).as("the stack's ULPDU %d of the recording", i).isNull();
            }
        }
    }

    /** rping's buffer content for ping {@code n} (siw-interop §H): "rdma-ping-n: " then ASCII from 'A'+n, NUL last. */
    static byte[] rpingData(int n) {
        byte[] b = new byte[SIZE];
        byte[] prefix = ("rdma-ping-" + n + ": ").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(prefix, 0, b, 0, prefix.length);
        int c = 'A' + n;
        for (int i = prefix.length; i < SIZE - 1; i++) {
            b[i] = (byte) c;
            c = c + 1 > 'z' ? 'A' : c + 1;
        }
        return b;
    }

    private static byte[] advert(Region r) {
        return ByteBuffer.allocate(16).putLong(r.to(0)).putInt(r.stagValue()).putInt(SIZE).array();
    }

    @Test
    @Requirement({"RDMAP-06", "RDMAP-14", "RDMAP-17", "MPA-64"})
    @DisplayName("RDMAP-06, RDMAP-14, RDMAP-17, MPA-64: siw's rping client (recorded, 3 pings) against the stack as "
            + "rping server: the stack's Reply, Read Requests, go-ahead Sends and Writes are the recorded server's "
            + "octets (its own STags/TOs aside), and siw's data comes back")
    void siwRpingClientAgainstOurServer() throws Exception {
        ConversationReplay replay = recorded("probe-rping-server.pcap");
        int rounds = (int) replay.timeline().stream().filter(u -> u.direction() == Direction.I2R).count() / 3;
        assertThat(rounds).isEqualTo(3);
        try (VerbsStack server = new VerbsStack(b -> b.ird(1).ord(1).signalAll(true))) {
            Region recv = server.region(16, Access.LOCAL_WRITE);
            Region buf = server.region(SIZE, Access.LOCAL_WRITE);
            Region go = server.region(16);
            server.receive(0, recv.sge(0, 16));
            var address = server.listen(ListenOptions.builder().mpa(m -> m.crc(false))
                    .peerProfile(PeerProfile.LINUX_SIW), AcceptOptions.defaults().withIrdOrd(1, 1));
            CompletableFuture<Void> rping = CompletableFuture.runAsync(() -> {
                for (int n = 0; n < rounds; n++) {
                    WorkCompletion adv = server.recvCompletion();
                    assertThat(adv.byteLength()).isEqualTo(16);
                    ByteBuffer a = ByteBuffer.wrap(recv.bytes(0, 16));
                    server.receive(0, recv.sge(0, 16));
                    server.post(new SendWorkRequest.RdmaRead(1, List.of(buf.sge(0, a.getInt(12))),
                            new Stag(a.getInt(8)), a.getLong(0), Set.of()));
                    assertThat(server.sendCompletion().status()).isEqualTo(CompletionStatus.SUCCESS);
                    server.post(new SendWorkRequest.Send(2, List.of(go.sge(0, 16)), Set.of()));
                    server.sendCompletion();
                    server.recvCompletion();
                    ByteBuffer s = ByteBuffer.wrap(recv.bytes(0, 16));
                    server.receive(0, recv.sge(0, 16));
                    server.post(new SendWorkRequest.RdmaWrite(3, List.of(buf.sge(0, s.getInt(12))),
                            new Stag(s.getInt(8)), s.getLong(0), Set.of()));
                    server.sendCompletion();
                    server.post(new SendWorkRequest.Send(4, List.of(go.sge(0, 16)), Set.of()));
                    server.sendCompletion();
                }
            });
            try (ScriptedPeer peer = ScriptedPeer.client(address)) {
                peer.sendMpaFrame(replay.request().toBytes())
                        .expectBytes(replay.reply().toBytes(), "the recorded server's MPA Reply")
                        .fullOperation(false, false, false).start();
                play(peer, replay, Direction.I2R);
                peer.closeConnection();
                peer.waitForScriptToComplete(VerbsStack.WAIT);
                rping.get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            assertThat(buf.bytes(0, SIZE)).isEqualTo(rpingData(2));
            CmEvent.Disconnected end = server.disconnected();
            assertThat(end.reason()).as("siw's rping client closed gracefully")
                    .isEqualTo(DisconnectReason.PEER_DISCONNECT);
            assertThat(end.cause()).isEmpty();
        }
    }

    @Test
    @Requirement({"RDMAP-06", "RDMAP-13", "RDMAP-15", "MPA-64"})
    @DisplayName("RDMAP-06, RDMAP-13, RDMAP-15, MPA-64: siw's rping server (recorded, 3 pings) against the stack as "
            + "rping client: the stack's Request, adverts and Read Responses are the recorded client's octets (its own "
            + "STags/TOs aside) and siw's RDMA Writes land in the stack's sink buffer")
    void ourClientAgainstSiwRpingServer() throws Exception {
        ConversationReplay replay = recorded("probe-rping-client.pcap");
        int rounds = 3;
        try (ScriptedPeer peer = ScriptedPeer.server();
             VerbsStack client = new VerbsStack(b -> b.ird(1).ord(1).signalAll(true))) {
            Region src = client.region(SIZE, Access.LOCAL_WRITE, Access.REMOTE_READ);
            Region sink = client.region(SIZE, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Region recv = client.region(16, Access.LOCAL_WRITE);
            Region adv = client.region(32, Access.LOCAL_WRITE);
            adv.put(0, advert(src)).put(16, advert(sink));
            client.receive(0, recv.sge(0, 16));
            peer.expectBytes(replay.request().toBytes(), "the recorded client's MPA Request")
                    .sendMpaFrame(replay.reply().toBytes()).fullOperation(false, false, false).start();
            client.connect(peer.address(), ConnectOptions.builder().mpa(m -> m.crc(false)).ird(1).ord(1)
                    .peerProfile(SIW_WITHOUT_NUDGE));
            client.connected();
            CompletableFuture<Void> rping = CompletableFuture.runAsync(() -> {
                for (int n = 0; n < rounds; n++) {
                    src.put(0, rpingData(n));
                    client.post(new SendWorkRequest.Send(1, List.of(adv.sge(0, 16)), Set.of()));
                    client.sendCompletion();
                    client.recvCompletion();
                    client.receive(0, recv.sge(0, 16));
                    client.post(new SendWorkRequest.Send(2, List.of(adv.sge(16, 16)), Set.of()));
                    client.sendCompletion();
                    client.recvCompletion();
                    client.receive(0, recv.sge(0, 16));
                    assertThat(sink.bytes(0, SIZE)).as("ping %d verified (rping -V)", n).isEqualTo(rpingData(n));
                }
            });
            play(peer, replay, Direction.R2I);
            rping.get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            peer.expectFin();
            client.connected().disconnect();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }
}
