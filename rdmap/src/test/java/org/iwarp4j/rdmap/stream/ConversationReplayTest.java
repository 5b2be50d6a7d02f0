package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicCompareSwap;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicFetchAdd;
import org.iwarp4j.rdmap.stream.RdmapOperation.ImmediateData;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWriteWithImmediate;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.rdmap.stream.RecordingListener.ReceiveCompletion;
import org.iwarp4j.rdmap.stream.RecordingListener.SendCompletion;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/**
 * The golden conversations ({@code vectors/streams}) replayed through the engine in both roles: the
 * stream must produce exactly the recorded ULPDUs (every opcode of RFC 5040 and RFC 7306, the RFC 6581
 * RTRs, and the Terminate for a bad Read Request), and act correctly on the recorded ones it receives.
 */
class ConversationReplayTest {

    private static final HexFormat HEX = HexFormat.of();

    // ------------------------------------------------------------------ the RFC 5040/7306 opcode tour

    @Test
    void opcodeTourResponderProducesTheRecordedResponsesAndTerminate() {
        ConversationStream conv = GoldenVectors.stream("conv-rev1-crc-nomarkers");
        List<byte[]> in = Conversations.ulpdus(conv, Direction.I2R);
        List<byte[]> expected = Conversations.ulpdus(conv, Direction.R2I);
        try (Endpoint responder = new Endpoint(RdmapStreamConfig.defaults().withReadDepths(4, 4), 65535)) {
            TestMemory m = responder.memory;
            TestRegion writes = m.register(0x1a2b3c4d, 0x100000, 4096, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            TestRegion source = m.register(0x11223344, 0x4000, 256, EnumSet.of(REMOTE_READ), Endpoint.PD);
            byte[] readResponse = find(expected, RdmapOpcode.RDMA_READ_RESPONSE);
            source.memory.setBytes(0, readResponse, 14, readResponse.length - 14);
            TestRegion atomic = m.register(0x99aabbcc, 0, 128, EnumSet.of(REMOTE_ATOMIC), Endpoint.PD);
            atomic.memory.setLongLE(0x40, 100);
            atomic.memory.setLongLE(0x48, 0x64);
            TestRegion inv1 = m.register(0x5e6f7081, 0, 16, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            TestRegion inv2 = m.register(0x0badcafe, 0, 16, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            List<ByteBuf> receives = new ArrayList<>();
            for (int i = 1; i <= 6; i++) {
                receives.add(responder.postReceive(i, 64));
            }
            byte[] hi = expected.get(0);
            responder.stream.submit(Send.of(100, Endpoint.data(Arrays.copyOfRange(hi, 18, hi.length))));

            List<byte[]> produced = new ArrayList<>(Conversations.drain(responder));
            for (byte[] ulpdu : in) {
                responder.stream.receive(Conversations.segment(ulpdu));
                produced.addAll(Conversations.drain(responder));
            }

            assertThat(hex(produced)).containsExactlyElementsOf(hex(expected));
            RecordingListener l = responder.listener;
            assertThat(l.receives).extracting(ReceiveCompletion::opcode).containsExactly(RdmapOpcode.SEND,
                    RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SE, RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE,
                    RdmapOpcode.IMMEDIATE_DATA, RdmapOpcode.IMMEDIATE_DATA_WITH_SE);
            assertThat(l.receives.get(0).length()).isEqualTo(13);
            assertThat(receives.get(0).toString(0, 13, StandardCharsets.US_ASCII))
                    .isEqualTo("Hello, iWARP!");
            assertThat(l.receives.get(1).invalidatedStag()).isEqualTo(0x5e6f7081);
            assertThat(l.receives.get(3).invalidatedStag()).isEqualTo(0x0badcafe);
            assertThat(inv1.isValid()).isFalse();
            assertThat(inv2.isValid()).isFalse();
            assertThat(l.receives.get(4).immediate()).isEqualTo(0x0123456789abcdefL);
            assertThat(l.receives.get(5).immediate()).isEqualTo(0xfedcba9876543210L);
            assertThat(writes.memory.getByte(0x3f)).isEqualTo((byte) 0x3f); // fpdu-rdma-write payload 00..3f
            assertThat(atomic.memory.getLongLE(0x40)).isEqualTo(105);
            assertThat(atomic.memory.getLongLE(0x48)).isEqualTo(0x1111111111111111L);
            assertThat(responder.stream.terminateSent().cause()).isEqualTo(TerminateCause.RDMAP_INVALID_STAG);
            assertThat(responder.stream.state()).isEqualTo(RdmapStreamState.ERROR);
            assertThat(l.sends)
                    .containsExactly(new SendCompletion(100, OperationType.SEND, OperationStatus.SUCCESS, 12, 0));
        }
    }

    @Test
    void opcodeTourRequesterProducesTheRecordedRequestsAndCompletesFromTheResponses() {
        ConversationStream conv = GoldenVectors.stream("conv-rev1-crc-nomarkers");
        List<byte[]> expected = Conversations.ulpdus(conv, Direction.I2R);
        List<byte[]> responses = Conversations.ulpdus(conv, Direction.R2I);
        try (Endpoint initiator = new Endpoint(RdmapStreamConfig.defaults().withReadDepths(4, 4), 65535)) {
            TestRegion sink = initiator.memory.register(0x0a0b0c0d, 0x2000, 8192, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            ByteBuf receive = initiator.postReceive(500, 64);
            List<RdmapOperation> ops = operationsFrom(expected);
            for (RdmapOperation op : ops) {
                initiator.stream.submit(op);
            }
            assertThat(hex(Conversations.drain(initiator))).containsExactlyElementsOf(hex(expected));
            assertThat(initiator.stream.outstandingRequests()).isEqualTo(4);

            for (byte[] ulpdu : responses) {
                initiator.stream.receive(Conversations.segment(ulpdu));
            }
            byte[] readResponse = find(responses, RdmapOpcode.RDMA_READ_RESPONSE);
            assertThat(Arrays.copyOfRange(sink.bytes(), 0, readResponse.length - 14))
                    .isEqualTo(Arrays.copyOfRange(readResponse, 14, readResponse.length));
            RecordingListener l = initiator.listener;
            assertThat(l.receives).containsExactly(new ReceiveCompletion(500, OperationStatus.SUCCESS, RdmapOpcode.SEND,
                    12, 0, 0));
            assertThat(receive.toString(0, 12, StandardCharsets.US_ASCII)).isEqualTo("Hi initiator");
            assertThat(l.terminatesReceived).hasSize(1);
            assertThat(l.terminatesReceived.get(0).cause()).isEqualTo(TerminateCause.RDMAP_INVALID_STAG);
            assertThat(initiator.stream.state()).isEqualTo(RdmapStreamState.ERROR);
            // every operation completes in order; the peer's Terminate copied the last Read Request's header
            assertThat(l.sends).extracting(SendCompletion::id)
                    .containsExactlyElementsOf(ops.stream().map(RdmapOperation::workRequestId).toList());
            assertThat(l.sends.subList(0, l.sends.size() - 1)).extracting(SendCompletion::status)
                    .containsOnly(OperationStatus.SUCCESS);
            assertThat(l.sends.get(l.sends.size() - 1).status()).isEqualTo(OperationStatus.REMOTE_ACCESS_ERROR);
            assertThat(l.sends).filteredOn(s -> s.type() == OperationType.ATOMIC_FETCH_ADD)
                    .extracting(SendCompletion::original).containsExactly(100L);
            assertThat(l.sends).filteredOn(s -> s.type() == OperationType.ATOMIC_COMPARE_SWAP)
                    .extracting(SendCompletion::original).containsExactly(0x64L);
            assertThat(initiator.llp.pending()).isZero(); // nothing sent in answer to a Terminate
        }
    }

    /** The operations that produce the recorded requests (Write + Immediate Data = Write with Immediate). */
    private static List<RdmapOperation> operationsFrom(List<byte[]> ulpdus) {
        List<RdmapOperation> ops = new ArrayList<>();
        long id = 1;
        for (int i = 0; i < ulpdus.size(); i++) {
            ByteBuffer u = ByteBuffer.wrap(ulpdus.get(i));
            RdmapOpcode op = RdmapOpcode.fromCode(u.get(1) & 0x0F);
            byte[] payload18 = Arrays.copyOfRange(ulpdus.get(i), Math.min(18, u.capacity()), u.capacity());
            switch (op) {
                case RDMA_WRITE -> {
                    byte[] data = Arrays.copyOfRange(ulpdus.get(i), 14, u.capacity());
                    boolean withImmediate = i + 1 < ulpdus.size()
                            && RdmapOpcode.fromCode(ulpdus.get(i + 1)[1] & 0x0F) == RdmapOpcode.IMMEDIATE_DATA;
                    if (withImmediate) {
                        long imm = ByteBuffer.wrap(ulpdus.get(i + 1)).getLong(18);
                        ops.add(new RdmaWriteWithImmediate(id++, u.getInt(2), u.getLong(6), Endpoint.data(data), imm,
                                false, false));
                        i++;
                    } else {
                        ops.add(new RdmaWrite(id++, u.getInt(2), u.getLong(6), Endpoint.data(data), false));
                    }
                }
                case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE ->
                        ops.add(new Send(id++, Endpoint.data(payload18), op.solicitedEvent(),
                                op.carriesInvalidateStag(), u.getInt(2), false));
                case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE ->
                        ops.add(new ImmediateData(id++, u.getLong(18), op.solicitedEvent(), false));
                case RDMA_READ_REQUEST -> ops.add(new RdmaRead(id++, u.getInt(18), u.getLong(22),
                        Integer.toUnsignedLong(u.getInt(30)), u.getInt(34), u.getLong(38), false));
                case ATOMIC_REQUEST -> {
                    if ((u.getInt(18) & 0xF) == 0) {
                        ops.add(new AtomicFetchAdd(id++, u.getInt(26), u.getLong(30), u.getLong(38), u.getLong(46),
                                false));
                    } else {
                        ops.add(new AtomicCompareSwap(id++, u.getInt(26), u.getLong(30), u.getLong(54), u.getLong(62),
                                u.getLong(38), u.getLong(46), false));
                    }
                }
                default -> throw new IllegalStateException("unexpected request " + op);
            }
        }
        return ops;
    }

    // ------------------------------------------------------------------ RFC 6581 peer-to-peer RTRs

    @Test
    void readRtrConversation() {
        replayRtr("conv-rev2-p2p-read-rtr", RtrType.READ);
    }

    @Test
    void sendRtrConversation() {
        replayRtr("conv-rev2-p2p-send-rtr", RtrType.SEND);
    }

    @Test
    void writeRtrConversation() {
        replayRtr("conv-rev2-p2p-write-rtr", RtrType.WRITE);
    }

    @Test
    void clientServerConversation() {
        replayRtr("conv-rev2-client-server", null);
    }

    /**
     * Initiator: RTR first [MPA-74, MPA-75], then its Sends; responder: answers a Read RTR with a
     * zero-length Read Response, absorbs a Send RTR without consuming a user receive, then its Sends.
     */
    private static void replayRtr(String name, RtrType rtr) {
        ConversationStream conv = GoldenVectors.stream(name);
        List<byte[]> i2r = Conversations.ulpdus(conv, Direction.I2R);
        List<byte[]> r2i = Conversations.ulpdus(conv, Direction.R2I);
        try (Endpoint initiator = Endpoint.create(); Endpoint responder = Endpoint.create()) {
            // initiator side
            initiator.postReceive(1, 64);
            if (rtr != null) {
                initiator.stream.sendRtr(rtr);
            }
            for (byte[] u : i2r) {
                if (isUserSend(u, rtr, i2r)) {
                    initiator.stream.submit(Send.of(10, Endpoint.data(Arrays.copyOfRange(u, 18, u.length))));
                }
            }
            assertThat(hex(Conversations.drain(initiator))).containsExactlyElementsOf(hex(i2r));
            if (rtr != null) {
                assertThat(initiator.listener.rtrsSent).containsExactly(rtr);
            }

            // responder side
            if (rtr != null) {
                responder.stream.expectRtr(rtr);
            }
            responder.postReceive(2, 64);
            for (byte[] u : r2i) {
                if (RdmapOpcode.fromCode(u[1] & 0xF) == RdmapOpcode.SEND) {
                    responder.stream.submit(Send.of(20, Endpoint.data(Arrays.copyOfRange(u, 18, u.length))));
                }
            }
            List<byte[]> produced = new ArrayList<>(Conversations.drain(responder));
            for (byte[] u : i2r) {
                responder.stream.receive(Conversations.segment(u));
                produced.addAll(Conversations.drain(responder));
            }
            assertThat(hex(produced)).containsExactlyInAnyOrderElementsOf(hex(r2i));
            if (rtr != null) {
                assertThat(responder.listener.rtrsReceived).containsExactly(rtr);
            }
            long userSends = i2r.stream().filter(u -> isUserSend(u, rtr, i2r)).count();
            assertThat(responder.listener.receives).hasSize((int) userSends); // the Send RTR used no user receive

            for (byte[] u : r2i) {
                initiator.stream.receive(Conversations.segment(u));
            }
            assertThat(initiator.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
            assertThat(initiator.stream.outstandingRequests()).isZero(); // the Read RTR was answered
            assertThat(initiator.listener.sends).allMatch(s -> s.status() == OperationStatus.SUCCESS);
        }
    }

    private static boolean isUserSend(byte[] u, RtrType rtr, List<byte[]> all) {
        boolean send = (u[0] & 0x80) == 0 && RdmapOpcode.fromCode(u[1] & 0xF) == RdmapOpcode.SEND;
        return send && !(rtr == RtrType.SEND && u == all.get(0));
    }

    private static byte[] find(List<byte[]> ulpdus, RdmapOpcode opcode) {
        return ulpdus.stream().filter(u -> (u[1] & 0xF) == opcode.code()).findFirst().orElseThrow();
    }

    private static List<String> hex(List<byte[]> list) {
        return list.stream().map(HEX::formatHex).toList();
    }
}
