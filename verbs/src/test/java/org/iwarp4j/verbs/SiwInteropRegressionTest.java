package org.iwarp4j.verbs;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Interop bugs found by the siw matrix (interop/FINDINGS.md, section B), each replayed with the octets Linux
 * siw put on the wire in the lab (the matrix cell named in each test): a scripted peer plays siw's side.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwInteropRegressionTest {

    private static final HexFormat HEX = HexFormat.of();
    /** siw rping -s's Reply to our Rev 2, C=0, IRD = ORD = 1 Request (cell iwarp-mpa-to-siw-crc-off). */
    private static final String SIW_REPLY = "4d504120494420526570204672616d65" + "1002000400010001";
    /** rping's go-ahead as siw sends it: a Send of 16 zero octets, QN 0, MSN 1 (FINDINGS C7). */
    private static final String SIW_GO_AHEAD = "4143" + "00000000" + "00000000" + "00000001" + "00000000"
            + "00000000000000000000000000000000";
    /** The zero-length RDMA Write of the nudge: STag 1, TO 0 (the Write RTR's format, docs/protocol/mpa.md §8.3). */
    private static final String ZERO_LENGTH_WRITE = "c140" + "00000001" + "0000000000000000";
    /** siw rping -c's Request with peer_to_peer=Y: A=1, C and D offered (cell iwarp-mpa-from-siw-p2p-send-rtr). */
    private static final String SIW_P2P_REQUEST = "4d504120494420526571204672616d65" + "100200048001c001";
    /**
     * siw's Terminate 2/0/07 (No Matching RTR) as its first FPDU, bit-mirrored control word {@code 02 07 00 00},
     * CRC field zero although our Reply negotiated CRC (FINDINGS M17; same cell).
     */
    private static final String SIW_SETUP_TERMINATE_NO_CRC = "0016" + "4147" + "00000000" + "00000002" + "00000001"
            + "00000000" + "02070000" + "0000" + "00000000";

    private static Rnic rnic() {
        return Rnic.open(RnicConfig.builder().eventLoopThreads(1).build());
    }

    /**
     * FINDINGS M15 / B3: siw's accept race can leave the Initiator's first FPDU unread until more octets arrive.
     * With {@link ConnectOptions#firstFpduNudge()} our Initiator sends one zero-length RDMA Write when the
     * Responder stays silent; the scripted siw answers only once that Write has arrived.
     */
    @Test
    void theFirstFpduNudgeWakesAResponderThatLeftTheFirstFpduUnread() throws Exception {
        try (ScriptedPeer siw = ScriptedPeer.server(); Rnic rnic = rnic()) {
            siw.expectMpaRequest().withCrc(false).respond(HEX.parseHex(SIW_REPLY))
                    .expectFpdu().withUlpduLength(18 + 16).and()       // our first Send: stranded at siw
                    .expectFpduWithUlpdu(HEX.parseHex(ZERO_LENGTH_WRITE))  // the nudge
                    .sendFpdu(HEX.parseHex(SIW_GO_AHEAD));               // siw read both and answers
            siw.start();
            Peers.Side side = new Peers.Side(rnic, 8);
            side.qp = side.pd.createQueuePair(side.qpConfig().ird(1).ord(1).build());
            Mem recv = side.region(16, Access.LOCAL_WRITE);
            Mem send = side.region(16);
            side.receive(1, recv.sge(0, 16));
            Connection c = rnic.connect(siw.address(), side.qp,
                    ConnectOptions.builder().mpa(m -> m.crc(false)).ird(1).ord(1)
                    .peerProfile(PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ofMillis(100))).build())
                    .get(20, TimeUnit.SECONDS);
            side.qp.postSend(new SendWorkRequest.Send(2, List.of(send.sge(0, 16)), Set.of(SendFlag.SIGNALED)));
            WorkCompletion wc = Completions.one(side.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(wc.byteLength()).isEqualTo(16);
            siw.waitForScriptToComplete(Duration.ofSeconds(20));
            c.close();
        }
    }

    /**
     * FINDINGS M17 / B4: a p2p siw Initiator whose Reply allowed only the Send RTR sends Terminate 2/0/07 as its
     * first FPDU with a zero CRC field although CRC was negotiated. We report siw's reason (not a CRC error of
     * our own) and send nothing back.
     */
    @Test
    void siwsSetupTerminateWithoutCrcIsReportedAsItsTerminate() throws Exception {
        try (Rnic rnic = rnic()) {
            Peers.Side side = new Peers.Side(rnic, 8);
            side.qp = side.pd.createQueuePair(side.qpConfig().ird(1).ord(1).build());
            CompletableFuture<AsyncEvent> event = new CompletableFuture<>();
            side.qp.onAsyncEvent(event::complete);
            Listener listener = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.builder().mpa(m -> m.crc(true).rtrTypes(RtrType.SEND))
                            .peerProfile(PeerProfile.LINUX_SIW).build(),
                    r -> r.accept(side.qp, AcceptOptions.defaults()));
            try (ScriptedPeer siw = ScriptedPeer.client(listener.localAddress())) {
                siw.sendMpaFrame(HEX.parseHex(SIW_P2P_REQUEST))
                        .expectMpaReply().withCrc(true).matching(f -> f.enhanced() != null && f.enhanced().peerToPeer()
                                && f.enhanced().sendRtr() && !f.enhanced().writeRtr() && !f.enhanced().readRtr(),
                                "A=1, only B").and()
                        .send(HEX.parseHex(SIW_SETUP_TERMINATE_NO_CRC), "siw's Terminate 2/0/07, CRC field 0")
                        .expectClose();
                siw.start();
                AsyncEvent e = event.get(20, TimeUnit.SECONDS);
                assertThat(e.type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
                TerminateInfo t = e.terminate().orElseThrow();
                assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).containsExactly(2, 0, 7);
                siw.waitForScriptToComplete(Duration.ofSeconds(20)); // closed with nothing sent after the Reply
            }
            listener.close();
        }
    }

    /**
     * FINDINGS R8: siw's Responder sends as soon as its application does, so its first FPDU can come in the same
     * segment as its Reply, which RFC 5044 §7.1.2 rule 4 forbids. The Linux siw profile reads it; the strict
     * default fails the startup (PD_Length mismatch, MPA-32) instead of reading what the peer may not send.
     */
    @Test
    void siwsFpduBehindItsReplyIsReadOnlyWithTheSiwProfile() throws Exception {
        byte[] replyAndSend = HEX.parseHex(SIW_REPLY + "0022" + SIW_GO_AHEAD + "00000000");
        for (PeerProfile profile : List.of(PeerProfile.LINUX_SIW, PeerProfile.RFC_STRICT)) {
            try (ScriptedPeer siw = ScriptedPeer.server(); Rnic rnic = rnic()) {
                siw.expectMpaRequest().withCrc(false).and()
                        .send(replyAndSend, "siw's Reply and first Send in one write");
                siw.start();
                Peers.Side side = new Peers.Side(rnic, 8);
                side.qp = side.pd.createQueuePair(side.qpConfig().ird(1).ord(1).build());
                Mem recv = side.region(16, Access.LOCAL_WRITE);
                side.receive(1, recv.sge(0, 16));
                CompletableFuture<Connection> f = rnic.connect(siw.address(), side.qp, ConnectOptions.builder()
                        .mpa(m -> m.crc(false)).ird(1).ord(1).peerProfile(profile).build());
                if (profile == PeerProfile.LINUX_SIW) {
                    f.get(20, TimeUnit.SECONDS);
                    WorkCompletion wc = Completions.one(side.recvCq);
                    assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
                    assertThat(wc.byteLength()).isEqualTo(16);
                } else {
                    Throwable t = f.handle((c, e) -> e).get(20, TimeUnit.SECONDS);
                    assertThat(t).isInstanceOfSatisfying(ConnectionFailedException.class, e ->
                            assertThat(e.kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR));
                    assertThat(Completions.one(side.recvCq).status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
                }
            }
        }
    }

    /**
     * The strict profile does not take siw's CRC-less setup Terminate for a Terminate: it is a first FPDU that
     * failed its CRC (RFC 5044 §4.4), and a Responder that has not validated a first FPDU closes without sending
     * anything (RFC 5044 §7.1.2 rule 4). The peer's reason is lost; the connection ends either way.
     */
    @Test
    void theStrictProfileTreatsSiwsSetupTerminateAsACrcError() throws Exception {
        try (Rnic rnic = rnic()) {
            Peers.Side side = new Peers.Side(rnic, 8);
            side.qp = side.pd.createQueuePair(side.qpConfig().ird(1).ord(1).build());
            CompletableFuture<AsyncEvent> event = new CompletableFuture<>();
            side.qp.onAsyncEvent(event::complete);
            Listener listener = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.builder().mpa(m -> m.crc(true).rtrTypes(RtrType.SEND)).build(),
                    r -> r.accept(side.qp, AcceptOptions.defaults()));
            try (ScriptedPeer siw = ScriptedPeer.client(listener.localAddress())) {
                siw.sendMpaFrame(HEX.parseHex(SIW_P2P_REQUEST)).expectMpaReply().withCrc(true).and()
                        .send(HEX.parseHex(SIW_SETUP_TERMINATE_NO_CRC), "siw's Terminate 2/0/07, CRC field 0")
                        .expectClose();
                siw.start();
                AsyncEvent e = event.get(20, TimeUnit.SECONDS);
                assertThat(e.type()).isEqualTo(AsyncEvent.Type.TERMINATE_WITHHELD);
                TerminateInfo t = e.terminate().orElseThrow();
                assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).as(t.toString()).containsExactly(2, 0, 2);
                assertThat(t.direction()).as("detected, but a Responder may not send it").isEqualTo(
                        TerminateInfo.Direction.WITHHELD);
                siw.waitForScriptToComplete(Duration.ofSeconds(20));
            }
            listener.close();
        }
    }

    /**
     * FINDINGS B1: an application's reject (here to siw rping -c's Request, IRD 1) carried our configured ORD
     * 16 > the Initiator's IRD, which RFC 6581 §9.1 reserves for "insufficient IRD": our own Initiator then
     * reported "Insufficient IRD resources". The Reply's ORD is now capped at the Initiator's IRD.
     */
    @Test
    void anApplicationRejectIsNotReportedAsInsufficientIrd() throws Exception {
        try (Rnic server = rnic(); Rnic client = rnic()) {
            Listener listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.defaults(), r -> r.reject(new byte[] {(byte) 0xc0, (byte) 0xff, (byte) 0xee}));
            Peers.Side side = new Peers.Side(client, 8);
            side.qp = side.pd.createQueuePair(side.qpConfig().ird(1).ord(1).build());
            CompletableFuture<CmEvent.Rejected> rejected = new CompletableFuture<>();
            CompletableFuture<Connection> f = client.connect(listener.localAddress(), side.qp, ConnectOptions.builder()
                    .ird(1).ord(1).eventListener(ev -> {
                        if (ev instanceof CmEvent.Rejected r) {
                            rejected.complete(r);
                        }
                    }).build());
            Throwable failure = f.handle((c, t) -> t).get(20, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(ConnectionRejectedException.class);
            ConnectionRejectedException e = (ConnectionRejectedException) failure;
            assertThat(e.getMessage()).doesNotContain("Insufficient IRD");
            assertThat(e.ord().orElseThrow()).isLessThanOrEqualTo(1);
            assertThat(rejected.get(20, TimeUnit.SECONDS).ord()).isEqualTo(e.ord());
            assertThat(e.privateData()).containsExactly(0xc0, 0xff, 0xee);
            listener.close();
        }
    }
}
