package org.iwarp4j.verbs.internal;

import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.SharedReceiveQueue;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RNIC-wide limits ({@link RnicConfig}) and a listener's ({@link ListenOptions#maxConnections()}), each from
 * its rule: the first N work, the N+1st is refused with the limit named, nothing is allocated for the refused
 * one, and the count goes back down as the resources are released, so that nothing leaks.
 */
class RnicLimitsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static Rnic open(RnicConfig.Builder b) {
        return Rnic.open(b.transport(Transport.NIO).eventLoopThreads(1).build());
    }

    private static VerbsException.Reason reasonOf(Runnable r) {
        try {
            r.run();
        } catch (VerbsException e) {
            return e.reason();
        }
        return null;
    }

    // ------------------------------------------------------------------ registered bytes

    @Test
    void registeredBytesAreCheckedBeforeAnythingIsAllocated() {
        try (Rnic rnic = open(RnicConfig.builder().maxRegisteredBytes(1000))) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            assertThat(rnic.query().maxRegisteredBytes()).isEqualTo(1000);
            // 2 GiB: were it allocated before the check, this JVM would fail with an OutOfMemoryError instead.
            assertThatThrownBy(() -> pd.allocateRegion(Integer.MAX_VALUE, Access.LOCAL_WRITE))
                    .isInstanceOfSatisfying(VerbsException.class,
                            e -> assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED))
                    .hasMessageContaining("maxRegisteredBytes = 1000");
            MemoryRegion first = pd.allocateRegion(600, Access.LOCAL_WRITE);
            MemoryRegion second = pd.register(ByteBuffer.allocateDirect(400), Set.of(Access.LOCAL_WRITE));
            assertThat(reasonOf(() -> pd.register(ByteBuffer.allocateDirect(1), Set.of())))
                    .as("the 1001st octet").isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            assertThat(reasonOf(() -> pd.allocateFastRegistration(1))).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            assertThatThrownBy(() -> pd.allocateRegion(1)).hasMessageContaining("1000 held")
                    .hasMessageContaining("allocateRegion(1)");
            first.close();
            MemoryRegion fast = pd.allocateFastRegistration(600); // the octets of the closed region came back
            assertThat(reasonOf(() -> pd.allocateRegion(1))).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            fast.close();
            second.close();
            assertThat(((RnicImpl) rnic).registeredBytes().used()).isZero();
            pd.allocateRegion(1000).close();
            pd.close();
        }
    }

    // ------------------------------------------------------------------ posted receives

    @Test
    void postedReceivesAreCountedOverEveryQueuePairAndSharedReceiveQueue() {
        try (Rnic rnic = open(RnicConfig.builder().maxPostedReceives(3))) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            MemoryRegion mem = pd.allocateRegion(64, Access.LOCAL_WRITE);
            QueuePair a = pd.createQueuePair(cq);
            QueuePair b = pd.createQueuePair(cq);
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(8, 1);
            a.postReceive(ReceiveWorkRequest.of(1, mem));
            a.postReceive(ReceiveWorkRequest.of(2, mem));
            srq.postReceive(ReceiveWorkRequest.of(3, mem));
            ReceiveWorkRequest fourth = ReceiveWorkRequest.of(4, mem);
            assertThatThrownBy(() -> b.postReceive(fourth)).isInstanceOfSatisfying(VerbsException.class, e -> {
                assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
                assertThat(e.workRequest()).contains(fourth);
            }).hasMessageContaining("maxPostedReceives = 3");
            assertThat(reasonOf(() -> b.tryPostReceive(fourth))).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            assertThat(reasonOf(() -> srq.tryPostReceive(fourth))).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            assertThat(b.query().receivesPosted()).as("the refused receive was not queued").isZero();

            // Closing the shared queue and a queue pair gives their receives back, polled or not.
            srq.close();
            b.postReceive(fourth);
            a.close();
            b.postReceive(ReceiveWorkRequest.of(5, mem));
            b.postReceive(ReceiveWorkRequest.of(6, mem));
            assertThat(reasonOf(() -> b.postReceive(ReceiveWorkRequest.of(7, mem))))
                    .isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            // a's flushed receives, polled after its close, give nothing back twice
            WorkCompletion[] wcs = WorkCompletion.array(4);
            assertThat(cq.poll(wcs)).isEqualTo(2);
            assertThat(wcs[0].status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
            assertThat(((RnicImpl) rnic).postedReceives().used()).isEqualTo(3);
            b.close();
            assertThat(((RnicImpl) rnic).postedReceives().used()).isZero();
        }
    }

    @Test
    void aReceiveConsumedAndPolledGivesItsPlaceBack() throws Exception {
        try (Rnic server = open(RnicConfig.builder().name("server").maxPostedReceives(2));
             Rnic client = open(RnicConfig.builder().name("client"))) {
            ProtectionDomain spd = server.allocateProtectionDomain();
            CompletionQueue scq = server.createCompletionQueue(16);
            MemoryRegion smem = spd.allocateRegion(64, Access.LOCAL_WRITE);
            QueuePair sqp = spd.createQueuePair(scq);
            sqp.postReceive(ReceiveWorkRequest.of(1, smem));
            sqp.postReceive(ReceiveWorkRequest.of(2, smem));
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = server.listen(loopback(), ListenOptions.defaults(), r -> r.accept(sqp)
                    .whenComplete((c, e) -> accepted.complete(c)));
            ProtectionDomain cpd = client.allocateProtectionDomain();
            CompletionQueue ccq = client.createCompletionQueue(16);
            MemoryRegion cmem = cpd.allocateRegion(8);
            QueuePair cqp = cpd.createQueuePair(ccq);
            client.connect(listener.localAddress(), cqp, ConnectOptions.defaults()).get(20, TimeUnit.SECONDS);
            accepted.get(20, TimeUnit.SECONDS);
            assertThat(reasonOf(() -> sqp.postReceive(ReceiveWorkRequest.of(3, smem))))
                    .isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
            cqp.postSendAsync(Send.of(10, cmem)).get(20, TimeUnit.SECONDS);
            WorkCompletion wc = scq.take(WAIT).orElseThrow();
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            sqp.postReceive(ReceiveWorkRequest.of(3, smem)); // the polled receive's place
            assertThat(reasonOf(() -> sqp.postReceive(ReceiveWorkRequest.of(4, smem))))
                    .isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED);
        }
    }

    // ------------------------------------------------------------------ MPA startups in progress

    @Test
    void aStartupBeyondTheLimitIsClosedAtOnceAndTheCountComesBack() throws Exception {
        try (Rnic server = open(RnicConfig.builder().name("server").maxStartupsInProgress(2));
             Rnic client = open(RnicConfig.builder().name("client"))) {
            RnicImpl impl = (RnicImpl) server;
            Listener listener = server.listen(loopback(), ListenOptions.defaults(),
                    r -> r.reject(new byte[0]));
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    silent.add(new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort()));
                }
                awaitValue(() -> impl.startups().used(), 2, "two silent startups held");
                try (Socket third = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                    third.setSoTimeout((int) WAIT.toMillis());
                    assertThat(third.getInputStream().read()).as("closed at once, nothing sent").isEqualTo(-1);
                }
                assertThat(impl.startups().used()).isEqualTo(2);
                for (Socket s : silent) {
                    s.setSoTimeout((int) WAIT.toMillis());
                    assertThat(s.isClosed()).isFalse();
                }
                silent.remove(0).close();
                awaitValue(() -> impl.startups().used(), 1, "the closed startup given back");
                // A real client is served again: its Request reaches the application, which rejects it.
                QueuePair qp = qpOf(client);
                CompletableFuture<Connection> f =
                        client.connect(listener.localAddress(), qp, ConnectOptions.defaults());
                assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(ConnectionRejectedException.class);
            } finally {
                for (Socket s : silent) {
                    s.close();
                }
            }
            awaitValue(() -> impl.startups().used(), 0, "every startup given back");
        }
    }

    // ------------------------------------------------------------------ connections per listener

    @Test
    void theConnectionBeyondTheListenersLimitGetsAReplyWithRAndTheReason() throws Exception {
        try (Rnic server = open(RnicConfig.builder().name("server"));
             Rnic client = open(RnicConfig.builder().name("client"))) {
            RnicImpl impl = (RnicImpl) server;
            List<QueuePair> serverQps = new ArrayList<>();
            CompletableFuture<CmEvent.Rejected> refusedEvent = new CompletableFuture<>();
            ListenOptions options = ListenOptions.builder().maxConnections(1).eventListener(e -> {
                if (e instanceof CmEvent.Rejected r) {
                    refusedEvent.complete(r);
                }
            }).build();
            Listener listener = server.listen(loopback(), options, r -> {
                QueuePair qp = qpOf(server);
                serverQps.add(qp);
                r.accept(qp, AcceptOptions.defaults());
            });
            ListenerImpl listenerImpl = (ListenerImpl) listener;
            Connection first = client.connect(listener.localAddress(), qpOf(client), ConnectOptions.defaults())
                    .get(20, TimeUnit.SECONDS);
            assertThat(listenerImpl.connectionsHeld()).isEqualTo(1);

            // Our own Initiator hears a rejection carrying the reason.
            CompletableFuture<Connection> second = client.connect(listener.localAddress(), qpOf(client),
                    ConnectOptions.defaults());
            assertThatThrownBy(() -> second.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ConnectionRejectedException.class, e ->
                            assertThat(new String(e.privateData(), StandardCharsets.US_ASCII))
                                    .isEqualTo("iwarp4j: maxConnections = 1 reached"));
            assertThat(refusedEvent.get(20, TimeUnit.SECONDS).reason()).contains("maxConnections = 1 reached");

            // A raw MPA peer sees the Reply on the wire: R=1, the reason as private data, then the close.
            try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                raw.setSoTimeout((int) WAIT.toMillis());
                raw.getOutputStream().write(StartupFrame.request().crc(true).revision(2)
                        .enhanced(new StartupFrame.Enhanced(false, false, 1, false, false, 1)).toBytes());
                InputStream in = raw.getInputStream();
                byte[] header = new DataInputStream(in).readNBytes(StartupFrame.HEADER_LENGTH);
                int pdLength = (header[18] & 0xFF) << 8 | (header[19] & 0xFF);
                byte[] pd = in.readNBytes(pdLength);
                byte[] all = new byte[header.length + pd.length];
                System.arraycopy(header, 0, all, 0, header.length);
                System.arraycopy(pd, 0, all, header.length, pd.length);
                StartupFrame reply = StartupFrame.parse(all);
                assertThat(reply.isReply()).isTrue();
                assertThat(reply.rejected()).as("R=1").isTrue();
                assertThat(new String(reply.ulpPrivateData(), StandardCharsets.US_ASCII))
                        .isEqualTo("iwarp4j: maxConnections = 1 reached");
                assertThat(in.read()).as("then the connection closes").isEqualTo(-1);
            }
            assertThat(serverQps).as("the application never saw the refused Requests").hasSize(1);

            first.disconnect().get(20, TimeUnit.SECONDS);
            awaitValue(listenerImpl::connectionsHeld, 0, "the closed connection given back");
            client.connect(listener.localAddress(), qpOf(client), ConnectOptions.defaults()).get(20, TimeUnit.SECONDS);
            assertThat(listenerImpl.connectionsHeld()).isEqualTo(1);
            awaitValue(() -> impl.startups().used(), 0, "no startup left held");
        }
    }

    // ------------------------------------------------------------------ inbound Reads and atomics (IRDs)

    @Test
    void aResponderWithoutIrdToSpareAnswersRAndTheReason() throws Exception {
        try (Rnic server = open(RnicConfig.builder().name("server").maxInboundReadsAndAtomics(20));
             Rnic client = open(RnicConfig.builder().name("client"))) {
            RnicImpl impl = (RnicImpl) server;
            List<CompletableFuture<Connection>> accepts = new ArrayList<>();
            Listener listener = server.listen(loopback(), ListenOptions.defaults(), r -> {
                // the third asks for IRD 4 only
                QueuePair qp = accepts.size() < 2 ? qpOf(server) : qpOf(server, 4);
                accepts.add(r.accept(qp, AcceptOptions.defaults()));
            });
            Connection first = client.connect(listener.localAddress(), qpOf(client), ConnectOptions.defaults())
                    .get(20, TimeUnit.SECONDS);
            accepts.get(0).get(20, TimeUnit.SECONDS);
            assertThat(first.parameters().ord()).isEqualTo(16);
            awaitValue(() -> impl.inboundReadsAndAtomics().used(), 16, "the first connection's IRD, trimmed");

            CompletableFuture<Connection> second = client.connect(listener.localAddress(), qpOf(client),
                    ConnectOptions.defaults());
            assertThatThrownBy(() -> second.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ConnectionRejectedException.class, e ->
                            assertThat(new String(e.privateData(), StandardCharsets.US_ASCII))
                                    .isEqualTo("iwarp4j: maxInboundReadsAndAtomics = 20 reached"));
            assertThatThrownBy(() -> accepts.get(1).get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(VerbsException.class,
                            e -> assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED))
                    .hasMessageContaining("maxInboundReadsAndAtomics = 20");
            assertThat(impl.inboundReadsAndAtomics().used()).isEqualTo(16);

            Connection third = client.connect(listener.localAddress(), qpOf(client, 4), ConnectOptions.defaults())
                    .get(20, TimeUnit.SECONDS);
            assertThat(accepts.get(2).get(20, TimeUnit.SECONDS).parameters().ird()).isEqualTo(4);
            awaitValue(() -> impl.inboundReadsAndAtomics().used(), 20, "both IRDs");
            first.disconnect().get(20, TimeUnit.SECONDS);
            awaitValue(() -> impl.inboundReadsAndAtomics().used(), 4, "the first connection's IRD given back");
            third.close();
            awaitValue(() -> impl.inboundReadsAndAtomics().used(), 0, "everything given back");
        }
    }

    @Test
    void anInitiatorWithoutIrdToSpareIsRefusedBeforeItConnects() throws Exception {
        try (Rnic server = open(RnicConfig.builder().name("server"));
             Rnic client = open(RnicConfig.builder().name("client").maxInboundReadsAndAtomics(8))) {
            Listener listener = server.listen(loopback(), ListenOptions.defaults(),
                    r -> r.accept(qpOf(server), AcceptOptions.defaults()));
            QueuePair qp = qpOf(client); // IRD 16
            CompletableFuture<Connection> refused = client.connect(listener.localAddress(), qp,
                    ConnectOptions.defaults());
            assertThat(refused).isCompletedExceptionally();
            assertThatThrownBy(refused::join).cause().isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED))
                    .hasMessageContaining("maxInboundReadsAndAtomics = 8");
            assertThat(qp.state()).as("nothing was started: the queue pair may connect later")
                    .isEqualTo(QueuePairState.IDLE);
            Connection c = client.connect(listener.localAddress(), qp, ConnectOptions.builder().ird(8).build())
                    .get(20, TimeUnit.SECONDS);
            assertThat(c.parameters().ird()).isEqualTo(8);
            assertThat(((RnicImpl) client).inboundReadsAndAtomics().used()).isEqualTo(8);
            c.close();
            awaitValue(() -> ((RnicImpl) client).inboundReadsAndAtomics().used(), 0, "given back at close");
        }
    }

    // ------------------------------------------------------------------ helpers

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    private static QueuePair qpOf(Rnic rnic) {
        return qpOf(rnic, 16);
    }

    private static QueuePair qpOf(Rnic rnic, int ird) {
        ProtectionDomain pd = rnic.allocateProtectionDomain();
        CompletionQueue cq = rnic.createCompletionQueue(16);
        return pd.createQueuePair(QueuePairConfig.builder(cq, cq).ird(ird).ord(ird).build());
    }

    private static void awaitValue(LongSupplier value, long expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (value.getAsLong() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": expected " + expected + ", still " + value.getAsLong());
            }
            Thread.sleep(10);
        }
    }
}
