package org.iwarp4j.conformance.rdmap;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.conformance.Requirement;
import org.iwarp4j.conformance.support.Bytes;
import org.iwarp4j.conformance.support.RdmapEngine;
import org.iwarp4j.conformance.support.TestRegion;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.RdmapOperation;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.stream.RdmapStreamState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules of RFC 5040 §5.5/§6/§7 that need control over when the lower layer takes a segment and when the
 * peer receives it: the RDMAP engine on the stack's DDP and MPA FPDU codec ({@link RdmapEngine}), two
 * engines joined by the octets MPA writes, stepped by hand.
 */
class EngineRulesTest {

    private static RdmapStreamConfig config(int ird, int ord) {
        return RdmapStreamConfig.defaults().withReadDepths(ird, ord);
    }

    private static ByteBuf data(byte[] b) {
        return Bytes.ALLOC.directBuffer(b.length).writeBytes(b);
    }

    @Test
    @Requirement({"RDMAP-21", "RDMAP-20"})
    @DisplayName("RDMAP-20, RDMAP-21: Sends and Writes go to DDP in submission order and complete only once the lower "
            + "layer has taken their last segment")
    void completionOnlyAfterTheLlpTookTheMessage() {
        LockingAtomicExecutor atomics = new LockingAtomicExecutor();
        try (RdmapEngine a = new RdmapEngine(config(4, 4), atomics)) {
            a.mulpdu(128);
            a.stream.submit(RdmapOperation.Send.of(1, data(Bytes.pattern(300, 1))));
            a.stream.submit(new RdmapOperation.RdmaWrite(2, 0x100, 0x2000, data(Bytes.pattern(50, 2)), false));
            assertThat(a.pump()).as("3 Send segments + 1 Write segment").isEqualTo(4);
            assertThat(a.wire.get(0)[3] & 0x0F).isEqualTo(0x3);
            assertThat(a.wire.get(3)[3] & 0x0F).as("the Write after the Send").isEqualTo(0x0);
            assertThat(a.events("send")).as("nothing completes before the LLP took it").isEmpty();
            a.acknowledge();
            assertThat(a.events("send")).extracting(RdmapEngine.Event::id).containsExactly(1L, 2L);
            assertThat(a.events("send")).extracting(RdmapEngine.Event::status).containsOnly(OperationStatus.SUCCESS);
        }
    }

    @Test
    @Requirement({"RDMAP-16", "RDMAP-26", "RDMAP-25"})
    @DisplayName("RDMAP-16, RDMAP-25, RDMAP-26: with ORD 2 the third Read Request waits for the first response; the "
            + "responder answers in request order and each Read completes when its response is delivered")
    void ordHoldsExactly() {
        LockingAtomicExecutor atomics = new LockingAtomicExecutor();
        try (RdmapEngine requester = new RdmapEngine(config(4, 2), atomics);
             RdmapEngine responder = new RdmapEngine(config(2, 4), atomics)) {
            TestRegion sink = requester.register(0x51, 0x1000, 64, TaggedBufferAccess.LOCAL_WRITE);
            TestRegion source = responder.register(0x52, 0x9000, 64, TaggedBufferAccess.REMOTE_READ);
            source.memory().setBytes(0, Bytes.pattern(64, 5));
            for (int i = 0; i < 4; i++) {
                requester.stream.submit(new RdmapOperation.RdmaRead(i, 0x51, 0x1000 + 16 * i, 16, 0x52, 0x9000 + 16 * i,
                        false));
            }
            assertThat(requester.pump()).as("ORD 2: two Read Requests").isEqualTo(2);
            requester.acknowledge();
            assertThat(requester.stream.outstandingRequests()).isEqualTo(2);
            requester.deliverTo(responder);
            assertThat(responder.pump()).as("two Read Responses").isEqualTo(2);
            byte[] firstResponse = responder.wire.get(0);
            assertThat(ByteBuffer.wrap(firstResponse).getLong(8)).as("first response: first request's sink TO")
                    .isEqualTo(0x1000);
            // deliver only the first response
            List<byte[]> second = List.of(responder.wire.get(1));
            responder.wire.remove(1);
            responder.deliverTo(requester);
            assertThat(requester.events("send")).extracting(RdmapEngine.Event::id).containsExactly(0L);
            assertThat(requester.pump()).as("one slot freed: one more Read Request").isEqualTo(1);
            responder.wire.addAll(second);
            responder.deliverTo(requester);
            assertThat(requester.pump()).isEqualTo(1);
            requester.acknowledge();
            requester.deliverTo(responder);
            responder.pump();
            responder.deliverTo(requester);
            assertThat(requester.events("send")).extracting(RdmapEngine.Event::id).containsExactly(0L, 1L, 2L, 3L);
            assertThat(sink.content()).isEqualTo(Bytes.pattern(64, 5));
        }
    }

    @Test
    @Requirement({"RDMAP-34", "RDMAP-19", "RDMAP-28"})
    @DisplayName("RDMAP-19, RDMAP-28, RDMAP-34: a stream that detected an error is marked erroneous, sends its one "
            + "Terminate and nothing else: work submitted afterwards completes flushed and never reaches the wire")
    void erroneousStreamStopsTransferring() {
        LockingAtomicExecutor atomics = new LockingAtomicExecutor();
        try (RdmapEngine a = new RdmapEngine(config(4, 4), atomics);
                RdmapEngine b = new RdmapEngine(config(4, 4), atomics)) {
            a.postReceive(1, 8);
            b.stream.submit(RdmapOperation.Send.of(5, data(Bytes.pattern(16, 0))));
            b.pump();
            b.deliverTo(a); // 16 octets into an 8-octet receive
            assertThat(a.stream.state()).isIn(RdmapStreamState.TERMINATING, RdmapStreamState.ERROR);
            a.stream.submit(RdmapOperation.Send.of(9, data(Bytes.pattern(4, 0))));
            assertThat(a.pump()).as("only the Terminate").isEqualTo(1);
            assertThat(a.wire.get(0)[3]).as("opcode Terminate").isEqualTo((byte) 0x47);
            assertThat(a.stream.state()).isEqualTo(RdmapStreamState.ERROR);
            a.stream.submit(RdmapOperation.Send.of(10, data(Bytes.pattern(4, 0))));
            assertThat(a.pump()).isZero();
            assertThat(a.events("send")).extracting(RdmapEngine.Event::status).containsOnly(OperationStatus.FLUSHED);
            a.deliverTo(b);
            assertThat(b.terminateReceived).isNotNull();
            assertThat(b.terminateReceived.layer()).isEqualTo(1);
            assertThat(b.terminateReceived.errorCode()).isEqualTo(0x05);
            b.stream.submit(RdmapOperation.Send.of(11, data(Bytes.pattern(4, 0))));
            assertThat(b.pump()).as("the receiver of a Terminate sends nothing more either").isZero();
        }
    }
}
