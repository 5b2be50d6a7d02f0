package org.iwarp4j.conformance.rdmap;

import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.VerbsStack;
import org.iwarp4j.conformance.support.VerbsStack.Region;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The stack against itself over loopback TCP, through the verbs API only. */
class LoopbackTest {

    @Test
    @Requirement("EXT-05")
    @DisplayName("EXT-05: FetchAdds from two streams (two connections, two event loops) on one word of one RNIC never "
            + "interleave: every original value is seen exactly once and the word ends at the sum")
    void atomicsAreAtomicAcrossStreamsOfOneRnic() throws Exception {
        int perClient = 400;
        try (Rnic server = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(2).build());
             VerbsStack c1 = new VerbsStack(b -> b.ord(16).signalAll(true));
             VerbsStack c2 = new VerbsStack(b -> b.ord(16).signalAll(true))) {
            ProtectionDomain pd = server.allocateProtectionDomain();
            ByteBuffer word = ByteBuffer.allocateDirect(8).order(ByteOrder.LITTLE_ENDIAN);
            MemoryRegion target = pd.register(word, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            CompletionQueue cq = server.createCompletionQueue(64);
            ConcurrentLinkedQueue<QueuePair> qps = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < 2; i++) {
                qps.add(pd.createQueuePair(QueuePairConfig.builder(cq, cq).ird(16).build()));
            }
            var listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.defaults(), r -> r.accept(qps.poll(), AcceptOptions.defaults()));
            c1.connect(listener.localAddress(), ConnectOptions.builder());
            c2.connect(listener.localAddress(), ConnectOptions.builder());
            c1.connected();
            c2.connected();
            List<CompletableFuture<List<Long>>> runs = new ArrayList<>();
            for (VerbsStack c : List.of(c1, c2)) {
                runs.add(CompletableFuture.supplyAsync(() -> {
                    List<Long> originals = new ArrayList<>();
                    for (int i = 0; i < perClient; i += 100) {
                        for (int k = 0; k < 100; k++) {
                            c.post(SendWorkRequest.AtomicFetchAdd.of(i + k, target.remoteBuffer(), 1)
                                    .withFlags(Set.of()));
                        }
                        for (WorkCompletion wc : c.sendCompletions(100)) {
                            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
                            originals.add(wc.atomicOriginalValue().orElseThrow());
                        }
                    }
                    return originals;
                }));
            }
            Set<Long> seen = new HashSet<>();
            for (CompletableFuture<List<Long>> r : runs) {
                for (long v : r.get(30, TimeUnit.SECONDS)) {
                    assertThat(seen.add(v)).as("original value %d seen twice: an update was lost", v).isTrue();
                }
            }
            assertThat(seen).hasSize(2 * perClient);
            assertThat(seen).allMatch(v -> v >= 0 && v < 2 * perClient);
            assertThat(word.getLong(0)).isEqualTo(2L * perClient);
        }
    }

    @Test
    @Requirement("RDMAP-32")
    @DisplayName("RDMAP-32: STags are hard to guess (a random 8-bit key per index, never 0 as a whole) and a "
            + "deregistered region's STag is refused at once")
    void stagsAreSparseAndRevocable() {
        try (VerbsStack s = new VerbsStack()) {
            Set<Integer> keys = new HashSet<>();
            Set<Integer> stags = new HashSet<>();
            for (int i = 0; i < 32; i++) {
                Region r = s.region(16, Access.LOCAL_WRITE);
                keys.add(r.stagValue() & 0xFF);
                stags.add(r.stagValue());
                assertThat(r.stagValue()).isNotZero();
            }
            assertThat(stags).hasSize(32);
            assertThat(keys).as("keys are not one constant (like siw's 0x00)").hasSizeGreaterThan(1);
            Region revoked = s.region(16, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            revoked.mr().close();
            assertThat(revoked.mr().isValid()).isFalse();
        }
    }
}
