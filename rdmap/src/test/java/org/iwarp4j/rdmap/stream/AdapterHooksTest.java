package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/** The two hooks the verbs adapter uses: receives supplied on demand, and "a message is in progress". */
class AdapterHooksTest {

    @Test
    void aReceiveCanBeSuppliedWhenASendFindsNone() {
        Endpoint a = Endpoint.create();
        CapturingLlp llp = new CapturingLlp(1500);
        TestMemory memory = new TestMemory();
        ByteBuf buffer = ByteBufAllocator.DEFAULT.directBuffer(64, 64);
        List<String> events = new ArrayList<>();
        RdmapStream[] b = new RdmapStream[1];
        RdmapListener listener = new RdmapListener() {
            @Override
            public void onReceiveNeeded() {
                events.add("needed");
                b[0].postReceive(9, new ByteBufUntaggedBuffer(buffer));
            }

            @Override
            public void onReceiveComplete(long id, OperationStatus status, RdmapOpcode opcode, int length, int inv,
                                          long imm) {
                events.add("recv " + id + " " + status + " " + length);
            }

            @Override
            public void onSendComplete(long id, OperationType type, OperationStatus status, long length, long orig) {
            }

            @Override
            public void onTerminateReceived(Terminate terminate) {
                events.add("terminate");
            }

            @Override
            public void onFatalError(Throwable cause) {
                events.add("fatal " + cause.getMessage());
            }
        };
        try (a; memory) {
            b[0] = new RdmapStream(RdmapStreamConfig.defaults().withProtectionDomain(Endpoint.PD, new Object()), memory,
                    new LockingAtomicExecutor(), llp, ByteBufAllocator.DEFAULT, listener);
            a.stream.submit(RdmapOperation.Send.of(1, Endpoint.data(new byte[] {1, 2, 3})));
            a.flush();
            b[0].receive(a.llp.poll());
            assertThat(events).containsExactly("needed", "recv 9 SUCCESS 3");
            assertThat(buffer.getByte(2)).isEqualTo((byte) 3);
        } finally {
            b[0].close();
            buffer.release();
        }
    }

    @Test
    void messageInProgressUntilItsLastSegmentIsWritten() {
        try (Pair p = Pair.create()) {
            p.b.memory.register(0x1000, 0, 4096, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            p.a.llp.mulpdu = 114; // 100 octets of payload per tagged segment
            assertThat(p.a.stream.isMessageInProgress()).isFalse();
            p.a.stream.submit(new RdmapOperation.RdmaWrite(1, 0x1000, 0, Endpoint.data(new byte[300]), false));
            p.a.stream.submit(new RdmapOperation.RdmaWrite(2, 0x1000, 0, Endpoint.data(new byte[300]), false));
            assertThat(p.a.stream.isMessageInProgress()).as("submitted, not started").isFalse();
            int segments = 0;
            // a graceful close writes while a message is in progress: it finishes the first Write only
            p.a.stream.writeNextSegment();
            segments++;
            while (p.a.stream.isMessageInProgress()) {
                p.a.stream.writeNextSegment();
                segments++;
            }
            assertThat(segments).isEqualTo(3);
            assertThat(p.a.stream.hasPendingTransmit()).as("the second Write has not started").isTrue();
            p.a.stream.segmentsWritten(segments);
            assertThat(p.a.listener.sends).extracting(RecordingListener.SendCompletion::id).containsExactly(1L);
            p.run();
        }
    }
}
