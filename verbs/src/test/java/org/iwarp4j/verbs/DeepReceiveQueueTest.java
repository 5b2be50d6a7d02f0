package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A receive queue far deeper than the receives a queue pair usually has outstanding: receives posted in bursts
 * past the first sizes of its ring complete in the order they were posted (RFC 5040 §5.3), each with its own
 * message in its own buffer, and those left over are flushed in order when the connection ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeepReceiveQueueTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final int DEPTH = 200;
    private static final int SLOT = 16;

    @ParameterizedTest
    @MethodSource("transports")
    void burstsOfReceivesCompleteInOrderWithTheirMessages(Transport t) throws Exception {
        try (Peers p = new Peers(t, s -> s.maxRecvWr(DEPTH), c -> c.maxSendWr(DEPTH),
                ConnectOptions.defaults(), AcceptOptions.defaults(),
                x -> { })) {
            // the server receives: the client sends first (an MPA Responder holds its FPDUs until then)
            Mem inbox = p.server.region(DEPTH * SLOT, Access.LOCAL_WRITE);
            Mem outbox = p.client.region(DEPTH * SLOT);
            long nextWrId = 0;
            // 3 receives, then 150 (the ring grows past 16, 32, 64, 128 while the first are still posted), then
            // after the messages 190, wrapping the grown ring
            for (int burst : new int[] {3, 150, 190}) {
                List<Long> posted = new ArrayList<>();
                for (int i = 0; i < burst; i++) {
                    long id = nextWrId++;
                    p.server.receive(id, inbox.sge((int) (id % DEPTH) * SLOT, SLOT));
                    posted.add(id);
                }
                for (long id : posted) {
                    byte[] message = message(id);
                    outbox.put((int) (id % DEPTH) * SLOT, message);
                    p.client.post(SendWorkRequest.Send.of(id, outbox.sge((int) (id % DEPTH) * SLOT, message.length)));
                }
                List<WorkCompletion> sent = Completions.await(p.client.sendCq, burst);
                assertThat(sent).allMatch(WorkCompletion::isSuccess);
                List<WorkCompletion> received = Completions.await(p.server.recvCq, burst);
                List<Long> order = new ArrayList<>();
                for (WorkCompletion wc : received) {
                    assertThat(wc.isSuccess()).as(wc.toString()).isTrue();
                    assertThat(wc.opcode()).isEqualTo(CompletionOpcode.RECV);
                    byte[] expected = message(wc.wrId());
                    assertThat(wc.byteLength()).isEqualTo(expected.length);
                    assertThat(inbox.bytes((int) (wc.wrId() % DEPTH) * SLOT, expected.length)).isEqualTo(expected);
                    order.add(wc.wrId());
                }
                assertThat(order).isEqualTo(posted);
            }
            // 120 receives outstanding when the client disconnects: all flushed, in the order they were posted
            List<Long> left = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                long id = nextWrId++;
                p.server.receive(id, inbox.sge((int) (id % DEPTH) * SLOT, SLOT));
                left.add(id);
            }
            p.clientConnection.disconnect().get(20, TimeUnit.SECONDS);
            List<WorkCompletion> flushed = Completions.await(p.server.recvCq, 120);
            assertThat(flushed).extracting(WorkCompletion::wrId).containsExactlyElementsOf(left);
            assertThat(flushed).extracting(WorkCompletion::status).containsOnly(CompletionStatus.WORK_REQUEST_FLUSHED);
        }
    }

    /** 1..16 octets that name {@code id}. */
    private static byte[] message(long id) {
        byte[] m = new byte[1 + (int) (id % SLOT)];
        for (int i = 0; i < m.length; i++) {
            m[i] = (byte) (id * 31 + i);
        }
        return m;
    }
}
