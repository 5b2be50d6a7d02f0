package org.iwarp4j.ddp;

import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * RFC 5041 §5.2 as properties: any message of 0…1 MiB, cut for any MULPDU of 128…64768, arrives whole —
 * placed by the receiver into a tagged region or a posted untagged buffer — in exactly
 * max(1, ⌈length / (MULPDU − header)⌉) segments, each within the MULPDU, with L = 1 exactly once.
 */
class SegmentationPropertyTest {

    private static final int MAX_MESSAGE = 1 << 20;

    record Case(int length, int mulpdu, long startTo) {}

    /** Sizes: uniform over 0…1 MiB, mixed with sizes right at segment boundaries (k segments ± 1 octet). */
    private static Gen<Case> cases(int headerLength) {
        Gen<Integer> mulpdus = integers().between(128, 64768);
        Gen<Integer> uniform = integers().between(0, MAX_MESSAGE);
        Gen<Case> anyLength = mulpdus.zip(uniform, longs().all(), (m, l, to) -> new Case(l, m, to));
        Gen<Case> boundary = mulpdus.zip(integers().between(0, 40), integers().between(-1, 1), longs().all(),
                (m, k, d, to) -> new Case(Math.max(0, Math.min(MAX_MESSAGE, k * (m - headerLength) + d)), m, to));
        Gen<Case> tiny = mulpdus.zip(integers().between(0, 3), longs().all(), (m, l, to) -> new Case(l, m, to));
        return anyLength.mix(boundary, 40).mix(tiny, 10).map(c -> c.length > 0
                && Long.compareUnsigned(c.startTo + c.length, c.startTo) < 0
                ? new Case(c.length, c.mulpdu, c.startTo - c.length) : c); // keep TO + length below 2^64
    }

    // Bulk buffers are unpooled heap buffers, which Netty 4.2 does not leak-track: PARANOID tracking of the
    // ~10^4 segments of a 1 MiB message would make each example take seconds. Leaks on these paths are
    // covered by the unit tests, which use pooled buffers.
    private static final ByteBufAllocator BULK = UnpooledByteBufAllocator.DEFAULT;

    private static ByteBuf randomMessage(int length) {
        byte[] bytes = new byte[length];
        ThreadLocalRandom.current().nextBytes(bytes);
        return Unpooled.wrappedBuffer(bytes);
    }

    private static int expectedSegments(int length, int mulpdu, int headerLength) {
        int perSegment = mulpdu - headerLength;
        return length == 0 ? 1 : (length + perSegment - 1) / perSegment;
    }

    @Test
    void taggedMessagesReassembleExactly() {
        qt().withExamples(300).forAll(cases(14)).checkAssert(c -> {
            ByteBuf message = randomMessage(c.length());
            ByteBuf region = Unpooled.buffer(Math.max(c.length(), 1), Math.max(c.length(), 1));
            try {
                ByteBufTaggedBuffer target = ByteBufTaggedBuffer.writable(0x5A5A, c.startTo(), region, 1);
                RecordingListener listener = new RecordingListener();
                LoopbackLlp llp = new LoopbackLlp(c.mulpdu(), BULK);
                llp.receiver = new DdpReceiver(stag -> stag == 0x5A5A ? target : null, 1, "s", 3, listener);
                DdpSender sender = new DdpSender(llp, BULK, 3);
                sender.tagged(0x40, 0x5A5A, c.startTo(), message.retainedDuplicate()).writeAll();

                assertThat(listener.rejected).isEmpty();
                assertThat(llp.segments).isEqualTo(expectedSegments(c.length(), c.mulpdu(), 14));
                assertThat(llp.lastFlags).isEqualTo(1);
                assertThat(listener.taggedDelivered).containsExactly(
                        new RecordingListener.TaggedDelivered(0x40, 0x5A5A, c.startTo(), c.length()));
                assertThat(region.slice(0, c.length())).isEqualTo(message);
            } finally {
                message.release();
                region.release();
            }
        });
    }

    @Test
    void untaggedMessagesReassembleExactly() {
        qt().withExamples(300).forAll(cases(18)).checkAssert(c -> {
            ByteBuf message = randomMessage(c.length());
            ByteBuf target = Unpooled.buffer(c.length(), c.length());
            try {
                RecordingListener listener = new RecordingListener();
                LoopbackLlp llp = new LoopbackLlp(c.mulpdu(), BULK);
                llp.receiver = new DdpReceiver(stag -> null, 1, "s", 4, listener);
                llp.receiver.post(3, new ByteBufUntaggedBuffer(Unpooled.buffer(0, 0)));
                llp.receiver.post(3, new ByteBufUntaggedBuffer(target));
                DdpSender sender = new DdpSender(llp, BULK, 4);
                sender.untagged(3, 0x4B, 0, Unpooled.EMPTY_BUFFER).writeAll();
                llp.segments = 0;
                llp.lastFlags = 0;
                sender.untagged(3, 0x4B, 0x12345678, message.retainedDuplicate()).writeAll();

                assertThat(listener.rejected).isEmpty();
                assertThat(llp.segments).isEqualTo(expectedSegments(c.length(), c.mulpdu(), 18));
                assertThat(llp.lastFlags).isEqualTo(1);
                assertThat(listener.delivered).hasSize(2);
                RecordingListener.Delivered d = listener.delivered.get(1);
                assertThat(d.msn()).isEqualTo(2);
                assertThat(d.length()).isEqualTo(c.length());
                assertThat(d.rsvdUlpWord()).isEqualTo(0x12345678);
                assertThat(target.slice(0, c.length())).isEqualTo(message);
            } finally {
                message.release();
                target.release();
            }
        });
    }
}
