package org.iwarp4j.ddp.send;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.testing.CapturingLlp;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RFC 5041 §5.2 segmentation, segment by segment. */
class SegmentationTest {

    private final CapturingLlp llp = new CapturingLlp(1500);
    private final DdpSender sender = new DdpSender(llp, ByteBufAllocator.DEFAULT, 4);

    private static TaggedHeaderFlyweight tagged(byte[] segment) {
        return new TaggedHeaderFlyweight().wrap(Unpooled.wrappedBuffer(segment), 0);
    }

    private static UntaggedHeaderFlyweight untagged(byte[] segment) {
        return new UntaggedHeaderFlyweight().wrap(Unpooled.wrappedBuffer(segment), 0);
    }

    @Test
    void rfcExampleUntagged2048OctetsMulpdu1500() {
        // RFC 5041 §5.2 example: MO 0 with 1482 octets (L=0), then MO 1482 with 566 octets (L=1).
        byte[] message = Bytes.pattern(2048, 3);
        sender.untagged(0, 0x43, 0, Bytes.pooled(message)).writeAll();
        assertThat(llp.segments).hasSize(2);
        UntaggedHeaderFlyweight h1 = untagged(llp.segments.get(0));
        UntaggedHeaderFlyweight h2 = untagged(llp.segments.get(1));
        assertThat(llp.segments.get(0)).hasSize(1500);
        assertThat(llp.segments.get(1)).hasSize(18 + 566);
        assertThat(h1.control()).isEqualTo(0x01);
        assertThat(h2.control()).isEqualTo(0x41);
        assertThat(h1.messageOffset()).isZero();
        assertThat(h2.messageOffset()).isEqualTo(1482);
        assertThat(h1.queueNumber()).isZero();
        assertThat(h2.queueNumber()).isZero();
        assertThat(h1.messageSequenceNumber()).isEqualTo(1);
        assertThat(h2.messageSequenceNumber()).isEqualTo(1);
        assertThat(h1.rsvdUlp()).isEqualTo(0x43);
        assertThat(h2.rsvdUlp()).isEqualTo(0x43);
        assertThat(Arrays.copyOfRange(llp.segments.get(0), 18, 1500)).isEqualTo(Arrays.copyOfRange(message, 0, 1482));
        assertThat(Arrays.copyOfRange(llp.segments.get(1), 18, 584)).isEqualTo(Arrays.copyOfRange(message, 1482, 2048));
    }

    @Test
    void rfcExampleTagged2048OctetsFromTo16384() {
        // RFC 5041 §5.2 example: TO 16384 with 1486 octets (L=0), then TO 17870 with 562 octets (L=1).
        sender.tagged(0x40, 0x1234, 16384, Bytes.pooled(Bytes.pattern(2048, 9))).writeAll();
        assertThat(llp.segments).hasSize(2);
        assertThat(llp.segments.get(0)).hasSize(1500);
        assertThat(llp.segments.get(1)).hasSize(14 + 562);
        assertThat(tagged(llp.segments.get(0)).taggedOffset()).isEqualTo(16384);
        assertThat(tagged(llp.segments.get(1)).taggedOffset()).isEqualTo(17870);
        assertThat(tagged(llp.segments.get(0)).control()).isEqualTo(0x81);
        assertThat(tagged(llp.segments.get(1)).control()).isEqualTo(0xC1);
        assertThat(tagged(llp.segments.get(1)).stag()).isEqualTo(0x1234);
    }

