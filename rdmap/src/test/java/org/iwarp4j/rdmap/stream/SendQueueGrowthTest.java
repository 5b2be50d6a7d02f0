package org.iwarp4j.rdmap.stream;

import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RecordingListener.SendCompletion;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/**
 * The send queue's ring starts small and grows as the queue deepens: completions stay in submission order
 * (RFC 5040 §5.5 [RDMAP-22]) across every growth, with the queue wrapped around the ring at the time.
 */
class SendQueueGrowthTest {

    private static Pair pair(int sendDepth) {
        RdmapStreamConfig c = RdmapStreamConfig.defaults().withQueueDepths(sendDepth, 16);
        return new Pair(new Endpoint(c, 1500), new Endpoint(c, 1500));
    }

    private static List<Long> ids(List<SendCompletion> sends) {
        List<Long> ids = new ArrayList<>();
        for (SendCompletion s : sends) {
            assertThat(s.status()).isEqualTo(OperationStatus.SUCCESS);
            ids.add(s.id());
        }
        return ids;
    }

    private static List<Long> range(long from, long to) {
        List<Long> r = new ArrayList<>();
        for (long i = from; i < to; i++) {
            r.add(i);
        }
        return r;
    }

    @Test
    void aFullQueueOfUnacknowledgedWritesCompletesInOrder() {
        try (Pair p = pair(200)) {
            p.b.memory.register(0x1000, 0, 4096, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            // wrap the small ring first, then deepen the queue past several sizes while it is wrapped
            long id = 0;
            for (; id < 10; id++) {
                p.a.stream.submit(new RdmaWrite(id, 0x1000, 8 * id, Endpoint.data(new byte[8]), false));
            }
            int written = 0;
            while (p.a.stream.writeNextSegment()) {
                written++;
            }
            p.a.stream.segmentsWritten(written);
            assertThat(ids(p.a.listener.sends)).isEqualTo(range(0, 10));
            for (; id < 10 + 200; id++) {
                p.a.stream.submit(new RdmaWrite(id, 0x1000, 8 * (id % 500), Endpoint.data(new byte[8]), false));
            }
            written = 0;
            while (p.a.stream.writeNextSegment()) {
                written++;
            }
            assertThat(written).isEqualTo(200);
            assertThat(p.a.listener.sends).hasSize(10); // none acknowledged yet
            p.a.stream.segmentsWritten(77);
            assertThat(ids(p.a.listener.sends)).isEqualTo(range(0, 10 + 77));
            for (; id < 10 + 200 + 77; id++) {
                p.a.stream.submit(new RdmaWrite(id, 0x1000, 8 * (id % 500), Endpoint.data(new byte[8]), false));
            }
            written = 0;
            while (p.a.stream.writeNextSegment()) {
                written++;
            }
            p.a.stream.segmentsWritten(123 + written);
            assertThat(ids(p.a.listener.sends)).isEqualTo(range(0, 10 + 200 + 77));
            p.run();
        }
    }

    @Test
    void readsOutstandingWhileTheRingGrowsCompleteWithTheirData() {
        try (Pair p = pair(64)) {
            TestRegion source = p.b.memory.register(0x2000, 0, 4096, EnumSet.of(REMOTE_READ), Endpoint.PD);
            source.memory.setBytes(0, Endpoint.pattern(4096, 5));
            TestRegion sink = p.a.memory.register(0x3000, 0, 4096, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            p.b.memory.register(0x4000, 0, 4096, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            // Reads beyond ORD wait in the queue; Writes behind them keep it growing
            for (long id = 0; id < 60; id++) {
                if (id % 3 == 0) {
                    p.a.stream.submit(new RdmaRead(id, 0x3000, 64 * id, 64, 0x2000, 64 * id, false));
                } else {
                    p.a.stream.submit(new RdmaWrite(id, 0x4000, 8 * id, Endpoint.data(new byte[8]), false));
                }
            }
            p.run();
            assertThat(ids(p.a.listener.sends)).isEqualTo(range(0, 60));
            for (int id = 0; id < 60; id += 3) {
                for (int i = 0; i < 64; i++) {
                    assertThat(sink.bytes()[64 * id + i]).isEqualTo(source.bytes()[64 * id + i]);
                }
            }
        }
    }
}
