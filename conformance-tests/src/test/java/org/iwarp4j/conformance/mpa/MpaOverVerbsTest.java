package org.iwarp4j.conformance.mpa;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.PeerScripts;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.testkit.FailingAllocator;
import org.iwarp4j.testkit.GoldenVectors;
import org.iwarp4j.oracle.FpduTamper;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionLostException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.conformance.support.RdmapUlpdus.readRequest;
import static org.iwarp4j.conformance.support.RdmapUlpdus.send;
import static org.iwarp4j.conformance.support.RdmapUlpdus.terminate;

/**
 * What RFC 5044 / RFC 6581 leave to the layers above MPA, checked on the whole stack (verbs → RDMAP → DDP →
 * MPA → TCP) against a scripted peer over real sockets: the connection manager's decisions during
 * startup, the RFC 6581 RTR and setup Terminates, and how LLP events reach RDMAP and the user.
 */
class MpaOverVerbsTest {

    private static final byte[] P8 = Bytes.pattern(8, 0x61);

    private static Throwable failure(CompletableFuture<?> f) {
        try {
            f.get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the connect succeeded");
    }

    private static StartupFrame.Enhanced p2p(boolean b, boolean c, boolean d) {
        return new StartupFrame.Enhanced(true, b, 4, c, d, 4);
    }

    /**
     * {@link PeerProfile#RFC_STRICT} with the one accommodation of a Linux siw Responder that sends FPDUs together
     * with its Reply (interop FINDINGS R8): the Initiator keeps and reads them.
     */
    private static final PeerProfile FPDUS_WITH_THE_REPLY = PeerProfile.RFC_STRICT.withAcceptFpdusBehindReply(true)
            .withName("fpdus-with-the-reply");

    // ------------------------------------------------------------------ startup decisions of the Initiator

    @Test
    @Requirement("MPA-32")
    @DisplayName("MPA-32: with a peer profile that accepts them (a siw Responder sends first), FPDUs that arrive with "
            + "the accepting Reply are kept and delivered; octets that are not a valid FPDU fail as an FPDU error "
            + "(Terminate 0x2/0x0/0x02), never silently")
    void octetsWithTheReply() {
        byte[] reply = StartupFrame.reply().crc(true).enhanced(PeerScripts.block(4, 4)).toBytes();
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            Region recv = stack.region(16, Access.LOCAL_WRITE);
            stack.receive(1, recv.sge(0, 16));
            peer.expectMpaRequest().and().send(Bytes.concat(reply, PeerScripts.fpdus(send(1, P8))));
            peer.start();
            stack.connect(peer.address(), ConnectOptions.builder().peerProfile(FPDUS_WITH_THE_REPLY));
            WorkCompletion wc = stack.recvCompletion();
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(recv.bytes(0, 8)).isEqualTo(P8);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            byte[] bad = PeerScripts.fpdus(send(1, P8));
            bad[bad.length - 1] ^= 0x55;
            peer.expectMpaRequest().and().send(Bytes.concat(reply, bad)).fullOperation(true, false, false)
                    .expectFpdu().withUlpdu(terminate(2, 0, 0x02)).and().expectFin().start();
            stack.connect(peer.address(), ConnectOptions.builder().peerProfile(FPDUS_WITH_THE_REPLY));
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    /**
     * MPA-32 (RFC 5044 §7.1.1, §7.1.2 rule 4) at the Initiator, the default since {@link PeerProfile#RFC_STRICT}: the
     * Responder may send no FPDU before it received the Initiator's first, so octets behind the accepting Reply mean
     * that PD_Length did not match the private data actually sent. The Initiator closes at once with the invalid
     * startup frame error 0x04 (no Terminate: Full Operation never started), sends nothing more, and the user's
     * connect fails. The Responder's side of the rule: {@code MpaStartupFrameTest#pdLengthMismatch}.
     */
    @Test
    @Requirement("MPA-32")
    @DisplayName("MPA-32: by default an Initiator that receives an FPDU together with the accepting Reply takes it as "
            + "a PD_Length mismatch: it closes with nothing sent after its Request, the connect fails and no receive "
            + "is filled")
    void octetsWithTheReplyFailAStrictInitiator() {
        byte[] reply = StartupFrame.reply().crc(true).enhanced(PeerScripts.block(4, 4)).toBytes();
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            Region recv = stack.region(16, Access.LOCAL_WRITE);
            stack.receive(1, recv.sge(0, 16));
            peer.expectMpaRequest().and().send(Bytes.concat(reply, PeerScripts.fpdus(send(1, P8)))).expectClose()
                    .start();
            Throwable t = failure(stack.connect(peer.address(), ConnectOptions.builder()));
            assertThat(t).isInstanceOf(ConnectionFailedException.class).hasMessageContaining("PD_Length");
            assertThat(((ConnectionFailedException) t).kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(peer.received()).as("only the MPA Request").hasSize(24);
            assertThat(stack.recvCompletion().status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            assertThat(recv.bytes(0, 16)).as("the FPDU was not delivered").containsOnly(0);
        }
    }

    @Test
    @Requirement({"MPA-37", "MPA-67"})
    @DisplayName("MPA-37, MPA-67: an Initiator that finds the Reply's private data unacceptable sends nothing and "
            + "closes; a rejecting Reply ends the connect with the Responder's private data, IRD and ORD")
    void initiatorRejectsReplyPrivateData() {
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).enhanced(PeerScripts.block(4, 4))
                    .privateData(Bytes.ascii("wrong app"))).expectFin().start();
            Throwable t = failure(stack.connect(peer.address(), ConnectOptions.builder()
                    .replyPrivateDataCheck(pd -> new String(pd, StandardCharsets.US_ASCII).equals("v1"))));
            assertThat(t).isInstanceOf(ConnectionFailedException.class);
            assertThat(((ConnectionFailedException) t).kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(peer.received()).as("only the MPA Request").hasSize(24);
            assertThat(stack.qp.state()).isEqualTo(QueuePairState.ERROR);
        }
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).rejected(true)
                    .enhanced(PeerScripts.block(3, 9)).privateData(Bytes.ascii("busy"))).start();
            Throwable t = failure(stack.connect(peer.address(), ConnectOptions.builder()));
            assertThat(t).isInstanceOf(ConnectionRejectedException.class);
            ConnectionRejectedException r = (ConnectionRejectedException) t;
            assertThat(r.privateData()).isEqualTo(Bytes.ascii("busy"));
            assertThat(r.ird()).hasValue(3);
            assertThat(r.ord()).hasValue(9);
        }
    }

    @Test
    @Requirement("MPA-67")
    @DisplayName("MPA-67: the Responder's user sees the Initiator's IRD/ORD in the connection request; both users see "
            + "the negotiated values in the connection parameters")
    void irdOrdReachTheUser() throws Exception {
        try (VerbsStack server = new VerbsStack(b -> b.ird(8).ord(8));
                VerbsStack client = new VerbsStack(b -> b.ird(3).ord(5))) {
            CompletableFuture<int[]> seen = new CompletableFuture<>();
            var listener = server.rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.defaults(), r -> {
                        seen.complete(new int[] {r.ird().orElse(-1), r.ord().orElse(-1)});
                        r.accept(server.qp, AcceptOptions.defaults());
                    });
            client.connect(listener.localAddress(), ConnectOptions.builder());
            var params = client.connected().parameters();
            assertThat(seen.get()).containsExactly(3, 5);
            assertThat(params.ord()).as("client ORD ≤ server IRD").isLessThanOrEqualTo(8).isEqualTo(5);
            assertThat(params.ird()).as("client IRD ≥ server ORD (server ORD ≤ client IRD)").isEqualTo(3);
        }
    }

    @Test
    @Requirement("MPA-39")
    @DisplayName("MPA-39: the stack bounds its waits: a Responder that never replies (UNREACHABLE), a peer that never "
            + "sends its Request (closed), a graceful disconnect the peer never lets finish (turns abortive at the "
            + "timeout)")
    void boundedWaits() throws Exception {
        Duration shortWait = Duration.ofMillis(300);
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectMpaRequest().and().expectClose().start();
            Throwable t = failure(stack.connect(peer.address(),
                    ConnectOptions.builder().mpa(m -> m.startupTimeout(shortWait))));
            assertThat(((ConnectionFailedException) t).kind()).isEqualTo(ConnectionFailedException.Kind.UNREACHABLE);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
        try (VerbsStack stack = new VerbsStack()) {
            InetSocketAddress a = stack.listen(ListenOptions.builder().mpa(m -> m.startupTimeout(shortWait)));
            try (Socket s = new Socket(a.getAddress(), a.getPort())) {
                s.setSoTimeout((int) VerbsStack.WAIT.toMillis());
                assertThat(s.getInputStream().read()).as("closed without a Request").isEqualTo(-1);
            }
        }
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
             VerbsStack stack = new VerbsStack()) {
            // The peer reads nothing after the first segment of a Write larger than the TCP buffers, so the
            // graceful disconnect, which finishes the message in progress, cannot end by itself: at the disconnect
            // timeout it is made abortive (checked at the stack; the peer would read its unread octets first).
            int size = 16 << 20;
            CompletableFuture<Void> ended = new CompletableFuture<>();
            var firstSegment = peer.expectFpdu().received();
            peer.waitFor(ended, "the stack's disconnect to end").start();
            stack.connect(peer.address(), ConnectOptions.builder().disconnectTimeout(shortWait));
            stack.connected();
            Region big = stack.region(size, Access.LOCAL_WRITE);
            stack.post(new SendWorkRequest.RdmaWrite(1, List.of(big.sge(0, size)), new Stag(0x200), 0, Set.of()));
            firstSegment.get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            stack.connected().disconnect().get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            ended.complete(null);
            CmEvent.Disconnected end = stack.disconnected();
            assertThat(end.reason()).as("made abortive").isEqualTo(DisconnectReason.DISCONNECT_TIMEOUT);
            assertThat(end.cause()).containsInstanceOf(ConnectionLostException.class);
            assertThat(stack.sendCompletion().status()).as("the unfinished Write")
                    .isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement("MPA-39")
    @DisplayName("MPA-39: the ULP times out waiting for messages: a Read the peer never answers completes with "
            + "RESPONSE_TIMEOUT after the queue pair's response timeout, and the connection closes with a FIN")
    void ulpTimesOutWaitingForAResponse() throws Exception {
        Duration timeout = Duration.ofMillis(500);
        try (ScriptedPeer peer = PeerScripts.responder(4, 4);
             VerbsStack stack = new VerbsStack(q -> q.responseTimeout(timeout))) {
            var readRequest = peer.expectFpdu().received();
            peer.expectFin().start();
            stack.connect(peer.address(), ConnectOptions.builder());
            stack.connected();
            Region sink = stack.region(16, Access.LOCAL_WRITE);
            long posted = System.nanoTime();
            stack.post(new SendWorkRequest.RdmaRead(1, List.of(sink.sge(0, 16)), new Stag(0x200), 0, Set.of()));
            readRequest.get(VerbsStack.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            WorkCompletion wc = stack.sendCompletion();
            assertThat(wc.status()).isEqualTo(CompletionStatus.RESPONSE_TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - posted)).as("not before the timeout")
                    .isGreaterThanOrEqualTo(timeout);
            assertThat(stack.disconnected().reason()).isEqualTo(DisconnectReason.RESPONSE_TIMEOUT);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement("MPA-49")
    @DisplayName("MPA-49: the connection manager is not dual-stack: MPA starts at the first octet of the TCP stream in "
            + "both roles (the Request is the Initiator's first octets; streaming data before a Request is an invalid "
            + "frame)")
    void mpaStartsAtTheFirstOctet() throws Exception {
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectBytes(StartupFrame.REQUEST_KEY, "the Request key as the very first octets").start();
            stack.connect(peer.address(), ConnectOptions.builder());
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
        try (VerbsStack stack = new VerbsStack(); ScriptedPeer peer = ScriptedPeer.client(stack.listen())) {
            peer.send(Bytes.ascii("GET / HTTP/1.0\r\n\r\n")).expectClose().start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement("MPA-65")
    @DisplayName("MPA-65: a Responder without RFC 6581 closes on the enhanced Request; the user may retry unenhanced "
            + "(revision 1) on a new queue pair and connect")
    void retryWithoutTheEnhancedFormat() {
        try (ScriptedPeer old = ScriptedPeer.server(); VerbsStack first = new VerbsStack()) {
            old.expectMpaRequest().withRevision(2).and().closeConnection().start();
            Throwable t = failure(first.connect(old.address(), ConnectOptions.builder()));
            assertThat(t).isInstanceOf(ConnectionFailedException.class);
        }
        try (ScriptedPeer old = ScriptedPeer.server(); VerbsStack retry = new VerbsStack()) {
            old.expectMpaRequest().withRevision(1).withEnhancedFlag(false)
                    .respond(StartupFrame.reply().crc(true)).start();
            retry.connect(old.address(), ConnectOptions.builder().mpa(m -> m.revision(1)));
            assertThat(retry.connected().parameters().mpaRevision()).isEqualTo(1);
            old.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    // ------------------------------------------------------------------ RFC 6581 setup Terminates and RTRs

    @Test
    @Requirement("MPA-69")
    @DisplayName("MPA-69: an Initiator that cannot provide the IRD the Responder's ORD needs sends the golden "
            + "Terminate 0x2/0x0/0x06 as its first FPDU and ends the connection")
    void insufficientIrd() {
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).enhanced(PeerScripts.block(4, 200)))
                    .expectBytes(GoldenVectors.named("fpdu-terminate-insufficient-ird").bytes(), "the golden Terminate")
                    .expectFin().start();
            Throwable t = failure(stack.connect(peer.address(), ConnectOptions.builder()));
            assertThat(((ConnectionFailedException) t).kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement({"MPA-74", "MPA-75"})
    @DisplayName("MPA-74, MPA-75: in peer-to-peer mode the Initiator's first FPDU is the negotiated RTR, byte for byte "
            + "the golden zero-length Write / Read / Send, and the user's first Send follows it")
    void rtrOfEachKindGoesFirst() {
        record Kind(RtrType type, StartupFrame.Enhanced reply, String vector, byte[] expectedSend) {}
        for (Kind k : List.of(
                new Kind(RtrType.WRITE, p2p(false, true, false), "fpdu-rtr-zero-length-write", send(1, P8)),
                new Kind(RtrType.READ, p2p(false, false, true), "fpdu-rtr-zero-length-read-request", send(1, P8)),
                new Kind(RtrType.SEND, p2p(true, false, false), "fpdu-rtr-zero-length-send", send(2, P8)))) {
            try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
                Region data = stack.region(8, Access.LOCAL_WRITE).put(0, P8);
                peer.expectMpaRequest().matching(f -> f.enhanced().peerToPeer(), "A=1")
                        .respond(StartupFrame.reply().crc(true).enhanced(k.reply()))
                        .expectBytes(GoldenVectors.named(k.vector()).bytes(), "the golden " + k.type() + " RTR");
                if (k.type() == RtrType.READ) {
                    peer.sendFpdu(GoldenVectors.named("fpdu-rtr-zero-length-read-response").hex("ulpdu_hex"));
                }
                peer.expectFpdu().withUlpdu(k.expectedSend()).and().start();
                stack.connect(peer.address(), ConnectOptions.builder().mpa(m -> m.peerToPeer(k.type())));
                stack.connected();
                stack.post(new SendWorkRequest.Send(1, List.of(data.sge(0, 8)), Set.of()));
                peer.waitForScriptToComplete(VerbsStack.WAIT);
            }
        }
    }

    @Test
    @Requirement("MPA-74")
    @DisplayName("MPA-74: an Initiator that can send none of the RTRs the Reply allows sends Terminate 0x2/0x0/0x07 as "
            + "its first FPDU and ends the connection")
    void noMatchingRtr() {
        try (ScriptedPeer peer = ScriptedPeer.server(); VerbsStack stack = new VerbsStack()) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).enhanced(p2p(true, false, false)))
                    .expectFpdu().withUlpdu(terminate(2, 0, 0x07)).and().expectFin().start();
            Throwable t = failure(stack.connect(peer.address(),
                    ConnectOptions.builder().mpa(m -> m.peerToPeer(RtrType.WRITE))));
            assertThat(((ConnectionFailedException) t).kind()).isEqualTo(ConnectionFailedException.Kind.CONNECT_ERROR);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement("MPA-74")
    @DisplayName("MPA-74: the Responder answers a Read RTR with the golden zero-length Read Response, and a Send RTR "
            + "consumes no user receive")
    void responderSideOfTheRtr() {
        try (VerbsStack stack = new VerbsStack(); ScriptedPeer peer = ScriptedPeer.client(stack.listen())) {
            peer.sendMpaFrame(StartupFrame.request().crc(true).enhanced(p2p(false, false, true))).expectMpaReply()
                    .withRejected(false).and()
                    .sendFpdu(GoldenVectors.named("fpdu-rtr-zero-length-read-request").hex("ulpdu_hex"))
                    .expectBytes(GoldenVectors.named("fpdu-rtr-zero-length-read-response").bytes(),
                            "the golden response")
                    .start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
        try (VerbsStack stack = new VerbsStack(); ScriptedPeer peer = ScriptedPeer.client(stack.listen())) {
            Region recv = stack.region(16, Access.LOCAL_WRITE);
            stack.receive(1, recv.sge(0, 16));
            peer.sendMpaFrame(StartupFrame.request().crc(true).enhanced(p2p(true, false, false))).expectMpaReply()
                    .withRejected(false).and()
                    .sendFpdu(GoldenVectors.named("fpdu-rtr-zero-length-send").hex("ulpdu_hex"))
                    .sendFpdu(send(2, P8)).start();
            WorkCompletion wc = stack.recvCompletion();
            assertThat(wc.wrId()).isEqualTo(1);
            assertThat(wc.byteLength()).as("the first user receive holds the first real Send").isEqualTo(8);
            assertThat(recv.bytes(0, 8)).isEqualTo(P8);
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    @Test
    @Requirement("MPA-76")
    @DisplayName("MPA-76: a local error during the enhanced setup (the RTR cannot be built) is reported with Terminate "
            + "0x2/0x0/0x05 as the first FPDU before the connection ends")
    void localErrorDuringEnhancedSetup(@TempDir Path dir) {
        try (ScriptedPeer peer = ScriptedPeer.server();
             VerbsStack stack = new VerbsStack(RnicConfig.builder(), new FailingAllocator(1), b -> { })) {
            peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).enhanced(p2p(false, true, false)))
                    .expectFpdu().withUlpdu(terminate(2, 0, 0x05)).and().expectFin().start();
            // The failure is injected where the RTR's DDP header is allocated: from the RNIC's allocator, which the
            // stack uses for small segments only when MPA does not gather them (here: a capture makes a packet of
            // each FPDU). When gathering, the RTR is written straight into MPA's buffer and allocates nothing.
            Throwable t = failure(stack.connect(peer.address(), ConnectOptions.builder()
                    .mpa(m -> m.peerToPeer(RtrType.WRITE)).pcapFile(dir.resolve("setup-error.pcap"))));
            assertThat(t).isInstanceOf(ConnectionFailedException.class).hasMessageContaining("0x2/0x0/0x05");
            peer.waitForScriptToComplete(VerbsStack.WAIT);
        }
    }

    // ------------------------------------------------------------------ LLP events in Full Operation

    /**
     * MPA-43, MPA-48, DDP-01, DDP-26, DDP-27, DDP-33 (RFC 5044 §7.2, §8; RFC 5041 §3, §6.2, §7): MPA reports the end of
     * TCP between FPDUs as the LLP error 0x2/0x0/0x01 to RDMAP, after every FPDU that arrived before it; RDMAP flushes
     * the outstanding work and sends nothing more. What reaches the user is who ended the connection and how, not the
     * code: a FIN is the peer's graceful disconnect (RFC 5040 §6.2), so the DISCONNECTED event says PEER_DISCONNECT
     * with no cause — the ULP learns of the graceful close (MPA-48) and can tell a clean peer from a lost one; a RST
     * says PEER_RESET with a {@link ConnectionLostException}. The flush statuses of the outstanding and later work
     * requests are the rest of the evidence (before verbs 2, DISCONNECTED carried the MpaException 0x01 itself, even
     * for a FIN).
     */
    @Test
    @Requirement({"MPA-43", "MPA-48", "DDP-33", "DDP-26", "DDP-01", "DDP-27"})
    @DisplayName("MPA-43, MPA-48, DDP-01, DDP-26, DDP-27, DDP-33: a FIN (or RST) between FPDUs reaches the user as the "
            + "peer's disconnect (or reset) after every FPDU sent before it; outstanding work completes flushed, later "
            + "requests are flushed and the stack closes its half too")
    void finOrResetBetweenFpdus() throws Exception {
        for (boolean reset : new boolean[] {false, true}) {
            try (VerbsStack stack = new VerbsStack(); ScriptedPeer peer = PeerScripts.initiator(stack.listen(), 4, 4)) {
                Region recv = stack.region(32, Access.LOCAL_WRITE);
                stack.receive(1, recv.sge(0, 16));
                stack.receive(2, recv.sge(16, 16));
                peer.sendFpdu(send(1, P8)).expectFpdu()
                        .withUlpdu(readRequest(1, recv.stagValue(), recv.to(16), 16, 0x100, 0))
                        .and();
                if (reset) {
                    peer.dropConnection();
                } else {
                    peer.shutdownOutput().expectFin();
                }
                peer.start();
                stack.connected();
                WorkCompletion first = stack.recvCompletion();
                assertThat(first.status()).as("the FPDU before the FIN is delivered")
                        .isEqualTo(CompletionStatus.SUCCESS);
                stack.post(new SendWorkRequest.RdmaRead(7, List.of(recv.sge(16, 16)), new Stag(0x100), 0, Set.of()));
                peer.waitForScriptToComplete(VerbsStack.WAIT);
                assertThat(stack.recvCompletion().status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
                assertThat(stack.sendCompletion().status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
                CmEvent.Disconnected disconnected = stack.disconnected();
                if (reset) {
                    assertThat(disconnected.reason()).isEqualTo(DisconnectReason.PEER_RESET);
                    assertThat(disconnected.cause()).containsInstanceOf(ConnectionLostException.class);
                } else {
                    assertThat(disconnected.reason()).as("a FIN is the peer's graceful disconnect")
                            .isEqualTo(DisconnectReason.PEER_DISCONNECT);
                    assertThat(disconnected.cause()).as("a clean end has no cause").isEmpty();
                }
                // a later post is accepted and flushed, as in the libibverbs error state (QueuePair#postSend)
                stack.qp.postSend(new SendWorkRequest.Send(8, List.of(), Set.of(SendFlag.SIGNALED)));
                WorkCompletion late = stack.sendCompletion();
                assertThat(late.wrId()).isEqualTo(8);
                assertThat(late.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            }
        }
    }

    @Test
    @Requirement({"DDP-26", "DDP-27", "DDP-30"})
    @DisplayName("DDP-26, DDP-27, DDP-30: a graceful disconnect finishes the message being sent and then closes; after "
            + "a fatal error the stack still sends its one Terminate, flushes outstanding work and tears down")
    void gracefulAndFatalTeardown() throws Exception {
        try (ScriptedPeer peer = PeerScripts.responder(4, 4); VerbsStack stack = new VerbsStack()) {
            byte[] big = Bytes.pattern(40_000, 9);
            Region data = stack.region(big.length, Access.LOCAL_WRITE).put(0, big);
            peer.start();
            stack.connect(peer.address(), ConnectOptions.builder().mpa(m -> m.emss(1460)));
            stack.connected();
            AtomicInteger payload = new AtomicInteger();
            int chunk = stack.connected().parameters().mulpdu() - 14;
            int segments = (big.length + chunk - 1) / chunk;
            for (int i = 0; i < segments; i++) {
                peer.expectFpdu().matching(f -> payload.addAndGet(f.ulpdu().length - 14) > 0, "a Write segment").and();
            }
            peer.expectFin();
            stack.post(new SendWorkRequest.RdmaWrite(1, List.of(data.sge(0, big.length)), new Stag(0x200), 0,
                    Set.of()));
            // disconnect while the Write is in progress (its first segment is out): it is finished, then FIN
            VerbsStack.awaitTrue(() -> payload.get() > 0 || peer.failure() != null, "the Write to start");
            stack.connected().disconnect();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            assertThat(payload.get()).isEqualTo(big.length);
            VerbsStack.awaitTrue(() -> stack.qp.state() == QueuePairState.ERROR, "the queue pair to go down");
            assertThat(stack.disconnected().reason()).isEqualTo(DisconnectReason.LOCAL_DISCONNECT);
            assertThat(stack.disconnected().cause()).isEmpty();
        }
        try (VerbsStack stack = new VerbsStack(); ScriptedPeer peer = PeerScripts.initiator(stack.listen(), 4, 4)) {
            Region recv = stack.region(16, Access.LOCAL_WRITE);
            stack.receive(1, recv.sge(0, 16));
            peer.sendFpdu(send(1, P8), FpduTamper.BAD_CRC).fullOperation(true, false, false).start();
            peer.waitForScriptToComplete(VerbsStack.WAIT);
            // RFC 5044 §7.1.2 rule 4: the Responder validated no FPDU yet, so its Terminate was withheld, not sent
            assertThat(stack.recvCompletion().status()).isEqualTo(CompletionStatus.TERMINATE_WITHHELD);
        }
    }
}
