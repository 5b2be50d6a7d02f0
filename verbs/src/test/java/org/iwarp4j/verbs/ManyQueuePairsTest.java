package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** 200 queue pairs in one JVM with concurrent mixed traffic, every byte verified, bounded time. */
class ManyQueuePairsTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final int QUEUE_PAIRS = 200;
    private static final int OPERATIONS_EACH = 6;

    @ParameterizedTest
    @MethodSource("transports")
    void twoHundredQueuePairsOfMixedTraffic(Transport t) throws Exception {
        try (Rnic server = Rnic.open(RnicConfig.builder().name("srv").transport(t).eventLoopThreads(2).build());
             Rnic client = Rnic.open(RnicConfig.builder().name("cli").transport(t).eventLoopThreads(2).build())) {
            ProtectionDomain spd = server.allocateProtectionDomain();
            ProtectionDomain cpd = client.allocateProtectionDomain();
            CompletionQueue serverCq = server.createCompletionQueue(4 * QUEUE_PAIRS);
            CompletionQueue clientCq = client.createCompletionQueue(4 * QUEUE_PAIRS);
            ConcurrentLinkedQueue<QueuePair> serverQps = new ConcurrentLinkedQueue<>();
            List<QueuePair> serverList = new ArrayList<>();
            for (int i = 0; i < QUEUE_PAIRS; i++) {
                QueuePair qp = spd.createQueuePair(QueuePairConfig.builder(serverCq, serverCq).maxSendWr(16)
                        .maxRecvWr(16).build());
                serverQps.add(qp);
                serverList.add(qp);
            }
            List<CompletableFuture<Connection>> accepted = new ArrayList<>();
            Listener listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.builder().backlog(QUEUE_PAIRS).build(), request -> {
                        synchronized (accepted) {
                            accepted.add(request.accept(serverQps.poll(), AcceptOptions.defaults())
                                    .toCompletableFuture());
                        }
                    });
            List<QueuePair> clientList = new ArrayList<>();
            List<CompletableFuture<Connection>> connected = new ArrayList<>();
            for (int i = 0; i < QUEUE_PAIRS; i++) {
                QueuePair qp = cpd.createQueuePair(QueuePairConfig.builder(clientCq, clientCq).maxSendWr(16)
                        .maxRecvWr(16).build());
                clientList.add(qp);
                connected.add(client.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(connected.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            List<CompletableFuture<Connection>> acceptedCopy;
            synchronized (accepted) {
                acceptedCopy = new ArrayList<>(accepted);
            }
            assertThat(acceptedCopy).hasSize(QUEUE_PAIRS);
            CompletableFuture.allOf(acceptedCopy.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            Map<InetSocketAddress, QueuePair> serverByPeer = new HashMap<>();
            for (CompletableFuture<Connection> f : acceptedCopy) {
                serverByPeer.put(f.get().remoteAddress(), f.get().queuePair());
            }

            ByteBuffer src = ByteBuffer.allocateDirect(2 * MixedTraffic.SLOT);
            Mem source = new Mem(cpd.register(src, Set.of()), src);
            MixedTraffic traffic = new MixedTraffic(42, source, clientCq, serverCq, true);
            for (QueuePair cqp : clientList) {
                QueuePair sqp = serverByPeer.get(cqp.connection().orElseThrow().localAddress());
                ByteBuffer tb = ByteBuffer.allocateDirect(MixedTraffic.SLOT);
                ByteBuffer sb = ByteBuffer.allocateDirect(MixedTraffic.SLOT);
                Mem target = new Mem(spd.register(tb, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                        Access.REMOTE_READ, Access.REMOTE_ATOMIC)), tb);
                Mem sink = new Mem(cpd.register(sb, Set.of(Access.LOCAL_WRITE)), sb);
                traffic.add(new MixedTraffic.Flow(cqp, sqp, new Mem[] {target}, new Mem[] {sink}, OPERATIONS_EACH));
            }
            long start = System.nanoTime();
            traffic.run(Duration.ofSeconds(120));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(traffic.operationsDone).isEqualTo(QUEUE_PAIRS * OPERATIONS_EACH);
            org.slf4j.LoggerFactory.getLogger(ManyQueuePairsTest.class).info(
                    "{}: {} operations on {} queue pairs, {} MiB verified in {} ms", t, traffic.operationsDone,
                    QUEUE_PAIRS, traffic.bytesVerified >> 20, ms);
            for (QueuePair qp : clientList) {
                qp.connection().orElseThrow().disconnect().get(20, TimeUnit.SECONDS);
            }
            for (QueuePair qp : serverList) {
                qp.connection().orElseThrow().closeFuture().get(20, TimeUnit.SECONDS);
            }
            assertThat(serverCq.size()).isZero();
            assertThat(clientCq.size()).isZero();
        }
    }
}
