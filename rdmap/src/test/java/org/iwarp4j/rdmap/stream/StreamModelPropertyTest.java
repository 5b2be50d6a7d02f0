package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.memory.ByteBufUntaggedBuffer;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicCompareSwap;
import org.iwarp4j.rdmap.stream.RdmapOperation.AtomicFetchAdd;
import org.iwarp4j.rdmap.stream.RdmapOperation.ImmediateData;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaRead;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWrite;
import org.iwarp4j.rdmap.stream.RdmapOperation.RdmaWriteWithImmediate;
import org.iwarp4j.rdmap.stream.RdmapOperation.Send;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.LOCAL_WRITE;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_ATOMIC;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_READ;
import static org.iwarp4j.ddp.memory.TaggedBufferAccess.REMOTE_WRITE;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * Stateful property: two streams joined through MPA's FPDU codec (CRC on, markers on or off, the byte
 * stream split at random points, lower-layer acknowledgements late and in random batches) run random
 * sequences of posts, receives, Writes, Reads, Sends with and without Invalidate, Immediate Data, Write
 * with Immediate and atomics against a model. Invariants:
 * <ul>
 *   <li>after every step: outstanding requests ≤ ORD, accepted inbound requests ≤ IRD [RDMAP-16];</li>
 *   <li>at the end: every completion matches a request, in submission order, all successful; no
 *       completion without a request; receive completions match the peer's Sends/Immediate Data in
 *       order (opcode, length, data, invalidated STag, immediate value) [RDMAP-17, RDMAP-23, EXT-07];
 *       every region equals the model (Writes placed, Read Responses in order, atomics), guard octets
 *       intact; both streams still operational.</li>
 * </ul>
 */
class StreamModelPropertyTest {

    private static final int REGION = 2048;
    private static final int ATOMIC_ZONE = REGION - 256; // words used only by atomics (RFC 7306 §5 advice)
    private static final int RECEIVE_SIZE = 300;
    private static final int INVALIDATABLE = 24;

    @Test
    void randomOperationSequencesMatchTheModel() {
        qt().withExamples(40).withShrinkCycles(20)
                .forAll(longs().all(), integers().between(20, 160))
                .checkAssert((seed, steps) -> new Run(seed, steps).execute());
    }

    /** One side: its stream, memory, model of its memory, and what its peer expects from it. */
    private static final class Side implements AutoCloseable {
        final String name;
        final Endpoint endpoint;
        final MpaLink out;
        final TestRegion exposed;     // the peer Writes/Reads/atomics here
        final TestRegion sink;        // Read Responses land here
        final byte[] exposedModel = new byte[REGION];
        final byte[] sinkModel = new byte[REGION];
        final List<TestRegion> invalidatable = new ArrayList<>();
        final boolean[] invalidatedModel = new boolean[INVALIDATABLE];
        final List<Long> submitted = new ArrayList<>();
        final ArrayDeque<ByteBuf> receiveBuffers = new ArrayDeque<>();
        final List<ByteBuf> allReceiveBuffers = new ArrayList<>();
        final List<Long> postedReceives = new ArrayList<>();
        final List<Expected> expectedAtPeer = new ArrayList<>(); // what the peer's receives must show
        final List<long[]> pendingReads = new ArrayList<>(); // {id, source offset, length}
        long unacked;
        int maxOutstanding;
        int maxInbound;

        Side(String name, RdmapStreamConfig config, int mulpdu, boolean markers, LockingAtomicExecutor atomics) {
            this.name = name;
            this.out = new MpaLink(mulpdu, markers);
            this.endpoint = new Endpoint(config, out, atomics);
            exposed = endpoint.memory.register(0x1000, 0x10000, REGION,
                    EnumSet.of(REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, LOCAL_WRITE), Endpoint.PD);
            sink = endpoint.memory.register(0x2000, 0x20000, REGION, EnumSet.of(LOCAL_WRITE), Endpoint.PD);
            for (int i = 0; i < INVALIDATABLE; i++) {
                invalidatable.add(endpoint.memory.register(0x3000 + i, 0, 8, EnumSet.of(REMOTE_WRITE), Endpoint.PD));
            }
        }

        @Override
        public void close() {
            endpoint.close();
            out.close();
            for (ByteBuf b : allReceiveBuffers) {
                b.release();
            }
        }
    }

    /** What one receive completion at the peer must look like. */
    private record Expected(RdmapOpcode opcode, byte[] data, int invalidatedStag, long immediate) {
    }

    private static final class Run {
        private final long seed;
        private final int steps;
        private final Random random;

        Run(long seed, int steps) {
            this.seed = seed;
            this.steps = steps;
            this.random = new Random(seed);
        }

