package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 3's integration test, over real loopback TCP sockets: two endpoints run 10,000 mixed operations
 * (Writes, Reads, Sends, Writes with Immediate, atomics) with lengths from 1 B to 1 MiB, eight in flight,
 * and every byte is verified. CRC is on (the default), so every FPDU is also CRC-checked.
 */
class LoopbackIntegrationTest {

    static Stream<Transport> transports() {
        return Peers.transportsWithIoUring();
    }

    private static final int OPERATIONS = 10_000;
    private static final int WINDOW = 8;

    @ParameterizedTest
    @MethodSource("transports")
    void tenThousandMixedOperations(Transport t) throws Exception {
        try (Peers p = new Peers(t, s -> s.maxSendWr(64).maxRecvWr(64), c -> c.maxSendWr(64).maxRecvWr(64),
                ConnectOptions.defaults(), AcceptOptions.defaults(), x -> { })) {
            ByteBuffer src = ByteBuffer.allocateDirect(2 * MixedTraffic.SLOT);
            Mem source = new Mem(p.client.pd.register(src, Set.of()), src);
            MixedTraffic traffic = new MixedTraffic(7, source, p.client.sendCq, p.server.recvCq, true);
            Mem[] targets = new Mem[WINDOW];
            Mem[] sinks = new Mem[WINDOW];
            for (int i = 0; i < WINDOW; i++) {
                targets[i] = p.server.region(MixedTraffic.SLOT, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                        Access.REMOTE_READ, Access.REMOTE_ATOMIC);
                sinks[i] = p.client.region(MixedTraffic.SLOT, Access.LOCAL_WRITE);
            }
            traffic.add(new MixedTraffic.Flow(p.client.qp, p.server.qp, targets, sinks, OPERATIONS));
            long start = System.nanoTime();
            traffic.run(Duration.ofSeconds(180));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(traffic.operationsDone).isEqualTo(OPERATIONS);
            org.slf4j.LoggerFactory.getLogger(LoopbackIntegrationTest.class).info(
                    "{}: {} operations, {} MiB verified in {} ms", t, traffic.operationsDone,
                    traffic.bytesVerified >> 20, ms);
            p.clientConnection.disconnect().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
    }
}