    @Test
    void zeroLengthMessagesAreExactlyOneSegmentWithLastSet() {
        // RFC 5041 §5.2: a zero-length message MUST use exactly one segment.
        OutboundMessage t = sender.tagged(0x40, 1, 0, Unpooled.EMPTY_BUFFER);
        assertThat(t.writeNextSegment()).isFalse();
        assertThat(t.isDone()).isTrue();
        sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER).writeAll();
        assertThat(llp.segments).hasSize(2);
        assertThat(llp.segments.get(0)).hasSize(14);
        assertThat(llp.segments.get(1)).hasSize(18);
        assertThat(tagged(llp.segments.get(0)).control()).isEqualTo(0xC1);
        assertThat(untagged(llp.segments.get(1)).control()).isEqualTo(0x41);
    }

    @Test
    void messageExactlyFillingOneSegmentIsOneSegment() {
        sender.tagged(0x40, 1, 0, Bytes.pooled(new byte[1486])).writeAll();
        assertThat(llp.segments).hasSize(1);
        assertThat(tagged(llp.segments.get(0)).last()).isTrue();
    }

    @Test
    void mulpduChangeAppliesFromTheNextSegment() {
        OutboundMessage m = sender.untagged(0, 0x43, 0, Bytes.pooled(Bytes.pattern(3000, 1)));
        assertThat(m.writeNextSegment()).isTrue();
        llp.mulpdu = 218;
        while (m.writeNextSegment()) {
            // drain
        }
        assertThat(llp.segments.get(0)).hasSize(1500);
        assertThat(llp.segments.subList(1, llp.segments.size()))
                .allSatisfy(s -> assertThat(s.length).isLessThanOrEqualTo(218));
        int mo = 1482;
        for (byte[] s : llp.segments.subList(1, llp.segments.size())) {
            assertThat(untagged(s).messageOffset()).isEqualTo(mo);
            mo += s.length - 18;
        }
        assertThat(mo).isEqualTo(3000);
        assertThat(untagged(llp.segments.get(llp.segments.size() - 1)).last()).isTrue();
        assertThat(llp.segments.subList(0, llp.segments.size() - 1)).noneMatch(s -> untagged(s).last());
    }

    @Test
    void smallPayloadIsCopiedNextToTheHeaderLargePayloadIsASlice() {
        byte[] readRequest = Bytes.pattern(28, 5);
        sender.untagged(1, 0x41, 0, Bytes.pooled(readRequest)).writeAll();
        sender.tagged(0x40, 7, 0, Bytes.pooled(new byte[OutboundMessage.INLINE_PAYLOAD_LIMIT + 1])).writeAll();
        assertThat(llp.headerBufferLengths).containsExactly(18 + 28, 14);
        assertThat(llp.payloadBufferLengths).containsExactly(0, OutboundMessage.INLINE_PAYLOAD_LIMIT + 1);
        assertThat(Arrays.copyOfRange(llp.segments.get(0), 18, 46)).isEqualTo(readRequest);
    }

    /**
     * Segments with short payloads taken in place by the lower layer ({@link LlpSegmentWriter#writeSegmentInPlace})
     * are octet for octet the segments written as buffers, whatever the model, length and MULPDU, also when the
     * lower layer refuses some; every message is released after its last segment either way.
     */
    @Test
    void segmentsTakenInPlaceAreTheOctetsOfSegmentsWrittenAsBuffers() {
        CapturingLlp inPlace = new CapturingLlp(1500);
        inPlace.takesInPlace = true;
        DdpSender inPlaceSender = new DdpSender(inPlace, ByteBufAllocator.DEFAULT, 4);
        java.util.Random r = new java.util.Random(17);
        for (int i = 0; i < 300; i++) {
            int size = r.nextInt(4) == 0 ? r.nextInt(3000) : r.nextInt(600);
            int mulpdu = 40 + r.nextInt(1500);
            llp.mulpdu = mulpdu;
            inPlace.mulpdu = mulpdu;
            byte[] payload = Bytes.pattern(size, i);
            ByteBuf a = Bytes.pooled(payload);
            ByteBuf b = Bytes.pooled(payload);
            if (r.nextBoolean()) {
                long to = r.nextLong() >>> 2;
                sender.tagged(0x40, i, to, a).writeAll();
                inPlaceSender.tagged(0x40, i, to, b).writeAll();
            } else {
                int qn = r.nextInt(3);
                sender.untagged(qn, 0x41 + qn, i, a).writeAll();
                inPlaceSender.untagged(qn, 0x41 + qn, i, b).writeAll();
            }
            assertThat(a.refCnt()).isZero();
            assertThat(b.refCnt()).isZero();
            inPlace.takesInPlace = r.nextInt(5) != 0; // now and then refused: the segment comes as buffers
        }
        assertThat(inPlace.segments).hasSameSizeAs(llp.segments);
        for (int i = 0; i < llp.segments.size(); i++) {
            assertThat(inPlace.segments.get(i)).as("segment %d", i).isEqualTo(llp.segments.get(i));
        }
        assertThat(inPlace.inPlaceTaken).isGreaterThan(llp.segments.size() / 3);
    }

    /**
     * A lower layer that, while it takes the last segment of a Send in place, first writes a Terminate through the
     * same sender (as a failed write may make RDMAP do), recycling the Send's message object: the Send's segment
     * still carries its own header (its queue, MSN, offset and L bit) and payload.
     */
    @Test
    void aTerminateWrittenDuringAnInPlaceWriteLeavesTheSegmentItsOwnHeader() {
        llp.takesInPlace = true;
        llp.mulpdu = 18 + 40; // two segments: 40 octets, then 24
        byte[] sendPayload = Bytes.pattern(64, 3);
        OutboundMessage send = sender.untagged(0, 0x43, 0, Bytes.pooled(sendPayload));
        boolean[] once = {false};
        llp.beforeInPlace = () -> {
            if (!send.isDone() || once[0]) {
                return; // the first segment: nothing happens
            }
            once[0] = true;
            OutboundMessage terminate = sender.untagged(2, 0x47, 0, Bytes.pooled(new byte[28]), send);
            assertThat(terminate).isSameAs(send);
            terminate.writeAll();
        };
        send.writeAll();
        assertThat(once[0]).as("the Send was finished before its last segment went to the lower layer").isTrue();
        assertThat(llp.segments).hasSize(3);
        assertThat(untagged(llp.segments.get(1)).queueNumber()).isEqualTo(2);
        UntaggedHeaderFlyweight s = untagged(llp.segments.get(2));
        assertThat(s.queueNumber()).isZero();
        assertThat(s.messageSequenceNumber()).isEqualTo(1);
        assertThat(s.messageOffset()).isEqualTo(40);
        assertThat(s.last()).isTrue();
        assertThat(s.rsvdUlp()).isEqualTo(0x43);
        assertThat(llp.segments.get(2)).hasSize(18 + 24);
        assertThat(Arrays.copyOfRange(llp.segments.get(2), 18, 18 + 24)).isEqualTo(Arrays.copyOfRange(sendPayload,
                40, 64));
    }

    @Test
    void smallPayloadFromASliceOfRegisteredMemoryIsCopiedFromItsOwnOffset() {
        byte[] memory = Bytes.pattern(200, 9);
        ByteBuf region = Bytes.pooled(memory);
        // as verbs hands it over: a retained slice of the registered memory, not starting at its index 0
        ByteBuf message = region.retainedSlice(37, 40);
        region.release();
        message.readerIndex(3); // a reader index inside the slice as well
        sender.tagged(0x40, 7, 0x100, message).writeAll();
        assertThat(llp.headerBufferLengths).containsExactly(14 + 37);
        assertThat(Arrays.copyOfRange(llp.segments.get(0), 14, 14 + 37)).isEqualTo(Arrays.copyOfRange(memory, 40, 77));
    }

    @Test
    void headerBuffersLeaveTheLowerLayersHeadroomAndTailroomAroundTheHeader() {
        List<int[]> rooms = new ArrayList<>(); // {readerIndex, writableBytes}
        List<byte[]> segments = new ArrayList<>();
        LlpSegmentWriter roomy = new LlpSegmentWriter() {
            @Override
            public int mulpdu() {
                return 200;
            }

            @Override
            public int headroom() {
                return 6;
            }

            @Override
            public int tailroom() {
                return 11;
            }

            @Override
            public void writeSegment(ByteBuf header, ByteBuf payload) {
                rooms.add(new int[] {header.readerIndex(), header.writableBytes()});
                byte[] bytes = new byte[header.readableBytes() + payload.readableBytes()];
                header.getBytes(header.readerIndex(), bytes, 0, header.readableBytes());
                payload.getBytes(payload.readerIndex(), bytes, header.readableBytes(), payload.readableBytes());
                segments.add(bytes);
                header.release();
                payload.release();
            }
        };
        DdpSender withRoom = new DdpSender(roomy, ByteBufAllocator.DEFAULT, 4);
        byte[] small = Bytes.pattern(40, 1);
        byte[] large = Bytes.pattern(300, 2);
        withRoom.untagged(0, 0x43, 0, Bytes.pooled(small)).writeAll();
        withRoom.tagged(0x40, 7, 0x1000, Bytes.pooled(large)).writeAll();
        sender.untagged(0, 0x43, 0, Bytes.pooled(small)).writeAll();
        llp.mulpdu = 200;
        sender.tagged(0x40, 7, 0x1000, Bytes.pooled(large)).writeAll();
        // the same segments, octet for octet, as without room; the room is around each header
        assertThat(segments).hasSameSizeAs(llp.segments);
        for (int i = 0; i < segments.size(); i++) {
            assertThat(segments.get(i)).isEqualTo(llp.segments.get(i));
            assertThat(rooms.get(i)[0]).isEqualTo(6);
            assertThat(rooms.get(i)[1]).isGreaterThanOrEqualTo(11);
        }
    }

    @Test
    void aDoneMessageHandedBackIsTheNextMessageWithNothingLeftOfTheOld() {
        OutboundMessage first = sender.tagged(0x40, 7, 0x1000, Bytes.pooled(Bytes.pattern(3000, 1)));
        OutboundMessage inProgress = sender.untagged(0, 0x43, 0, Bytes.pooled(Bytes.pattern(2000, 2)));
        inProgress.writeNextSegment();
        // not done (never started, or partly written): never reused, whatever the caller says
        OutboundMessage other = sender.tagged(0x40, 8, 0, Bytes.pooled(Bytes.pattern(10, 3)), first);
        assertThat(other).isNotSameAs(first);
        other.abandon();
        OutboundMessage another = sender.tagged(0x40, 8, 0, Bytes.pooled(Bytes.pattern(10, 3)), inProgress);
        assertThat(another).isNotSameAs(inProgress);
        another.abandon();
        inProgress.abandon();
        first.writeAll();
        OutboundMessage again = sender.untagged(1, 0x41, 0, Bytes.pooled(Bytes.pattern(28, 4)), first);
        assertThat(again).isSameAs(first);
        assertThat(again.isTagged()).isFalse();
        assertThat(again.isStarted()).isFalse();
        assertThat(again.isDone()).isFalse();
        assertThat(again.sentOctets()).isZero();
        assertThat(again.length()).isEqualTo(28);
        int before = llp.segments.size();
        again.writeAll();
        assertThat(again.msn()).isEqualTo(1); // the first message on QN 1
        UntaggedHeaderFlyweight h = untagged(llp.segments.get(before));
        assertThat(h.queueNumber()).isEqualTo(1);
        assertThat(h.messageOffset()).isZero();
        assertThat(h.last()).isTrue();
        assertThat(Arrays.copyOfRange(llp.segments.get(before), 18, 46)).isEqualTo(Bytes.pattern(28, 4));
        // another sender's message is not taken over
        DdpSender otherSender = new DdpSender(new CapturingLlp(1500), ByteBufAllocator.DEFAULT, 4);
        OutboundMessage foreign = otherSender.tagged(0x40, 9, 0, Bytes.pooled(new byte[1]), again);
        assertThat(foreign).isNotSameAs(again);
        foreign.abandon();
    }

    @Test
    void payloadSegmentsAreRetainedSlicesOfTheMessageAndTheMessageIsReleasedAfterTheLast() {
        ByteBuf message = Bytes.pooled(Bytes.pattern(4000, 2));
        ByteBuf[] seen = new ByteBuf[3];
        int[] i = {0};
        LlpSegmentWriter sliceChecker = new LlpSegmentWriter() {
            @Override
            public int mulpdu() {
                return 1500;
            }

            @Override
            public void writeSegment(ByteBuf header, ByteBuf payload) {
                seen[i[0]++] = payload;
                header.release();
            }
        };
        DdpSender s = new DdpSender(sliceChecker, ByteBufAllocator.DEFAULT, 3);
        OutboundMessage m = s.tagged(0x40, 1, 0, message);
        m.writeNextSegment();
        m.writeNextSegment();
        assertThat(message.refCnt()).isEqualTo(3); // the message and two outstanding slices
        // Zero-copy: a payload shares the message's memory.
        message.setByte(1486 + 5, 0x5A);
        assertThat(seen[1].getByte(5)).isEqualTo((byte) 0x5A);
        m.writeNextSegment();
        assertThat(m.isDone()).isTrue();
        for (ByteBuf b : seen) {
            b.release();
        }
        assertThat(message.refCnt()).isZero();
    }

    @Test
    void aLowerLayerThatConsumesItsPayloadLeavesTheMessageBufferAsItWas() {
        // A socket that takes a payload in parts advances the payload's reader index (Netty's outbound buffer
        // does). A prepared request sends one data buffer again and again, retained once per send: each send's
        // payload must be a view of its own, for one segment and for several.
        for (int length : new int[] {4000, 1000}) {
            ByteBuf message = Bytes.pooled(Bytes.pattern(length, 3));
            List<Integer> sent = new ArrayList<>();
            LlpSegmentWriter consuming = new LlpSegmentWriter() {
                @Override
                public int mulpdu() {
                    return 1500;
                }

                @Override
                public void writeSegment(ByteBuf header, ByteBuf payload) {
                    sent.add(payload.readableBytes());
                    payload.skipBytes(payload.readableBytes());
                    header.release();
                    payload.release();
                }
            };
            DdpSender s = new DdpSender(consuming, ByteBufAllocator.DEFAULT, 3);
            for (int round = 0; round < 3; round++) {
                s.tagged(0x40, 1, 0, message.retain()).writeAll();
                assertThat(message.readerIndex()).as("%d octets, round %d", length, round).isZero();
                assertThat(message.readableBytes()).isEqualTo(length);
            }
            assertThat(sent.stream().mapToInt(Integer::intValue).sum()).isEqualTo(3 * length);
            assertThat(message.refCnt()).isEqualTo(1);
            message.release();
        }
    }

    @Test
    void payloadsUpToTheLendLimitAreLentFromTheMessageAndLongerOnesSliced() {
        // 4000 octets in segments of 1486, 1486 and 1028: with a limit of 1100 only the last is lent
        ByteBuf message = Bytes.pooled(Bytes.pattern(4000, 4));
        List<String> how = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        LlpSegmentWriter lending = new LlpSegmentWriter() {
            @Override
            public int mulpdu() {
                return 1500;
            }

            @Override
            public int lendLimit() {
                return 1100;
            }

            @Override
            public void writeSegment(ByteBuf header, ByteBuf payload) {
                how.add("slice");
                payloads.add(ByteBufUtil.getBytes(payload));
                header.release();
                payload.release();
            }

            @Override
            public void writeSegment(ByteBuf header, ByteBuf source, int index, int length) {
                how.add("lent");
                assertThat(source).isSameAs(message);
                assertThat(source.refCnt()).as("held for the call, though the message is done").isPositive();
                byte[] copy = new byte[length];
                source.getBytes(index, copy);
                payloads.add(copy);
                header.release();
            }
        };
        new DdpSender(lending, ByteBufAllocator.DEFAULT, 3).tagged(0x40, 1, 0, message.retain()).writeAll();
        assertThat(how).containsExactly("slice", "slice", "lent");
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        payloads.forEach(all::writeBytes);
        assertThat(all.toByteArray()).isEqualTo(Bytes.pattern(4000, 4));
        assertThat(message.refCnt()).as("only the test's own reference is left").isEqualTo(1);
        message.release();
    }

    @Test
    void aTaggedMessageOfAMemoryRangeSendsThoseOctetsAndLeavesTheMemoryAsItWas() {
        ByteBuf memory = Bytes.pooled(Bytes.pattern(5000, 5));
        CapturingLlp capture = new CapturingLlp(1500);
        DdpSender s = new DdpSender(capture, ByteBufAllocator.DEFAULT, 3);
        s.tagged(0x40, 7, 0x1000, memory.retain(), 700, 3000, null).writeAll();
        assertThat(capture.segments).hasSize(3);
        ByteArrayOutputStream placed = new ByteArrayOutputStream();
        long to = 0x1000;
        for (byte[] segment : capture.segments) {
            assertThat(tagged(segment).taggedOffset()).isEqualTo(to);
            placed.writeBytes(Arrays.copyOfRange(segment, TaggedHeaderFlyweight.HEADER_LENGTH, segment.length));
            to += segment.length - TaggedHeaderFlyweight.HEADER_LENGTH;
        }
        assertThat(placed.toByteArray()).isEqualTo(Arrays.copyOfRange(Bytes.pattern(5000, 5), 700, 3700));
        assertThat(memory.readerIndex()).isZero();
        assertThat(memory.writerIndex()).isEqualTo(5000);
        assertThat(memory.refCnt()).isEqualTo(1);
        assertThatThrownBy(() -> s.tagged(0x40, 7, 0, memory.retain(), 4000, 1001, null))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(memory.refCnt()).as("released when refused").isEqualTo(1);
        memory.release();
    }

    @Test
    void msnCountsPerQueueFromOneInTransmissionOrder() {
        OutboundMessage a = sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER);
        OutboundMessage b = sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER);
        OutboundMessage c = sender.untagged(1, 0x41, 0, Unpooled.EMPTY_BUFFER);
        b.writeAll(); // written first, so it takes MSN 1
        a.writeAll();
        c.writeAll();
        assertThat(b.msn()).isEqualTo(1);
        assertThat(a.msn()).isEqualTo(2);
        assertThat(c.msn()).isEqualTo(1);
        assertThat(llp.segments).extracting(s -> untagged(s).messageSequenceNumber()).containsExactly(1, 2, 1);
        assertThat(sender.nextMsn(0)).isEqualTo(3);
        assertThat(sender.nextMsn(2)).isEqualTo(1);
    }

    @Test
    void msnWrapsModulo2To32() {
        sender.restartQueueAt(0, 0xFFFFFFFF);
        sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER).writeAll();
        sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER).writeAll();
        assertThat(llp.segments).extracting(s -> untagged(s).messageSequenceNumber()).containsExactly(0xFFFFFFFF, 0);
    }

    @Test
    void oneTaggedAndOneUntaggedMessageMayInterleaveButNotTwoOfAKind() {
        OutboundMessage write = sender.tagged(0x40, 1, 0, Bytes.pooled(new byte[3000]));
        OutboundMessage send = sender.untagged(0, 0x43, 0, Bytes.pooled(new byte[3000]));
        OutboundMessage send2 = sender.untagged(0, 0x43, 0, Bytes.pooled(new byte[10]));
        write.writeNextSegment();
        send.writeNextSegment();
        write.writeNextSegment();
        assertThatThrownBy(send2::writeNextSegment).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("untagged");
        send.writeAll();
        write.writeAll();
        send2.writeAll();
        assertThat(llp.segments).extracting(s -> DdpControl.isTagged(s[0]))
                .containsExactly(true, false, true, false, false, true, false);
        assertThat(send2.msn()).isEqualTo(2);
    }

    @Test
    void abandonReleasesTheMessageAndFreesTheSlotForATerminate() {
        ByteBuf payload = Bytes.pooled(new byte[5000]);
        OutboundMessage send = sender.untagged(0, 0x43, 0, payload);
        send.writeNextSegment();
        send.abandon();
        assertThat(payload.refCnt()).isZero();
        assertThat(send.isDone()).isTrue();
        OutboundMessage terminate = sender.untagged(2, 0x47, 0, Bytes.pooled(new byte[4]));
        terminate.writeAll();
        sender.shutdown();
        assertThat(untagged(llp.segments.get(1)).queueNumber()).isEqualTo(2);
        assertThat(untagged(llp.segments.get(1)).messageSequenceNumber()).isEqualTo(1);
    }

    @Test
    void afterShutdownNothingMoreIsCreatedOrWrittenAndPayloadsAreReleased() {
        OutboundMessage pending = sender.tagged(0x40, 1, 0, Bytes.pooled(new byte[10]));
        sender.shutdown();
        ByteBuf late = Bytes.pooled(new byte[10]);
        assertThatThrownBy(() -> sender.untagged(0, 0x43, 0, late)).isInstanceOf(IllegalStateException.class);
        assertThat(late.refCnt()).isZero();
        assertThatThrownBy(pending::writeNextSegment).isInstanceOf(IllegalStateException.class);
        pending.abandon();
        assertThat(llp.segments).isEmpty();
    }

    @Test
    void taggedMessageWhoseEndWouldWrapTheTaggedOffsetIsRefused() {
        ByteBuf payload = Bytes.pooled(new byte[256]);
        assertThatThrownBy(() -> sender.tagged(0x40, 1, 0xFFFFFFFFFFFFFF00L, payload))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wraps");
        assertThat(payload.refCnt()).isZero();
        sender.tagged(0x40, 1, 0xFFFFFFFFFFFFFF00L, Bytes.pooled(new byte[255])).writeAll();
        assertThat(tagged(llp.segments.get(0)).taggedOffset()).isEqualTo(0xFFFFFFFFFFFFFF00L);
    }

    @Test
    void mulpduTooSmallForAHeaderAndPayloadIsAnError() {
        llp.mulpdu = 18;
        OutboundMessage m = sender.untagged(0, 0x43, 0, Bytes.pooled(new byte[1]));
        assertThatThrownBy(m::writeNextSegment).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("MULPDU");
        m.abandon();
        sender.untagged(0, 0x43, 0, Unpooled.EMPTY_BUFFER).writeAll(); // a header alone still fits
        assertThat(llp.segments).hasSize(1);
    }

    @Test
    void writingADoneMessageIsAnError() {
        OutboundMessage m = sender.tagged(0x40, 1, 0, Bytes.pooled(new byte[1]));
        m.writeAll();
        assertThatThrownBy(m::writeNextSegment).isInstanceOf(IllegalStateException.class);
    }
}