        void execute() {
            int mulpdu = new int[] {128, 200, 512, 1500, 9000}[random.nextInt(5)];
            boolean markers = random.nextBoolean();
            int irdA = 1 + random.nextInt(4);
            int irdB = 1 + random.nextInt(4);
            LockingAtomicExecutor atomics = new LockingAtomicExecutor(4, ByteOrder.LITTLE_ENDIAN);
            RdmapStreamConfig base = RdmapStreamConfig.defaults().withQueueDepths(32, 32);
            try (Side a = new Side("A", base.withReadDepths(irdA, irdB), mulpdu, markers, atomics);
                 Side b = new Side("B", base.withReadDepths(irdB, irdA), mulpdu, markers, atomics)) {
                for (int i = 0; i < steps; i++) {
                    Side self = random.nextBoolean() ? a : b;
                    Side peer = self == a ? b : a;
                    switch (random.nextInt(6)) {
                        case 0, 1 -> submit(self, peer);
                        case 2 -> postReceive(self);
                        case 3 -> pump(self);
                        case 4 -> deliver(self, peer, 1 + random.nextInt(3000));
                        default -> ack(self);
                    }
                    checkLimits(a, irdB);
                    checkLimits(b, irdA);
                }
                drain(a, b);
                verify(a, b, irdB);
                verify(b, a, irdA);
            }
        }

        private String context() {
            return "seed=" + seed + " steps=" + steps;
        }

        private void submit(Side self, Side peer) {
            if (self.submitted.size() - self.endpoint.listener.sends.size() >= 32) {
                return; // send queue full: the model never overfills it
            }
            boolean receiveAvailable = self.expectedAtPeer.size() < peer.postedReceives.size();
            long id = self.submitted.size() + 1;
            RdmapOperation op = switch (random.nextInt(receiveAvailable ? 9 : 4)) {
                case 0 -> write(self, peer, id);
                case 1 -> read(self, peer, id);
                case 2 -> fetchAdd(self, peer, id);
                case 3 -> compareSwap(self, peer, id);
                case 4, 5 -> send(self, peer, id);
                case 6 -> sendWithInvalidate(self, peer, id);
                case 7 -> immediate(self, id);
                default -> writeWithImmediate(self, peer, id);
            };
            if (op == null) {
                return;
            }
            self.submitted.add(id);
            self.endpoint.stream.submit(op);
        }

        private RdmapOperation write(Side self, Side peer, long id) {
            int len = random.nextInt(Math.min(ATOMIC_ZONE, 3 * self.out.mulpdu));
            int off = random.nextInt(ATOMIC_ZONE - len + 1);
            byte[] data = randomBytes(len);
            System.arraycopy(data, 0, peer.exposedModel, off, len);
            boolean fence = random.nextInt(8) == 0 || overlapsPendingRead(self, off, len);
            return new RdmaWrite(id, 0x1000, 0x10000 + off, Endpoint.data(data), fence);
        }

        /**
         * RFC 5040 §5.5: a Write issued after a Read MAY be placed before that Read's response is generated,
         * so a ULP that needs the Read to see the old data fences the Write; the model does the same.
         */
        private boolean overlapsPendingRead(Side self, int off, int len) {
            Set<Long> done = new HashSet<>();
            for (RecordingListener.SendCompletion c : self.endpoint.listener.sends) {
                done.add(c.id());
            }
            self.pendingReads.removeIf(r -> done.contains(r[0]));
            for (long[] r : self.pendingReads) {
                if (off < r[1] + r[2] && r[1] < off + len) {
                    return true;
                }
            }
            return false;
        }

        private RdmapOperation read(Side self, Side peer, long id) {
            int len = random.nextInt(Math.min(REGION, 3 * self.out.mulpdu));
            int src = random.nextInt(REGION - len + 1);
            int dst = random.nextInt(REGION - len + 1);
            // RFC 5040 §5.5: the response reflects every earlier Write/atomic of ours, none of the peer's own
            System.arraycopy(peer.exposedModel, src, self.sinkModel, dst, len);
            self.pendingReads.add(new long[] {id, src, len});
            return new RdmaRead(id, 0x2000, 0x20000 + dst, len, 0x1000, 0x10000 + src, random.nextInt(8) == 0);
        }

        private RdmapOperation fetchAdd(Side self, Side peer, long id) {
            int word = ATOMIC_ZONE + 8 * random.nextInt(32);
            long add = random.nextLong();
            long mask = random.nextBoolean() ? 0 : random.nextLong();
            ByteBuffer m = ByteBuffer.wrap(peer.exposedModel).order(ByteOrder.LITTLE_ENDIAN);
            m.putLong(word, AtomicMath.maskedAdd(m.getLong(word), add, mask));
            return new AtomicFetchAdd(id, 0x1000, 0x10000 + word, add, mask, random.nextInt(8) == 0);
        }

