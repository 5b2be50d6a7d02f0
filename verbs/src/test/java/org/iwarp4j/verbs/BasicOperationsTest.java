package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class BasicOperationsTest {

    static Stream<Transport> transports() {
        return Peers.transportsWithIoUring();
    }

    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    @ParameterizedTest
    @MethodSource("transports")
    void sendWriteRead(Transport transport) throws Exception {
        try (Peers p = new Peers(transport)) {
            Mem serverBuf = p.server.region(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            Mem clientBuf = p.client.region(4096, Access.LOCAL_WRITE);
            Mem recv = p.server.region(64, Access.LOCAL_WRITE);

            // Send
            p.server.receive(7, recv.sge(0, 64));
            byte[] hello = "hello iwarp".getBytes(StandardCharsets.US_ASCII);
            clientBuf.put(0, hello);
            p.client.post(new SendWorkRequest.Send(1, List.of(clientBuf.sge(0, hello.length)), SIGNALED));
            WorkCompletion sent = Completions.one(p.client.sendCq);
            assertThat(sent.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(sent.opcode()).isEqualTo(CompletionOpcode.SEND);
            assertThat(sent.wrId()).isEqualTo(1);
            WorkCompletion received = Completions.one(p.server.recvCq);
            assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(received.opcode()).isEqualTo(CompletionOpcode.RECV);
            assertThat(received.wrId()).isEqualTo(7);
            assertThat(received.byteLength()).isEqualTo(hello.length);
            assertThat(received.solicited()).isFalse();
            assertThat(received.queuePair()).containsSame(p.server.qp);
            assertThat(recv.bytes(0, hello.length)).isEqualTo(hello);

            // RDMA Write
            byte[] data = new byte[3000];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 7);
            }
            clientBuf.put(0, data);
            p.client.post(new SendWorkRequest.RdmaWrite(2, List.of(clientBuf.sge(0, data.length)), serverBuf.stag(),
                    serverBuf.address() + 100, SIGNALED));
            WorkCompletion written = Completions.one(p.client.sendCq);
            assertThat(written.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(written.opcode()).isEqualTo(CompletionOpcode.RDMA_WRITE);
            assertThat(written.byteLength()).isEqualTo(3000);

            // RDMA Read of what was written (RFC 5040 §5.5: Write → Read, the Read sees the Write)
            Mem sink = p.client.region(4096, Access.LOCAL_WRITE);
            p.client.post(new SendWorkRequest.RdmaRead(3, List.of(sink.sge(10, 3000)), serverBuf.stag(),
                    serverBuf.address() + 100, SIGNALED));
            WorkCompletion read = Completions.one(p.client.sendCq);
            assertThat(read.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(read.opcode()).isEqualTo(CompletionOpcode.RDMA_READ);
            assertThat(read.byteLength()).isEqualTo(3000);
            assertThat(sink.bytes(10, 3000)).isEqualTo(data);
            assertThat(serverBuf.bytes(100, 3000)).isEqualTo(data);
        }
    }
}
