package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.LoopbackLlp;
import org.iwarp4j.ddp.RecordingListener;
import org.iwarp4j.ddp.SegmentBytes;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.send.DdpSender;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * A random untagged stream — buffers posted on QN 0…3, messages of random length cut at random MULPDUs by
 * the real sender, and now and then a faulty segment (QN beyond the stream, MSN behind the window, MO beyond
 * the buffer) — against a model of the posted buffers: every message is delivered once, in MSN order per
 * queue (1, 2, 3, … with no gap), with exactly its content and length, until the first error, which has the
 * code the model predicts; after it nothing is delivered or placed.
 */
class UntaggedStreamPropertyTest {

    /** kind 0–3 post a buffer of capacity a; 4–8 send a message of length a at MULPDU 19 + b; 9 a fault b. */
    record Op(int kind, int qn, int a, int b) {}

    private static Gen<Op> ops() {
        return integers().between(0, 9).zip(integers().between(0, 3), integers().between(0, 400),
                integers().between(0, 220), Op::new);
    }

    private final Map<String, Integer> outcomes = new HashMap<>();

    @Test
    void untaggedStreamMatchesTheModelOfPostedBuffers() {
        qt().withExamples(1500).forAll(lists().of(ops()).ofSizeBetween(1, 40)).checkAssert(this::check);
        assertThat(outcomes.keySet()).contains("clean", DdpError.INVALID_QN.name(),
                DdpError.INVALID_MSN_NO_BUFFER.name(),
                DdpError.INVALID_MSN_RANGE.name(), DdpError.INVALID_MO.name(), DdpError.MESSAGE_TOO_LONG.name());
    }

    private void check(List<Op> ops) {
        RecordingListener listener = new RecordingListener();
        LoopbackLlp llp = new LoopbackLlp(100, UnpooledByteBufAllocator.DEFAULT);
        DdpReceiver receiver = new DdpReceiver(TaggedBufferRegistry.empty(), 1, "s", 4, listener);
        llp.receiver = receiver;
        DdpSender sender = new DdpSender(llp, UnpooledByteBufAllocator.DEFAULT, 4);

        // The model: per queue, the capacities of posted, undelivered buffers and the next MSN to deliver.
        List<ArrayDeque<ByteBufUntaggedBuffer>> posted = new ArrayList<>();
        int[] nextMsn = {1, 1, 1, 1};
        for (int q = 0; q < 4; q++) {
            posted.add(new ArrayDeque<>());
        }
        List<String> expectedDeliveries = new ArrayList<>();
        Map<ByteBufUntaggedBuffer, byte[]> expectedContent = new HashMap<>();
        DdpError expectedError = null;
        int seed = 1;

        for (Op op : ops) {
            if (expectedError != null) {
                break;
            }
            int qn = op.qn();
            if (op.kind() < 4) {
                ByteBufUntaggedBuffer b = new ByteBufUntaggedBuffer(Unpooled.buffer(op.a(), op.a()));
                int msn = receiver.post(qn, b);
                assertThat(msn).isEqualTo(nextMsn[qn] + posted.get(qn).size());
                posted.get(qn).add(b);
            } else if (op.kind() < 9) {
                byte[] message = Bytes.pattern(op.a(), seed++);
                llp.mulpdu = 19 + op.b();
                ByteBufUntaggedBuffer target = posted.get(qn).peek();
                int payloadPerSegment = llp.mulpdu - 18;
                if (target == null) {
                    expectedError = DdpError.INVALID_MSN_NO_BUFFER;
                } else if (message.length > target.capacity()) {
                    expectedError = DdpError.MESSAGE_TOO_LONG;
                    // Segments before the overflowing one are placed; the overflowing one is not.
                    byte[] placed = Arrays.copyOf(message, target.capacity() / payloadPerSegment * payloadPerSegment);
                    expectedContent.put(target, placed);
                } else {
                    posted.get(qn).poll();
                    expectedDeliveries.add(qn + "/" + nextMsn[qn] + "/" + message.length);
                    expectedContent.put(target, message);
                    nextMsn[qn]++;
                }
                sender.untagged(qn, 0x43, 0, Unpooled.wrappedBuffer(message)).writeAll();
            } else {
                byte[] segment;
                switch (op.b() % 3) {
                    case 0 -> {
                        segment = SegmentBytes.untagged(0x41, 0x43, 0, 4 + op.a(), 1, 0, new byte[3]);
                        expectedError = DdpError.INVALID_QN;
                    }
                    case 1 -> {
                        segment = SegmentBytes.untagged(0x41, 0x43, 0, qn, nextMsn[qn] - 1 - op.a(), 0, new byte[3]);
                        expectedError = posted.get(qn).isEmpty() ? DdpError.INVALID_MSN_NO_BUFFER
                                : DdpError.INVALID_MSN_RANGE;
                    }
                    default -> {
                        ByteBufUntaggedBuffer target = posted.get(qn).peek();
                        int mo = (target == null ? 0 : target.capacity()) + 1 + op.a();
                        segment = SegmentBytes.untagged(0x01, 0x43, 0, qn, nextMsn[qn], mo, new byte[1]);
                        expectedError = target == null ? DdpError.INVALID_MSN_NO_BUFFER : DdpError.INVALID_MO;
                    }
                }
                receiver.receive(Unpooled.wrappedBuffer(segment));
            }
        }
        outcomes.merge(expectedError == null ? "clean" : expectedError.name(), 1, Integer::sum);

        assertThat(listener.delivered).extracting(d -> d.qn() + "/" + d.msn() + "/" + d.length())
                .containsExactlyElementsOf(expectedDeliveries);
        for (RecordingListener.Delivered d : listener.delivered) {
            ByteBuf b = ((ByteBufUntaggedBuffer) d.buffer()).buffer();
            byte[] content = new byte[d.length()];
            b.getBytes(0, content);
            assertThat(content).isEqualTo(expectedContent.get(d.buffer()));
        }
        // MSN continuity: per queue the delivered MSNs are 1, 2, 3, … without a gap.
        for (int q = 0; q < 4; q++) {
            int qq = q;
            List<Integer> msns = listener.delivered.stream().filter(d -> d.qn() == qq).map(d -> d.msn()).toList();
            for (int i = 0; i < msns.size(); i++) {
                assertThat(msns.get(i)).isEqualTo(i + 1);
            }
        }
        if (expectedError == null) {
            assertThat(listener.rejected).isEmpty();
        } else {
            assertThat(listener.rejected).extracting(e -> e.error()).containsExactly(expectedError);
            // A partly placed, overflowing message: exactly the segments that fit were placed.
            for (Map.Entry<ByteBufUntaggedBuffer, byte[]> e : expectedContent.entrySet()) {
                byte[] content = new byte[e.getValue().length];
                e.getKey().buffer().getBytes(0, content);
                assertThat(content).isEqualTo(e.getValue());
            }
        }
    }
}
