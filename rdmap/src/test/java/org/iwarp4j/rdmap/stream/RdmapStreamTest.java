package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicCompareSwap;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicFetchAdd;
import org.iwarp4j.rdmap.stream.RdmapOperation.ImmediateData;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWriteWithImmediate;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.rdmap.stream.RecordingListener.ReceiveCompletion;
import org.iwarp4j.rdmap.stream.RecordingListener.SendCompletion;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;

/** Operations end to end between two streams joined directly (no MPA), RFC 5040 §5 and RFC 7306 §5/§6. */
class RdmapStreamTest {

    @Test
    void rdmaWriteIsPlacedAndCompletesOnlyWhenTheLowerLayerTookIt() {
        try (Pair p = Pair.create()) {
            TestRegion sink =
                    p.b.memory.register(0x1000, 0x10000, 4096, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            byte[] data = Endpoint.pattern(3000, 1);
            p.a.llp.mulpdu = 1500;
            p.a.stream.submit(new RdmaWrite(7, 0x1000, 0x10100, Endpoint.data(data), false));
            int segments = 0;
            while (p.a.stream.writeNextSegment()) {
                segments++;
            }
            assertThat(segments).isEqualTo(3); // 3000 octets at 1486 per segment
            // RFC 5040 §5.5 [RDMAP-21]: not complete before the lower layer took the last segment
            p.a.stream.segmentsWritten(2);
            assertThat(p.a.listener.sends).isEmpty();
            p.a.stream.segmentsWritten(1);
            assertThat(p.a.listener.sends).containsExactly(
                    new SendCompletion(7, OperationType.RDMA_WRITE, OperationStatus.SUCCESS, 3000, 0));
            p.run();
            assertThat(Arrays.copyOfRange(sink.bytes(), 0x100, 0x100 + 3000)).isEqualTo(data);
            assertThat(sink.bytes()[0xFF]).isZero();
            assertThat(p.b.listener.writesPlaced).isEqualTo(1);
            assertThat(p.b.listener.receives).isEmpty(); // RFC 5040 §5.1: not delivered to the ULP
        }
    }

    @Test
    void rdmaReadFetchesRemoteMemoryAcrossSegments() {
        try (Pair p = Pair.create()) {
            p.b.llp.mulpdu = 128;
            byte[] remote = Endpoint.pattern(1000, 3);
            TestRegion source = p.b.memory.register(0x2000, 0x4000, 1024, EnumSet.of(REMOTE_READ), Endpoint.PD);
            source.memory.setBytes(10, remote);
            TestRegion sink = p.a.memory.register(0x3000, 0, 2048, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            p.a.stream.submit(new RdmaRead(1, 0x3000, 100, 1000, 0x2000, 0x4000 + 10, false));
            p.run();
            assertThat(Arrays.copyOfRange(sink.bytes(), 100, 1100)).isEqualTo(remote);
            assertThat(p.a.listener.sends).containsExactly(
                    new SendCompletion(1, OperationType.RDMA_READ, OperationStatus.SUCCESS, 1000, 0));
            assertThat(p.b.listener.readRequests).isEqualTo(1);
            assertThat(p.a.stream.outstandingRequests()).isZero();
            assertThat(p.b.stream.pendingInboundRequests()).isZero();
        }
    }

    /** One Read Response segment as the LLP saw it: where its payload buffer points (-1: copied inline), its data. */
    private record ResponseSegment(long payloadAddress, byte[] data) {}

    /** The segments a Read Request of {@code length} octets draws at {@code mulpdu}. */
    private static List<ResponseSegment> readResponseSegments(int length, int mulpdu,
            Consumer<TestRegion> afterFirstSegment, long[] regionBase) {
        List<ResponseSegment> segments = new ArrayList<>();
        int ddpHeader = 14; // RFC 5041 §4.3: a tagged DDP header; a Read Response has no RDMAP header of its own
        LlpSegmentWriter inspecting = new LlpSegmentWriter() {
            @Override
            public int mulpdu() {
                return mulpdu;
            }

            @Override
            public void writeSegment(ByteBuf header, ByteBuf payload) {
                byte[] inHeader = new byte[header.readableBytes() - ddpHeader];
                header.getBytes(header.readerIndex() + ddpHeader, inHeader);
                byte[] data = new byte[inHeader.length + payload.readableBytes()];
                System.arraycopy(inHeader, 0, data, 0, inHeader.length);
                payload.getBytes(payload.readerIndex(), data, inHeader.length, payload.readableBytes());
                segments.add(new ResponseSegment(payload.isReadable() ? payload.memoryAddress()
                        + payload.readerIndex() : -1, data));
                header.release();
                payload.release();
            }
        };
        try (Endpoint e = new Endpoint(RdmapStreamConfig.defaults(), inspecting,
                new LockingAtomicExecutor())) {
            TestRegion source = e.memory.register(0x2000, 0x4000, 2048, EnumSet.of(REMOTE_READ), Endpoint.PD);
            source.memory.setBytes(0, Endpoint.pattern(2048, 5));
            regionBase[0] = source.memory.memoryAddress();
            e.stream.receive(Conversations.segment(Ulpdus.readRequest(1, 0x5, 0, length, 0x2000, 0x4000 + 100)));
            e.stream.writeNextSegment();
            afterFirstSegment.accept(source);
            while (e.stream.writeNextSegment()) {
                // pull every segment
            }
        }
        return segments;
    }

    @Test
    void largeReadResponsePayloadsAreSlicesOfTheRegisteredMemory() {
        // zero-copy above both copy limits: each segment's payload is a retained slice of the source region
        int perSegment = 600 - 14;
        assertThat(perSegment).isGreaterThan(OutboundMessage.INLINE_PAYLOAD_LIMIT);
        long[] region = new long[1];
        List<ResponseSegment> segments = readResponseSegments(3 * perSegment, 600, r -> { }, region);
        assertThat(segments).hasSize(3);
        byte[] memory = Endpoint.pattern(2048, 5);
        for (int k = 0; k < 3; k++) {
            assertThat(segments.get(k).payloadAddress()).isEqualTo(region[0] + 100 + (long) perSegment * k);
            assertThat(segments.get(k).data()).isEqualTo(Arrays.copyOfRange(memory, 100 + perSegment * k,
                    100 + perSegment * (k + 1)));
        }
    }

    @Test
    void smallReadResponsesAreCopiedWhenTheResponseStarts() {
        // up to the limit the response is a copy taken at its start: no payload in the region, and a change of
        // the memory after the first segment does not reach the later ones
        long[] region = new long[1];
        byte[] before = Endpoint.pattern(2048, 5);
        List<ResponseSegment> segments = readResponseSegments(Responder.COPIED_RESPONSE_LIMIT, 200,
                r -> r.memory.setZero(0, 2048), region);
        assertThat(segments).hasSize(3); // 512 octets: 186, 186, 140
        int at = 100;
        for (ResponseSegment seg : segments) {
            long a = seg.payloadAddress();
            assertThat(a == -1 || a < region[0] || a >= region[0] + 2048).as("payload outside the region").isTrue();
            assertThat(seg.data()).isEqualTo(Arrays.copyOfRange(before, at, at + seg.data().length));
            at += seg.data().length;
        }
        assertThat(at).isEqualTo(100 + Responder.COPIED_RESPONSE_LIMIT);
    }

    @Test
    void zeroLengthReadIsNotValidatedAndGetsAZeroLengthResponse() {
        try (Pair p = Pair.create()) {
            // RFC 5040 §5.2.1 [RDMAP-14]: no STag exists at b, still a valid zero-length response
            p.a.stream.submit(new RdmaRead(9, 0x777, 0, 0, 0xdead, 0xbeef, false));
            p.run();
            assertThat(p.a.listener.sends).containsExactly(
                    new SendCompletion(9, OperationType.RDMA_READ, OperationStatus.SUCCESS, 0, 0));
            assertThat(p.b.listener.terminatesSent).isEmpty();
        }
    }

    @Test
    void sendsAreDeliveredInOrderWithTheirLengthAndSolicitedFlag() {
        try (Pair p = Pair.create()) {
            ByteBuf r1 = p.b.postReceive(101, 64);
            ByteBuf r2 = p.b.postReceive(102, 64);
            ByteBuf r3 = p.b.postReceive(103, 64);
            p.a.stream.submit(Send.of(1, Endpoint.data("first".getBytes())));
            p.a.stream.submit(new Send(2, Endpoint.data("second!".getBytes()), true, false, 0, false));
            p.a.stream.submit(Send.of(3, Endpoint.data(new byte[0])));
            p.run();
            assertThat(p.b.listener.receives).containsExactly(
                    new ReceiveCompletion(101, OperationStatus.SUCCESS, RdmapOpcode.SEND, 5, 0, 0),
                    new ReceiveCompletion(102, OperationStatus.SUCCESS, RdmapOpcode.SEND_WITH_SE, 7, 0, 0),
                    new ReceiveCompletion(103, OperationStatus.SUCCESS, RdmapOpcode.SEND, 0, 0, 0));
            assertThat(r1.toString(0, 5, StandardCharsets.US_ASCII)).isEqualTo("first");
            assertThat(r2.toString(0, 7, StandardCharsets.US_ASCII)).isEqualTo("second!");
            assertThat(r3.getByte(0)).isZero();
            assertThat(p.a.listener.sends).extracting(SendCompletion::id).containsExactly(1L, 2L, 3L);
            assertThat(p.a.listener.sends).extracting(SendCompletion::type)
                    .containsExactly(OperationType.SEND, OperationType.SEND_WITH_SE, OperationType.SEND);
        }
    }

    @Test
    void sendWithInvalidateInvalidatesTheNamedStag() {
        try (Pair p = Pair.create()) {
            TestRegion region =
                    p.b.memory.register(0x5e6f7081, 0, 64, EnumSet.of(REMOTE_WRITE, LOCAL_WRITE), Endpoint.PD);
            p.b.postReceive(1, 16);
            p.b.postReceive(2, 16);
            p.a.stream.submit(Send.withInvalidate(11, Endpoint.data("inv!".getBytes()), 0x5e6f7081));
            p.a.stream.submit(new Send(12, Endpoint.data(new byte[0]), true, true, 0x5e6f7081, false));
            p.run();
            // RFC 5040 §5.3 [RDMAP-18]: invalidated before the completion; a second invalidation of the now
            // invalid STag is an error (it is no longer valid), so only the first is delivered
            assertThat(region.isValid()).isFalse();
            assertThat(p.b.listener.receives.get(0))
                    .isEqualTo(new ReceiveCompletion(1, OperationStatus.SUCCESS, RdmapOpcode.SEND_WITH_INVALIDATE, 4,
                            0x5e6f7081, 0));
            assertThat(p.b.listener.receives.get(1).status()).isEqualTo(OperationStatus.LOCAL_ERROR);
            assertThat(p.b.listener.terminatesSent).hasSize(1);
        }
    }

    @Test
    void immediateDataArrivesInTheCompletionEvenWithAZeroLengthReceive() {
        try (Pair p = Pair.create()) {
            ByteBuf r = p.b.postReceive(5, 0);
            p.b.postReceive(6, 8);
            p.a.stream.submit(new ImmediateData(1, 0x0123456789abcdefL, false, false));
            p.a.stream.submit(new ImmediateData(2, 0xfedcba9876543210L, true, false));
            p.run();
            assertThat(p.b.listener.receives).containsExactly(
                    new ReceiveCompletion(5, OperationStatus.SUCCESS, RdmapOpcode.IMMEDIATE_DATA, 0, 0,
                            0x0123456789abcdefL),
                    new ReceiveCompletion(6, OperationStatus.SUCCESS, RdmapOpcode.IMMEDIATE_DATA_WITH_SE, 0, 0,
                            0xfedcba9876543210L));
            assertThat(r.capacity()).isZero();
            assertThat(p.a.listener.sends).extracting(SendCompletion::status)
                    .containsOnly(OperationStatus.SUCCESS);
        }
    }

    @Test
    void rdmaWriteWithImmediateIsOneOperationOfTwoMessages() {
        try (Pair p = Pair.create()) {
            TestRegion sink = p.b.memory.register(0x1a2b3c4d, 0x100000, 256, EnumSet.of(REMOTE_WRITE), Endpoint.PD);
            p.b.postReceive(77, 0);
            byte[] data = "written-before-i".getBytes();
            p.a.stream.submit(new RdmaWriteWithImmediate(3, 0x1a2b3c4d, 0x100040, Endpoint.data(data), 42L, false,
                    false));
            p.run();
            assertThat(Arrays.copyOfRange(sink.bytes(), 0x40, 0x50)).isEqualTo(data);
            assertThat(p.b.listener.receives).containsExactly(
                    new ReceiveCompletion(77, OperationStatus.SUCCESS, RdmapOpcode.IMMEDIATE_DATA, 0, 0, 42L));
            assertThat(p.a.listener.sends).containsExactly(
                    new SendCompletion(3, OperationType.RDMA_WRITE_WITH_IMMEDIATE, OperationStatus.SUCCESS, 16, 0));
        }
    }

    @Test
    void atomicsModifyLittleEndianMemoryAndReturnTheOriginal() {
        try (Pair p = Pair.create()) {
            TestRegion target = p.b.memory.register(0x99aabbcc, 0, 128, EnumSet.of(REMOTE_ATOMIC), Endpoint.PD);
            target.memory.setLongLE(0x40, 100);
            target.memory.setLongLE(0x48, 0x64);
            p.a.stream.submit(new AtomicFetchAdd(1, 0x99aabbcc, 0x40, 5, 0, false));
            p.a.stream.submit(new AtomicCompareSwap(2, 0x99aabbcc, 0x48, 0x64, -1L, 0x1111111111111111L, -1L, false));
            p.a.stream.submit(new AtomicCompareSwap(3, 0x99aabbcc, 0x48, 0x64, -1L, 0x2222L, -1L, false));
            // masked FetchAdd: two 32-bit counters in one word
            p.a.stream.submit(new AtomicFetchAdd(4, 0x99aabbcc, 0x50, 0x0000_0001_0000_0001L, 0x8000_0000_8000_0000L,
                    false));
            target.memory.setLongLE(0x50, 0x0000_0005_FFFF_FFFFL);
            p.run();
            assertThat(p.a.listener.sends).containsExactly(
                    new SendCompletion(1, OperationType.ATOMIC_FETCH_ADD, OperationStatus.SUCCESS, 8, 100),
                    new SendCompletion(2, OperationType.ATOMIC_COMPARE_SWAP, OperationStatus.SUCCESS, 8, 0x64),
                    new SendCompletion(3, OperationType.ATOMIC_COMPARE_SWAP, OperationStatus.SUCCESS, 8,
                            0x1111111111111111L),
                    new SendCompletion(4, OperationType.ATOMIC_FETCH_ADD, OperationStatus.SUCCESS, 8,
                            0x0000_0005_FFFF_FFFFL));
            assertThat(target.memory.getLongLE(0x40)).isEqualTo(105);
            assertThat(target.memory.getLongLE(0x48)).isEqualTo(0x1111111111111111L); // third compare failed
            assertThat(target.memory.getLongLE(0x50)).isEqualTo(0x0000_0006_0000_0000L);
            assertThat(p.b.listener.atomicRequests).isEqualTo(4);
        }
    }

    @Test
    void completionsAreReportedInSubmissionOrder() {
        try (Pair p = Pair.create()) {
            p.b.memory.register(0x10, 0, 64, EnumSet.of(REMOTE_READ), Endpoint.PD);
            p.a.memory.register(0x20, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            p.b.postReceive(1, 16);
            p.a.stream.submit(new RdmaRead(100, 0x20, 0, 32, 0x10, 0, false));
            p.a.stream.submit(Send.of(101, Endpoint.data("x".getBytes())));
            // transmit both and acknowledge them, but deliver nothing yet: the Send is done, the Read not
            p.a.flush();
            assertThat(p.a.listener.sends).isEmpty(); // [RDMAP-22] the Send waits for the earlier Read
            Pair.transfer(p.a, p.b);
            p.run();
            assertThat(p.a.listener.sends).extracting(SendCompletion::id).containsExactly(100L, 101L);
        }
    }

    @Test
    void ordLimitsOutstandingReadsAndAtomicsAndStallsTheQueue() {
        RdmapStreamConfig config = RdmapStreamConfig.defaults().withReadDepths(16, 1);
        try (Pair p = new Pair(new Endpoint(config, 1500), Endpoint.create())) {
            p.b.memory.register(0x10, 0, 64, EnumSet.of(REMOTE_READ, REMOTE_ATOMIC), Endpoint.PD);
            p.a.memory.register(0x20, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            p.b.postReceive(1, 8);
            p.a.stream.submit(new RdmaRead(1, 0x20, 0, 8, 0x10, 0, false));
            p.a.stream.submit(new AtomicFetchAdd(2, 0x10, 8, 1, 0, false));
            p.a.stream.submit(Send.of(3, Endpoint.data(new byte[] {1})));
            assertThat(p.a.flush()).isEqualTo(1); // only the Read Request: the Atomic waits (ORD 1), the Send behind it
            assertThat(p.a.stream.outstandingRequests()).isEqualTo(1);
            assertThat(p.a.stream.hasPendingTransmit()).isFalse();
            Pair.transfer(p.a, p.b);
            Pair.transfer(p.b, p.a); // Read Response arrives: the slot is free again
            // the Atomic Request now takes the ORD slot, and the Send behind it may go (it needs no slot)
            assertThat(p.a.flush()).isEqualTo(2);
            assertThat(p.a.stream.outstandingRequests()).isEqualTo(1);
            p.run();
            assertThat(p.a.listener.sends).extracting(SendCompletion::id).containsExactly(1L, 2L, 3L);
            assertThat(p.b.listener.receives).hasSize(1);
        }
    }

    @Test
    void fenceWaitsForEarlierReads() {
        try (Pair p = Pair.create()) {
            p.b.memory.register(0x10, 0, 64, EnumSet.of(REMOTE_READ, REMOTE_WRITE), Endpoint.PD);
            p.a.memory.register(0x20, 0, 64, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            p.a.stream.submit(new RdmaRead(1, 0x20, 0, 8, 0x10, 0, false));
            p.a.stream.submit(new RdmaWrite(2, 0x10, 8, Endpoint.data(new byte[] {9}), true));
            assertThat(p.a.flush()).isEqualTo(1);
            assertThat(p.a.stream.hasPendingTransmit()).isFalse();
            Pair.transfer(p.a, p.b);
            Pair.transfer(p.b, p.a);
            assertThat(p.a.flush()).isEqualTo(1); // the fenced Write goes once the Read completed
        }
    }

    @Test
    void responderOfferingSeveralRtrTypesNeverLosesAUserReceive() {
        // RFC 6581 §9.2 [MPA-72]: the Reply may allow several RTR types, the initiator picks one
        for (RtrType chosen : RtrType.values()) {
            try (Pair p = Pair.create()) {
                p.b.stream.expectRtr(EnumSet.allOf(RtrType.class));
                ByteBuf r1 = p.b.postReceive(1, 16);
                p.b.postReceive(2, 16);
                p.a.stream.sendRtr(chosen);
                p.a.stream.submit(Send.of(7, Endpoint.data("first".getBytes())));
                p.run();
                assertThat(p.b.listener.rtrsReceived).as(chosen.name()).containsExactly(chosen);
                assertThat(p.b.listener.receives).as(chosen.name()).containsExactly(
                        new ReceiveCompletion(1, OperationStatus.SUCCESS, RdmapOpcode.SEND, 5, 0, 0));
                assertThat(r1.toString(0, 5, StandardCharsets.US_ASCII)).isEqualTo("first");
                assertThat(p.a.listener.rtrsSent).containsExactly(chosen);
                assertThat(p.a.listener.sends).containsExactly(
                        new SendCompletion(7, OperationType.SEND, OperationStatus.SUCCESS, 5, 0));
            }
        }
    }

    @Test
    void rtrMustBeTheFirstMessage() {
        try (Endpoint e = Endpoint.create()) {
            e.stream.submit(Send.of(1, Endpoint.data(new byte[1])));
            assertThatThrownBy(() -> e.stream.sendRtr(RtrType.WRITE)).isInstanceOf(IllegalStateException.class);
        }
        try (Endpoint e = Endpoint.create()) {
            e.postReceive(1, 1);
            assertThatThrownBy(() -> e.stream.expectRtr(RtrType.SEND)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void invalidSubmissionsAreRefusedWithoutHarmingTheStream() {
        RdmapStreamConfig plain = RdmapStreamConfig.defaults().withRfc7306(false);
        try (Endpoint e = new Endpoint(plain, 1500)) {
            ByteBuf data = Endpoint.data(new byte[4]);
            assertThatThrownBy(() -> e.stream.submit(new RdmaWriteWithImmediate(1, 1, 0, data, 0, false, false)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(data.refCnt()).isZero(); // ownership taken even on failure
            assertThatThrownBy(() -> e.stream.submit(new AtomicFetchAdd(1, 1, 0, 1, 0, false)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> e.stream.submit(new RdmaRead(1, 0x20, 0, 8, 0x10, 0, false)))
                    .hasMessageContaining("sink");
            assertThat(e.stream.state()).isEqualTo(RdmapStreamState.OPERATIONAL);
        }
        try (Endpoint e = Endpoint.create()) {
            assertThatThrownBy(() -> e.stream.submit(new AtomicFetchAdd(1, 1, 0x44, 1, 0, false)))
                    .hasMessageContaining("aligned");
            assertThatThrownBy(() -> e.stream.submit(new RdmaRead(1, 1, 0, 1L << 32, 2, 0, false)))
                    .hasMessageContaining("2^32");
        }
        try (Endpoint e = new Endpoint(RdmapStreamConfig.defaults().withReadDepths(4, 0), 1500)) {
            assertThatThrownBy(() -> e.stream.submit(new RdmaRead(1, 1, 0, 0, 2, 0, false)))
                    .hasMessageContaining("ORD");
        }
    }

    @Test
    void sendQueueDepthIsEnforced() {
        RdmapStreamConfig config = RdmapStreamConfig.defaults().withQueueDepths(2, 2);
        try (Endpoint e = new Endpoint(config, 1500)) {
            e.stream.submit(Send.of(1, Endpoint.data(new byte[1])));
            e.stream.submit(Send.of(2, Endpoint.data(new byte[1])));
            ByteBuf third = Endpoint.data(new byte[1]);
            assertThatThrownBy(() -> e.stream.submit(Send.of(3, third))).isInstanceOf(IllegalStateException.class);
            assertThat(third.refCnt()).isZero();
            e.postReceive(1, 1);
            e.postReceive(2, 1);
            assertThatThrownBy(() -> e.postReceive(3, 1)).isInstanceOf(IllegalStateException.class);
        }
    }
}
