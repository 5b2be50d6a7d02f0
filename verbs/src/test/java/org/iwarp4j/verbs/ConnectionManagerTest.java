package org.iwarp4j.verbs;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.CmEventListener;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.PeerProfile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionManagerTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static Rnic rnic(Transport t, String name) {
        return Rnic.open(RnicConfig.builder().name(name).transport(t).eventLoopThreads(1).build());
    }

    private static QueuePair qp(Rnic rnic) throws VerbsException {
        ProtectionDomain pd = rnic.allocateProtectionDomain();
        CompletionQueue cq = rnic.createCompletionQueue(64);
        return pd.createQueuePair(QueuePairConfig.builder(cq, cq).ird(4).ord(2).build());
    }

    @ParameterizedTest
    @MethodSource("transports")
    void connectExchangesPrivateDataAndNegotiatesParameters(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            QueuePair sqp = qp(server);
            QueuePair cqp = qp(client);
            CompletableFuture<ConnectionRequest> seen = new CompletableFuture<>();
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            List<CmEvent> clientEvents = new CopyOnWriteArrayList<>();
            List<CmEvent> serverEvents = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> serverDone = new CompletableFuture<>();
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.builder()
                    .eventListener(e -> {
                        serverEvents.add(e);
                        if (e instanceof CmEvent.Disconnected) {
                            serverDone.complete(null);
                        }
                    }).build(), request -> {
                seen.complete(request);
                request.accept(sqp, AcceptOptions.withPrivateData("server says hi".getBytes(StandardCharsets.US_ASCII)))
                        .whenComplete((c, e) -> {
                            if (e != null) {
                                accepted.completeExceptionally(e);
                            } else {
                                accepted.complete(c);
                            }
                        });
            });
            Connection c = client.connect(listener.localAddress(), cqp, ConnectOptions.builder()
                    .privateData("client says hi".getBytes(StandardCharsets.US_ASCII))
                    .eventListener(clientEvents::add).build())
                    .get(20, TimeUnit.SECONDS);
            Connection s = accepted.get(20, TimeUnit.SECONDS);
            ConnectionRequest request = seen.get();
            assertThat(new String(request.privateData(), StandardCharsets.US_ASCII)).isEqualTo("client says hi");
            assertThat(request.mpaRevision()).isEqualTo(2);
            assertThat(request.ird()).hasValue(4);
            assertThat(request.ord()).hasValue(2);
            assertThat(request.crcRequested()).isTrue();
            assertThat(request.remoteAddress()).isEqualTo(c.localAddress());
            assertThat(new String(c.parameters().peerPrivateData(), StandardCharsets.US_ASCII))
                    .isEqualTo("server says hi");
            assertThat(c.parameters().mpaRevision()).isEqualTo(2);
            assertThat(c.parameters().crc()).isTrue();
            assertThat(c.parameters().txMarkers()).isFalse();
            // RFC 6581 §9.1: initiator ORD ≤ responder IRD, responder ORD ≤ initiator IRD
            assertThat(c.parameters().ord()).isLessThanOrEqualTo(s.parameters().ird());
            assertThat(s.parameters().ord()).isLessThanOrEqualTo(c.parameters().ird());
            assertThat(cqp.state()).isEqualTo(QueuePairState.RTS);
            assertThat(sqp.state()).isEqualTo(QueuePairState.RTS);
            assertThat(cqp.connection()).containsSame(c);
            c.disconnect().get(20, TimeUnit.SECONDS);
            serverDone.get(20, TimeUnit.SECONDS);
            assertThat(clientEvents).hasSize(2);
            assertThat(clientEvents.get(0)).isEqualTo(new CmEvent.Established(c));
            assertThat(clientEvents.get(1)).isEqualTo(new CmEvent.Disconnected(c, DisconnectReason.LOCAL_DISCONNECT,
                    Optional.empty()));
            assertThat(serverEvents).hasSize(3);
            assertThat(serverEvents.get(0)).isEqualTo(new CmEvent.ConnectRequest(request));
            assertThat(serverEvents.get(1)).isEqualTo(new CmEvent.Established(s));
            // the client's clean disconnect is a FIN between FPDUs: no cause, so a server can tell it from a failure
            assertThat(serverEvents.get(2)).isEqualTo(new CmEvent.Disconnected(s, DisconnectReason.PEER_DISCONNECT,
                    Optional.empty()));
            assertThat(s.closeFuture().get(20, TimeUnit.SECONDS)).isEqualTo(serverEvents.get(2));
            assertThat(cqp.state()).isEqualTo(QueuePairState.ERROR);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void rejectCarriesPrivateDataBothWays(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            ProtectionDomain pd = client.allocateProtectionDomain();
            CompletionQueue cq = client.createCompletionQueue(8);
            QueuePair cqp = pd.createQueuePair(cq);
            MemoryRegion buf = pd.register(ByteBuffer.allocateDirect(16), Set.of(Access.LOCAL_WRITE));
            cqp.postReceive(ReceiveWorkRequest.of(5, Sge.of(buf)));
            CompletableFuture<byte[]> requestData = new CompletableFuture<>();
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.defaults(), request -> {
                requestData.complete(request.privateData());
                request.reject("go away".getBytes(StandardCharsets.US_ASCII));
            });
            List<CmEvent> events = new CopyOnWriteArrayList<>();
            CompletableFuture<Connection> f = client.connect(listener.localAddress(), cqp, ConnectOptions.builder()
                    .privateData(new byte[] {1, 2, 3}).eventListener(events::add).build());
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ConnectionRejectedException.class, e -> {
                        assertThat(new String(e.privateData(), StandardCharsets.US_ASCII)).isEqualTo("go away");
                        assertThat(e.ird().orElseThrow()).isGreaterThanOrEqualTo(0);
                    });
            assertThat(requestData.get()).containsExactly(1, 2, 3);
            assertThat(events).singleElement().isInstanceOfSatisfying(CmEvent.Rejected.class, r -> {
                assertThat(new String(r.privateData(), StandardCharsets.US_ASCII)).isEqualTo("go away");
                assertThat(r.remoteAddress()).isEqualTo(listener.localAddress());
                assertThat(r.reason()).contains("rejected");
            });
            assertThat(cqp.state()).isEqualTo(QueuePairState.ERROR);
            WorkCompletion flushed = Completions.one(cq);
            assertThat(flushed.wrId()).as("a receive posted while IDLE is flushed").isEqualTo(5);
            assertThat(flushed.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void connectTimesOutWhenTheListenerNeverAnswersTheMpaRequest(Transport t) throws Exception {
        try (Rnic client = rnic(t, "c");
                ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            QueuePair cqp = qp(client);
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return silent.accept();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            long start = System.nanoTime();
            CompletableFuture<Connection> f = client.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()), cqp,
                    ConnectOptions.builder().mpa(m -> m.startupTimeout(Duration.ofMillis(500))).build());
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(ConnectionFailedException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectionFailedException.Kind.UNREACHABLE));
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(elapsedMs).isBetween(400L, 10_000L);
            try (Socket s = accepted.get(20, TimeUnit.SECONDS)) {
                // the silent peer got our MPA Request, then the connection was closed
                InputStream in = s.getInputStream();
                byte[] key = in.readNBytes(16);
                assertThat(new String(key, StandardCharsets.US_ASCII)).isEqualTo("MPA ID Req Frame");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void connectToAClosedPortIsUnreachable(Transport t) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (Rnic client = rnic(t, "c")) {
            CompletableFuture<Connection> f = client.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port), qp(client),
                    ConnectOptions.builder().connectTimeout(Duration.ofSeconds(2)).build());
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(ConnectionFailedException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectionFailedException.Kind.UNREACHABLE));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void responderStartupTimesOutWhenNoMpaRequestComes(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s")) {
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            CmEventListener events = e -> {
                if (e instanceof CmEvent.Unreachable u) {
                    failure.complete(u.error());
                } else if (e instanceof CmEvent.ConnectError c) {
                    failure.complete(c.error());
                }
            };
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.builder()
                    .mpa(m -> m.startupTimeout(Duration.ofMillis(400))).eventListener(events).build(), r -> { });
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                // send nothing: the Responder gives up and closes (RFC 5044 §7.1.2 rule 8)
                s.setSoTimeout(20_000);
                assertThat(s.getInputStream().read()).isEqualTo(-1);
            }
            // no queue pair was bound, so no CM event is required; the close above is the observable result
            assertThat(failure.isDone() ? failure.get() : null).satisfiesAnyOf(
                    c -> assertThat(c).isNull(), c -> assertThat(c).isInstanceOf(ConnectionFailedException.class));
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void unansweredRequestIsRejectedBeforeTheStartupTimeout(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.builder()
                    .mpa(m -> m.startupTimeout(Duration.ofMillis(600))).build(), request -> { /* never decides */ });
            CompletableFuture<Connection> f = client.connect(listener.localAddress(), qp(client),
                    ConnectOptions.defaults());
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(ConnectionRejectedException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void peerToPeerModeSendsTheRtrFirstThenWorks(Transport t) throws Exception {
        for (RtrType rtr : List.of(RtrType.WRITE, RtrType.READ, RtrType.SEND)) {
            try (Peers p = new Peers(t, s -> { }, c -> { },
                    ConnectOptions.builder().mpa(m -> m.peerToPeer(rtr)).build(), AcceptOptions.defaults(), x -> { })) {
                assertThat(p.clientConnection.parameters().peerToPeer()).isTrue();
                assertThat(p.clientConnection.parameters().rtr()).contains(rtr);
                Mem recv = p.server.region(32, Access.LOCAL_WRITE);
                p.server.receive(1, recv.sge(0, 32));
                Mem src = p.client.region(32);
                src.put(0, "after the RTR".getBytes(StandardCharsets.US_ASCII));
                p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 13)), Set.of()));
                WorkCompletion wc = Completions.one(p.server.recvCq);
                assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(wc.wrId()).as("the RTR consumed no receive").isEqualTo(1);
                assertThat(wc.byteLength()).isEqualTo(13);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void revisionOneWithMarkersBothWaysAndNoCrc(Transport t) throws Exception {
        try (Peers p = new Peers(t, s -> { }, c -> { },
                ListenOptions.builder().mpa(m -> m.crc(false).markers(true)).build(),
                ConnectOptions.builder().mpa(m -> m.revision(1).crc(false).markers(true).emss(1000)).build(),
                AcceptOptions.defaults(), x -> { })) {
            var params = p.clientConnection.parameters();
            assertThat(params.mpaRevision()).isEqualTo(1);
            assertThat(params.crc()).isFalse();
            assertThat(params.txMarkers()).isTrue();
            assertThat(params.rxMarkers()).isTrue();
            assertThat(params.mulpdu()).isLessThan(1000);
            // a 100 KiB Write and Read across many marker-carrying FPDUs
            Mem remote = p.server.region(1 << 17, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            Mem src = p.client.region(1 << 17);
            byte[] data = new byte[100_000];
            new Random(3).nextBytes(data);
            src.put(0, data);
            Mem sink = p.client.region(1 << 17, Access.LOCAL_WRITE);
            p.client.post(new SendWorkRequest.RdmaWrite(1, List.of(src.sge(0, data.length)), remote.stag(),
                    remote.address() + 5, Set.of()));
            p.client.post(new SendWorkRequest.RdmaRead(2, List.of(sink.sge(0, data.length)), remote.stag(),
                    remote.address() + 5, Set.of(SendFlag.SIGNALED)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(sink.bytes(0, data.length)).isEqualTo(data);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void listenersPcapFileOutlivesTheListenerUntilItsLastConnectionEnds(Transport t, @TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("server.pcap");
        byte[] late = "sent after the listener closed".getBytes(StandardCharsets.US_ASCII);
        try (Peers p = new Peers(t, s -> { }, c -> { }, ListenOptions.builder().pcapFile(file).build(),
                ConnectOptions.defaults(), AcceptOptions.defaults(), x -> { })) {
            p.listener.close(); // the accepted connection goes on, and so does its capture
            Mem recv = p.server.region(64, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 64));
            Mem src = p.client.region(64);
            src.put(0, late);
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, late.length)), Set.of()));
            assertThat(Completions.one(p.server.recvCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            p.clientConnection.disconnect().get(20, TimeUnit.SECONDS);
            p.serverConnection.closeFuture().get(20, TimeUnit.SECONDS);
            // The file is flushed and closed when the connection's capture handler is gone (after its close).
            String text = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!text.contains("sent after the listener closed") && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000); // poll gently: the machine is shared
                text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            }
            assertThat(text).contains("MPA ID Req Frame").contains("sent after the listener closed");
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void pcapOptionCapturesTheConnection(Transport t, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.pcap");
        try (Peers p = new Peers(t, s -> { }, c -> { }, ConnectOptions.builder().pcapFile(file).build(),
                AcceptOptions.defaults(), x -> { })) {
            Mem recv = p.server.region(32, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 32));
            Mem src = p.client.region(32);
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 5)), Set.of()));
            Completions.one(p.server.recvCq);
            p.clientConnection.disconnect().get(20, TimeUnit.SECONDS);
        }
        byte[] pcap = Files.readAllBytes(file);
        // pcap global header magic 0xa1b2c3d4 (Netty writes it big-endian)
        assertThat(pcap).startsWith((byte) 0xa1, (byte) 0xb2, (byte) 0xc3, (byte) 0xd4);
        String text = new String(pcap, StandardCharsets.ISO_8859_1);
        assertThat(text).contains("MPA ID Req Frame").contains("MPA ID Rep Frame");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aListenerAndAConnectionCapturingToOnePathShareOneFile(Transport t, @TempDir Path dir) throws Exception {
        // both ends of one connection in this JVM, as `iwarp perf --loopback --pcap FILE` has them: one capture with
        // every packet seen from each end, not two writers truncating each other
        Path file = dir.resolve("both.pcap");
        try (Peers p = new Peers(t, s -> { }, c -> { }, ListenOptions.builder().pcapFile(file).build(),
                ConnectOptions.builder().pcapFile(file).build(), AcceptOptions.defaults(), x -> { })) {
            Mem recv = p.server.region(32, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 32));
            Mem src = p.client.region(32);
            src.put(0, "one capture".getBytes(StandardCharsets.US_ASCII));
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 11)), Set.of()));
            assertThat(Completions.one(p.server.recvCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            p.listener.close();
            p.clientConnection.disconnect().get(20, TimeUnit.SECONDS);
            p.serverConnection.closeFuture().get(20, TimeUnit.SECONDS);
        }
        byte[] pcap = new byte[0];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (countOf(pcap, "one capture") < 2 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000); // the file is complete once the last capture handler is gone
            pcap = Files.readAllBytes(file);
        }
        // pcap's global header (24 octets, magic 0xa1b2c3d4 big-endian), then records that end exactly at the end
        assertThat(pcap).startsWith((byte) 0xa1, (byte) 0xb2, (byte) 0xc3, (byte) 0xd4);
        ByteBuffer b = ByteBuffer.wrap(pcap);
        int at = 24;
        int records = 0;
        while (at < pcap.length) {
            assertThat(pcap.length - at).as("record header at %d", at).isGreaterThanOrEqualTo(16);
            int captured = b.getInt(at + 8);
            assertThat(captured).as("captured length of record %d", records).isBetween(0, pcap.length - at - 16);
            at += 16 + captured;
            records++;
        }
        assertThat(at).isEqualTo(pcap.length);
        assertThat(records).isPositive();
        // each end captured the MPA Request, the Reply and the Send
        assertThat(countOf(pcap, "MPA ID Req Frame")).isEqualTo(2);
        assertThat(countOf(pcap, "MPA ID Rep Frame")).isEqualTo(2);
        assertThat(countOf(pcap, "one capture")).isEqualTo(2);
    }

    private static int countOf(byte[] haystack, String needle) {
        String text = new String(haystack, StandardCharsets.ISO_8859_1);
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @MethodSource("transports")
    void privateDataIsLengthChecked(Transport t) {
        assertThatThrownBy(() -> ConnectOptions.builder().privateData(new byte[509]).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("508");
        assertThat(ConnectOptions.builder().privateData(new byte[508]).build().privateData()).hasSize(508);
        assertThat(ConnectOptions.builder().mpa(m -> m.revision(1)).privateData(new byte[512]).build().privateData())
                .hasSize(512);
        assertThatThrownBy(() -> ConnectOptions.builder().connectTimeout(null).build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("mandatory");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void anExplicitIrdIsAnsweredAsIsAndTheDefaultRaisesToTheInitiatorsOrd(Transport t) throws Exception {
        // RFC 6581 §9.1: a Responder may raise its IRD to the Initiator's ORD; asked for an IRD, it answers that
        try (Peers p = new Peers(t, s -> s.ird(2).ord(1), c -> c.ird(8).ord(8), ConnectOptions.defaults(),
                AcceptOptions.defaults().withIrdOrd(2, 1), x -> { })) {
            assertThat(p.serverConnection.parameters().ird()).isEqualTo(2);
            assertThat(p.clientConnection.parameters().ord()).isEqualTo(2);
        }
        try (Peers p = new Peers(t, s -> s.ird(2).ord(1), c -> c.ird(8).ord(8), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            assertThat(p.serverConnection.parameters().ird()).as("raised to the Initiator's ORD").isEqualTo(8);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aListenerWithoutAHandlerHandsRequestsToTake(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            QueuePair sqp = qp(server);
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.defaults());
            assertThat(listener.take(Duration.ofMillis(50))).isEmpty();
            CompletableFuture<Connection> c =
                    client.connect(listener.localAddress(), qp(client), ConnectOptions.defaults());
            ConnectionRequest request = listener.take(Duration.ofSeconds(20)).orElseThrow();
            Connection s = request.accept(sqp).get(20, TimeUnit.SECONDS);
            assertThat(c.get(20, TimeUnit.SECONDS).remoteAddress()).isEqualTo(s.localAddress());
            Listener withHandler = server.listen(ANY_LOOPBACK, ListenOptions.defaults(), r -> { });
            assertThatThrownBy(() -> withHandler.take(Duration.ofMillis(1))).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * A request waiting for {@code take} when its listener closes is rejected then, not at the decision timeout
     * (30 s here, beyond the test's bound); one the application already took is still its own to accept.
     */
    @ParameterizedTest
    @MethodSource("transports")
    void closingAListenerRejectsTheRequestsNobodyTookYet(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            QueuePair sqp = qp(server);
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.builder()
                    .mpa(m -> m.startupTimeout(Duration.ofSeconds(30))).build());
            ConnectOptions patient = ConnectOptions.builder().mpa(m -> m.startupTimeout(Duration.ofSeconds(30)))
                    .build();
            CompletableFuture<Connection> taken = client.connect(listener.localAddress(), qp(client), patient);
            ConnectionRequest held = listener.take(Duration.ofSeconds(20)).orElseThrow();
            CompletableFuture<Connection> waiting = client.connect(listener.localAddress(), qp(client), patient);
            Thread.sleep(300); // its MPA Request reaches the queue (or comes after the close: rejected too)
            listener.close(); // no take runs meanwhile: one would be handed the queued request
            assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).as("rejected at the close")
                    .cause().isInstanceOf(ConnectionRejectedException.class);
            // A take that waits on an empty queue when its listener closes returns (another listener: this
            // one's queue held a request until the close).
            Listener idle = server.listen(ANY_LOOPBACK, ListenOptions.defaults());
            CompletableFuture<Optional<ConnectionRequest>> blockedTake = CompletableFuture.supplyAsync(() -> {
                try {
                    return idle.take(Duration.ofSeconds(25)); // nothing comes: waits until the close
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200);
            idle.close();
            assertThat(blockedTake.get(10, TimeUnit.SECONDS)).as("a take waiting at the close returns").isEmpty();
            Connection s = held.accept(sqp).get(20, TimeUnit.SECONDS);
            assertThat(taken.get(20, TimeUnit.SECONDS).remoteAddress()).isEqualTo(s.localAddress());
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aQueuePairClosedRightAfterConnectEndsTheConnectionAttempt(Transport t) throws Exception {
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            QueuePair sqp = qp(server);
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.defaults(), r -> r.accept(sqp));
            QueuePair cqp = qp(client);
            CompletableFuture<Connection> f = client.connect(listener.localAddress(), cqp, ConnectOptions.defaults());
            cqp.close(); // before the connect task has even run on the event loop
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).as("a closed queue pair never connects")
                    .isInstanceOf(ExecutionException.class);
            assertThat(cqp.state()).isEqualTo(QueuePairState.ERROR);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void privateDataBeyondWhatThePeerTakesIsRefusedUpFront(Transport t) throws Exception {
        assertThatThrownBy(() -> ConnectOptions.builder().peerProfile(PeerProfile.LINUX_SIW)
                .privateData(new byte[253]).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PD_Length 257").hasMessageContaining("linux-siw");
        assertThat(ConnectOptions.builder().peerProfile(PeerProfile.LINUX_SIW)
                .privateData(new byte[252]).build().privateData()).hasSize(252);
        // a Reply to a revision 1 Request may carry 512 octets (no enhanced block); to revision 2, 508
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            CompletableFuture<Throwable> tooLong = new CompletableFuture<>();
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.defaults(), r -> {
                QueuePair sqp;
                try {
                    sqp = qp(server);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                r.accept(sqp, AcceptOptions.withPrivateData(new byte[509])).whenComplete((c, e) -> tooLong.complete(e));
            });
            client.connect(listener.localAddress(), qp(client), ConnectOptions.defaults());
            assertThat(tooLong.get(20, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("508");
        }
        try (Rnic server = rnic(t, "s"); Rnic client = rnic(t, "c")) {
            QueuePair sqp = qp(server);
            Listener listener = server.listen(ANY_LOOPBACK, ListenOptions.defaults(),
                    r -> r.accept(sqp, AcceptOptions.withPrivateData(new byte[512])));
            Connection c = client.connect(listener.localAddress(), qp(client), ConnectOptions.builder()
                    .mpa(m -> m.revision(1)).build()).get(20, TimeUnit.SECONDS);
            assertThat(c.parameters().peerPrivateData()).hasSize(512);
        }
    }
}