        private RdmapOperation compareSwap(Side self, Side peer, long id) {
            int word = ATOMIC_ZONE + 8 * random.nextInt(32);
            ByteBuffer m = ByteBuffer.wrap(peer.exposedModel).order(ByteOrder.LITTLE_ENDIAN);
            long current = m.getLong(word);
            long compare = random.nextBoolean() ? current : random.nextLong();
            long compareMask = random.nextBoolean() ? -1L : random.nextLong();
            long swap = random.nextLong();
            long swapMask = random.nextBoolean() ? -1L : random.nextLong();
            m.putLong(word, AtomicMath.maskedCompareSwap(current, compare, compareMask, swap, swapMask));
            return new AtomicCompareSwap(id, 0x1000, 0x10000 + word, compare, compareMask, swap, swapMask, false);
        }

        private RdmapOperation send(Side self, Side peer, long id) {
            byte[] data = randomBytes(random.nextInt(RECEIVE_SIZE + 1));
            boolean se = random.nextBoolean();
            self.expectedAtPeer.add(new Expected(se ? RdmapOpcode.SEND_WITH_SE : RdmapOpcode.SEND, data, 0, 0));
            return new Send(id, Endpoint.data(data), se, false, 0, false);
        }

        private RdmapOperation sendWithInvalidate(Side self, Side peer, long id) {
            int index = -1;
            for (int i = 0; i < INVALIDATABLE; i++) {
                if (!peer.invalidatedModel[i]) {
                    index = i;
                    break;
                }
            }
            if (index < 0) {
                return null;
            }
            peer.invalidatedModel[index] = true;
            byte[] data = randomBytes(random.nextInt(64));
            boolean se = random.nextBoolean();
            self.expectedAtPeer.add(new Expected(se ? RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE
                    : RdmapOpcode.SEND_WITH_INVALIDATE, data, 0x3000 + index, 0));
            return new Send(id, Endpoint.data(data), se, true, 0x3000 + index, false);
        }

        private RdmapOperation immediate(Side self, long id) {
            long value = random.nextLong();
            boolean se = random.nextBoolean();
            self.expectedAtPeer.add(new Expected(se ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE : RdmapOpcode.IMMEDIATE_DATA,
                    new byte[0], 0, value));
            return new ImmediateData(id, value, se, false);
        }

        private RdmapOperation writeWithImmediate(Side self, Side peer, long id) {
            int len = random.nextInt(Math.min(ATOMIC_ZONE, 2 * self.out.mulpdu));
            int off = random.nextInt(ATOMIC_ZONE - len + 1);
            byte[] data = randomBytes(len);
            System.arraycopy(data, 0, peer.exposedModel, off, len);
            long value = random.nextLong();
            self.expectedAtPeer.add(new Expected(RdmapOpcode.IMMEDIATE_DATA, new byte[0], 0, value));
            return new RdmaWriteWithImmediate(id, 0x1000, 0x10000 + off, Endpoint.data(data), value, false,
                    overlapsPendingRead(self, off, len));
        }

        private void postReceive(Side self) {
            if (self.postedReceives.size() - self.endpoint.listener.receives.size() >= 32) {
                return;
            }
            long id = 1000 + self.postedReceives.size();
            ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(RECEIVE_SIZE, RECEIVE_SIZE);
            buf.setZero(0, RECEIVE_SIZE);
            self.allReceiveBuffers.add(buf);
            self.receiveBuffers.add(buf);
            self.postedReceives.add(id);
            self.endpoint.stream.postReceive(id, new ByteBufUntaggedBuffer(buf));
        }

        private void pump(Side self) {
            int budget = 1 + random.nextInt(6); // the channel becomes unwritable after a few segments
            while (budget-- > 0 && self.endpoint.stream.writeNextSegment()) {
                self.unacked++;
            }
        }

        private void deliver(Side self, Side peer, int bytes) {
            self.out.deliver(bytes, peer.endpoint.stream);
        }

        private void ack(Side self) {
            if (self.unacked > 0) {
                int n = 1 + random.nextInt((int) Math.min(self.unacked, 8));
                self.unacked -= n;
                self.endpoint.stream.segmentsWritten(n);
            }
        }

