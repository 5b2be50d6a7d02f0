package org.iwarp4j.ddp.receive;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.iwarp4j.ddp.Bytes;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the receive path: random segments go into a {@link DdpReceiver} whose regions
 * and posted buffers are slices of one direct "arena" with guard octets around each. For every input: no
 * exception escapes, no buffer leaks (the testkit's leak extension fails the invocation), no octet outside
 * a region or posted buffer changes, at most one rejection is reported and nothing happens after it.
 *
 * <p>Input format: a sequence of segments, each a 2-octet big-endian length followed by that many octets
 * (a short tail is taken as the last segment). The seed corpus under
 * {@code src/test/resources/org/iwarp4j/ddp/receive/ReceiverFuzzTestInputs/receivePath/} holds every
 * {@code rdmap/} and {@code markers/} golden vector's ULPDU in that format, plus multi-segment streams; the
 * regions below use the vectors' STags and TOs so that the seeds place data. In the normal build the seeds
 * run as regression tests; {@code JAZZER_FUZZ=1} fuzzes.
 *
 * <p>Cost: the arena is allocated once and restored from its pattern for each input (a 64 KiB copy),
 * and segments come from a {@link LeakCheckingAllocator} that checks after each input that every one
 * was released, instead of Netty's PARANOID detector, which records a stack trace on every access.
 */
class ReceiverFuzzTest {

    private static final long PD = 7;
    private static final Object STREAM = new Object();
    private static final int GUARD = 32;
    private static final int SEED = 0x3D;
    private static final int ARENA_SIZE = 64 * 1024;
    private static final byte[] PRISTINE = Bytes.pattern(ARENA_SIZE, SEED);
    /** Kept for the JVM's life and restored per input; untracked, as nothing references it after a test. */
    private static final ByteBuf ARENA = new UnpooledByteBufAllocator(true, true)
            .directBuffer(ARENA_SIZE, ARENA_SIZE);
    private static final byte[] SNAPSHOT = new byte[ARENA_SIZE];
    private static final LeakCheckingAllocator ALLOC = new LeakCheckingAllocator();

    @FuzzTest(maxDuration = "30s")
    void receivePath(byte[] input) {
        try (Harness harness = new Harness()) {
            feed(harness, input);
            harness.checkInvariants();
        }
        ALLOC.assertNoLeaks();
    }

    /**
     * The committed seeds are meaningful: together they place tagged data, deliver untagged messages and hit errors.
     */
    @Test
    void seedCorpusExercisesPlacementDeliveryAndRejection() throws Exception {
        Path dir = Path.of(ReceiverFuzzTest.class.getResource("ReceiverFuzzTestInputs/receivePath").toURI());
        int seeds = 0;
        int placed = 0;
        int delivered = 0;
        int rejected = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                try (Harness harness = new Harness()) {
                    feed(harness, Files.readAllBytes(f));
                    harness.checkInvariants();
                    seeds++;
                    placed += harness.taggedPlaced;
                    delivered += harness.untaggedDelivered;
                    rejected += harness.rejections;
                }
                ALLOC.assertNoLeaks();
            }
        }
        assertThat(seeds).isGreaterThanOrEqualTo(43);
        assertThat(placed).isGreaterThanOrEqualTo(8);
        assertThat(delivered).isGreaterThanOrEqualTo(25);
        assertThat(rejected).isGreaterThanOrEqualTo(1);
    }

    private static void feed(Harness harness, byte[] input) {
        int i = 0;
        while (i < input.length) {
            int length = i + 1 < input.length ? ((input[i] & 0xFF) << 8 | (input[i + 1] & 0xFF)) : 0;
            i = Math.min(input.length, i + 2);
            int take = Math.min(length, input.length - i);
            ByteBuf segment = ALLOC.buffer(take).writeBytes(input, i, take);
            i += take;
            harness.receiver.receive(segment);
        }
    }

    /** The receiver, its memory and a listener that checks the callback protocol. */
    static final class Harness implements AutoCloseable, DdpReceiveListener {

        private final ByteBuf arena = ARENA;
        private final List<int[]> writable = new ArrayList<>(); // {offset, length} of regions and buffers
        private final Map<Integer, ByteBufTaggedBuffer> regions = new HashMap<>();
        final DdpReceiver receiver;
        private int cursor = GUARD;
        int rejections;
        int taggedPlaced;
        int untaggedDelivered;
        private int callsAfterRejection;

        Harness() {
            arena.clear().writeBytes(PRISTINE);
            EnumSet<TaggedBufferAccess> remote =
                    EnumSet.of(TaggedBufferAccess.LOCAL_WRITE, TaggedBufferAccess.REMOTE_WRITE);
            region(0x00c0ffee, 0x10000, 2048, remote, PD);                              // rdma-write-seg*
            region(0x1a2b3c4d, 0x100000, 4096, remote, PD);                             // rdma-write*, markers
            region(0x0a0b0c0d, 0x2000, 8192, EnumSet.of(TaggedBufferAccess.LOCAL_WRITE), PD); // read responses
            region(0x00000002, 0, 256, remote, PD + 1);                                 // another PD
            region(0x00000003, 0, 256, remote, PD).invalidate();                        // invalidated
            region(0x00000004, 0xFFFFFFFFFFFFF000L, 4096, remote, PD);                  // ends at 2^64
            region(0x00000005, 0, 256, EnumSet.of(TaggedBufferAccess.REMOTE_READ), PD); // no write right
            receiver = new DdpReceiver(regions::get, PD, STREAM, DdpReceiver.QUEUES_RFC7306, this);
            for (int qn = 0; qn < 4; qn++) {
                for (int n = 0; n < 3; n++) {
                    receiver.post(qn, new ByteBufUntaggedBuffer(slice(512)));
                }
            }
        }

        private ByteBufTaggedBuffer region(int stag, long base, int length, EnumSet<TaggedBufferAccess> access,
                long pd) {
            ByteBufTaggedBuffer r = new ByteBufTaggedBuffer(stag, base, slice(length), access, pd, null);
            regions.put(stag, r);
            return r;
        }

        private ByteBuf slice(int length) {
            ByteBuf s = arena.slice(cursor, length);
            writable.add(new int[] {cursor, length});
            cursor += length + GUARD;
            return s;
        }

        void checkInvariants() {
            arena.getBytes(0, SNAPSHOT);
            int from = 0; // the guard octets between the writable slices, which are laid out in order
            for (int[] w : writable) {
                checkUnchanged(from, w[0]);
                from = w[0] + w[1];
            }
            checkUnchanged(from, ARENA_SIZE);
            if (rejections > 1 || callsAfterRejection > 0) {
                throw new AssertionError(rejections + " rejections, " + callsAfterRejection + " calls after one");
            }
        }

        private static void checkUnchanged(int from, int to) {
            int k = Arrays.mismatch(SNAPSHOT, from, to, PRISTINE, from, to);
            if (k >= 0) {
                throw new AssertionError("write outside every region and posted buffer at arena offset " + (from + k));
            }
        }

        private void called() {
            if (rejections > 0) {
                callsAfterRejection++;
            }
        }

        @Override
        public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                                  ByteBuf segment) {
            called();
            // Like RDMAP: Write → remote write, Read Response → local write, anything else rejected.
            return switch (rsvdUlp) {
                case 0x40 -> TaggedAdmission.REMOTE_WRITE;
                case 0x42 -> TaggedAdmission.LOCAL_WRITE;
                default -> TaggedAdmission.REJECT;
            };
        }

        @Override
        public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                      int payloadLength, boolean last, ByteBuf segment) {
            called();
            // Read the ULP header straight from the segment, as RDMAP does.
            if (payloadLength >= 4) {
                segment.getInt(segment.readerIndex() + 18);
            }
            return (rsvdUlp & 0xC0) == 0x40 ? UntaggedAdmission.PLACE : UntaggedAdmission.REJECT;
        }

        @Override
        public void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {
            called();
            if (payloadLength > 0) {
                taggedPlaced++;
            }
        }

        @Override
        public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
            called();
        }

        @Override
        public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                               UntaggedBuffer buffer) {
            called();
            if (messageLength < 0 || messageLength > buffer.capacity()) {
                throw new AssertionError("delivered length " + messageLength + " for capacity " + buffer.capacity());
            }
            untaggedDelivered++;
            receiver.post(qn, buffer); // re-post, like RDMAP refilling its slots
        }

        @Override
        public void onSegmentRejected(DdpException error) {
            rejections++;
            if (error.ddpSegmentLength() < 0 || error.terminatedDdpHeader().length > 18) {
                throw new AssertionError("malformed report " + error);
            }
        }

        @Override
        public void close() {
            // the arena lives on (restored by the next harness)
        }
    }
}