        private void checkLimits(Side s, int ord) {
            s.maxOutstanding = Math.max(s.maxOutstanding, s.endpoint.stream.outstandingRequests());
            s.maxInbound = Math.max(s.maxInbound, s.endpoint.stream.pendingInboundRequests());
            assertThat(s.endpoint.stream.outstandingRequests()).as(context() + " ORD " + s.name)
                    .isLessThanOrEqualTo(ord);
            assertThat(s.endpoint.stream.pendingInboundRequests()).as(context() + " IRD " + s.name)
                    .isLessThanOrEqualTo(s.endpoint.stream.config().ird());
        }

        private void drain(Side a, Side b) {
            // post enough receives for every Send still to arrive, then run to quiescence
            for (Side s : List.of(a, b)) {
                Side peer = s == a ? b : a;
                while (peer.expectedAtPeer.size() > s.postedReceives.size()) {
                    postReceive(s);
                }
            }
            for (int round = 0; round < 100_000; round++) {
                boolean progress = false;
                for (Side s : List.of(a, b)) {
                    Side peer = s == a ? b : a;
                    while (s.endpoint.stream.writeNextSegment()) {
                        s.unacked++;
                        progress = true;
                    }
                    if (s.unacked > 0) {
                        s.endpoint.stream.segmentsWritten((int) s.unacked);
                        s.unacked = 0;
                        progress = true;
                    }
                    if (s.out.pendingBytes() > 0) {
                        s.out.deliver(1 + random.nextInt(4000), peer.endpoint.stream);
                        progress = true;
                    }
                }
                if (!progress) {
                    return;
                }
            }
            throw new AssertionError(context() + ": no quiescence");
        }

        private void verify(Side self, Side peer, int ord) {
            String ctx = context() + " side " + self.name;
            RecordingListener l = self.endpoint.listener;
            assertThat(self.endpoint.stream.state()).as(ctx + " " + l.events).isEqualTo(RdmapStreamState.OPERATIONAL);
            assertThat(l.fatalErrors).as(ctx).isEmpty();
            // every completion matches a request, in order, successfully
            assertThat(l.sends).extracting(RecordingListener.SendCompletion::id).as(ctx)
                    .containsExactlyElementsOf(self.submitted);
            assertThat(l.sends).as(ctx).allMatch(c -> c.status() == OperationStatus.SUCCESS);
            // receives: only as many completions as the peer sent, each matching, in order
            List<Expected> expected = peer.expectedAtPeer;
            assertThat(l.receives).as(ctx).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                RecordingListener.ReceiveCompletion rc = l.receives.get(i);
                Expected e = expected.get(i);
                assertThat(rc.id()).as(ctx).isEqualTo(self.postedReceives.get(i));
                assertThat(rc.status()).as(ctx).isEqualTo(OperationStatus.SUCCESS);
                assertThat(rc.opcode()).as(ctx + " receive " + i).isEqualTo(e.opcode());
                assertThat(rc.length()).as(ctx).isEqualTo(e.data().length);
                assertThat(rc.invalidatedStag()).as(ctx).isEqualTo(e.invalidatedStag());
                assertThat(rc.immediate()).as(ctx).isEqualTo(e.immediate());
                ByteBuf buf = self.allReceiveBuffers.get(i);
                byte[] got = new byte[e.data().length];
                buf.getBytes(0, got);
                assertThat(got).as(ctx + " receive data " + i).isEqualTo(e.data());
            }
            assertSame(ctx + " exposed region", self.exposed.bytes(), self.exposedModel);
            assertSame(ctx + " read sink", self.sink.bytes(), self.sinkModel);
            for (int i = 0; i < INVALIDATABLE; i++) {
                assertThat(!self.invalidatable.get(i).isValid()).as(ctx + " invalidated " + i)
                        .isEqualTo(self.invalidatedModel[i]);
            }
            assertThat(self.endpoint.memory.guardsIntact()).as(ctx).isTrue();
            assertThat(self.maxOutstanding).as(ctx).isLessThanOrEqualTo(ord);
            assertThat(self.maxInbound).as(ctx).isLessThanOrEqualTo(self.endpoint.stream.config().ird());
            assertThat(self.endpoint.stream.outstandingRequests()).isZero();
        }

        private static void assertSame(String what, byte[] actual, byte[] model) {
            int mismatch = Arrays.mismatch(actual, model);
            if (mismatch >= 0) {
                int to = Math.min(model.length, mismatch + 16);
                throw new AssertionError(what + " differs from the model at offset " + mismatch + ": actual "
                        + Ulpdus.hex(actual, mismatch, to) + " model " + Ulpdus.hex(model, mismatch, to));
            }
        }

        private byte[] randomBytes(int len) {
            byte[] b = new byte[len];
            random.nextBytes(b);
            return b;
        }
    }
}
