package org.iwarp4j.tools.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.GoldenVectors;
import org.junit.jupiter.api.Test;

class TcpReassemblerTest {

    private static final Endpoint A = new Endpoint(new byte[] {10, 0, 0, 1}, 1111);
    private static final Endpoint B = new Endpoint(new byte[] {10, 0, 0, 2}, 2222);

    @Test
    void goldenCapturesReassembleToTheConversationStreams() throws Exception {
        List<TcpConnection> all = new ArrayList<>();
        for (String pcap : List.of("iwarp-rev1-crc.pcap", "iwarp-rev2-enhanced.pcap", "iwarp-markers.pcap")) {
            Capture c = Capture.read(GoldenVectors.resource(pcap));
            assertThat(c.skipped()).isEmpty();
            all.addAll(c.connections());
        }
        assertThat(all).hasSize(8);
        List<ConversationStream> streams = GoldenVectors.streams();
        assertThat(streams).hasSize(8);
        for (ConversationStream s : streams) {
            ConversationStream.Segment firstI2R = s.segments(ConversationStream.Direction.I2R).get(0);
            ConversationStream.Segment firstR2I = s.segments(ConversationStream.Direction.R2I).get(0);
            TcpConnection conn = all.stream()
                    .filter(c -> c.first().firstSequence() == firstI2R.tcpSeq())
                    .findFirst().orElseThrow(() -> new AssertionError("no connection for " + s.name()));
            // The initiator is the active opener in every golden capture.
            HalfStream i2r = conn.from(conn.opener().orElseThrow());
            HalfStream r2i = conn.to(conn.opener().orElseThrow());
            assertThat(i2r.bytes()).as(s.name() + " I2R").isEqualTo(s.bytes(ConversationStream.Direction.I2R));
            assertThat(r2i.bytes()).as(s.name() + " R2I").isEqualTo(s.bytes(ConversationStream.Direction.R2I));
            assertThat(r2i.firstSequence()).isEqualTo(firstR2I.tcpSeq());
            assertThat(i2r.synSeen()).isTrue();
            assertThat(i2r.gap()).isNull();
            assertThat(r2i.gap()).isNull();
            assertThat(i2r.conflicts()).isEmpty();
            for (ConversationStream.Segment seg : s.segments()) {
                HalfStream h = seg.direction() == ConversationStream.Direction.I2R ? i2r : r2i;
                assertThat(h.sequenceAt(seg.offset())).isEqualTo(seg.tcpSeq());
                assertThat(h.framesFor(seg.offset(), seg.payload().length)).hasSize(1);
            }
        }
    }

    @Test
    void aSegmentFromAnEndpointToItselfIsAConnectionNotACrash() {
        // Found by ExplainFuzzTest#anyCaptureIsExplainedOrRefused (seed segment-to-itself): Set.of(a, a) threw.
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, A, 100, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, A, A, 101, 0, "abc".getBytes()));
        List<TcpConnection> connections = r.connections();
        assertThat(connections).hasSize(1);
        assertThat(connections.get(0).first().bytes()).isEqualTo("abc".getBytes());
        assertThat(connections.get(0).second().bytes()).isEmpty();
    }

    @Test
    void outOfOrderRetransmittedAndOverlappingSegmentsMerge() {
        byte[] data = "0123456789abcdefghij".getBytes();
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 99, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, A, B, 110, 0, slice(data, 10, 20)));     // arrives early
        r.add(seg(3, A, B, 100, 0, slice(data, 0, 5)));
        r.add(seg(4, A, B, 103, 0, slice(data, 3, 12)));      // overlaps both neighbours
        r.add(seg(5, A, B, 100, 0, slice(data, 0, 5)));       // plain retransmission
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.bytes()).isEqualTo(data);
        assertThat(h.gap()).isNull();
        assertThat(h.conflicts()).isEmpty();
        assertThat(h.pieces()).containsExactly(
                new HalfStream.Piece(0, 5, 3), new HalfStream.Piece(5, 7, 4), new HalfStream.Piece(12, 8, 2));
        assertThat(h.framesFor(4, 2)).containsExactly(3, 4);
        assertThat(h.framesFor(0, 20)).containsExactly(2, 3, 4);
    }

    @Test
    void framesForAnyRangeAreThePiecesThatOverlapIt() {
        // framesFor searches the pieces; a linear scan over them is the definition it must agree with
        qt().forAll(longs().between(1, Long.MAX_VALUE), integers().between(0, 400), integers().between(0, 60))
                .checkAssert((seed, from, length) -> {
                    Random random = new Random(seed);
                    List<HalfStream.Piece> pieces = new ArrayList<>();
                    long offset = 0;
                    for (int i = random.nextInt(40); i > 0; i--) {
                        int n = 1 + random.nextInt(20);
                        pieces.add(new HalfStream.Piece(offset, n, 1 + random.nextInt(50)));
                        offset += n;
                    }
                    HalfStream h = new HalfStream(A, B, true, 0, new byte[(int) offset], pieces, null, List.of(),
                            List.of());
                    long end = from + Math.max(length, 1);
                    List<Integer> expected = pieces.stream()
                            .filter(p -> p.offset() < end && from < p.offset() + p.length())
                            .map(HalfStream.Piece::frame).distinct().sorted().toList();
                    assertThat(h.framesFor(from, length)).as("pieces %s, [%d, +%d)", pieces, from, length)
                            .isEqualTo(expected);
                });
    }

    @Test
    void sequenceNumbersWrap() {
        long isn = 0xfffffff8L;
        byte[] data = new byte[40];
        new Random(1).nextBytes(data);
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, isn, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, A, B, 0x00000009L, 0, slice(data, 16, 40)));   // after the wrap
        r.add(seg(3, A, B, 0xfffffff9L, 0, slice(data, 0, 16)));    // straddles 2^32
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.bytes()).isEqualTo(data);
        assertThat(h.firstSequence()).isEqualTo(0xfffffff9L);
        assertThat(h.sequenceAt(7)).isEqualTo(0L);
        assertThat(h.gap()).isNull();
    }

    @Test
    void withoutSynTheStreamStartsAtTheLowestSequenceEvenAcrossTheWrap() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0x00000002L, 0, new byte[] {5, 6}));
        r.add(seg(2, A, B, 0xfffffffeL, 0, new byte[] {1, 2, 3, 4, 5, 6}));
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.synSeen()).isFalse();
        assertThat(h.firstSequence()).isEqualTo(0xfffffffeL);
        assertThat(h.bytes()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(r.connections().get(0).opener()).isEmpty();
    }

    @Test
    void aHoleEndsTheStreamAndIsReported() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, A, B, 1, 0, new byte[10]));
        r.add(seg(4, A, B, 21, 0, new byte[7]));
        r.add(seg(5, A, B, 28, 0, new byte[3]));
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.length()).isEqualTo(10);
        assertThat(h.gap()).isEqualTo(new HalfStream.Gap(10, 10, 10));
    }

    @Test
    void aSegmentCutByTheSnapLengthLeavesAHoleUnlessRetransmitted() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0, TcpSegment.SYN, new byte[0]));
        r.add(new TcpSegment(2, A, B, 1, 0, new byte[] {1, 2, 3}, 8));
        assertThat(r.connections().get(0).from(A).gap()).isEqualTo(new HalfStream.Gap(3, 5, 0));

        r.add(seg(3, A, B, 1, 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.gap()).isNull();
        assertThat(h.bytes()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void aRetransmissionWithOtherOctetsIsAConflict() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, A, B, 1, 0, new byte[] {1, 2, 3, 4}));
        r.add(seg(3, A, B, 3, 0, new byte[] {3, 9, 5}));
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.bytes()).containsExactly(1, 2, 3, 4, 5);
        assertThat(h.conflicts()).containsExactly(new HalfStream.Conflict(3, 3));
    }

    @Test
    void aNewSynOnTheSamePortsStartsANewConnection() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 100, TcpSegment.SYN, new byte[0]));
        r.add(seg(2, B, A, 500, TcpSegment.SYN | TcpSegment.ACK, new byte[0]));
        r.add(seg(3, A, B, 101, 0, new byte[] {1}));
        r.add(seg(4, A, B, 100, TcpSegment.SYN, new byte[0]));  // SYN retransmission: same connection
        r.add(seg(5, A, B, 9000, TcpSegment.SYN, new byte[0]));
        r.add(seg(6, A, B, 9001, 0, new byte[] {2}));
        List<TcpConnection> c = r.connections();
        assertThat(c).hasSize(2);
        assertThat(c.get(0).from(A).bytes()).containsExactly(1);
        assertThat(c.get(1).from(A).bytes()).containsExactly(2);
        assertThat(c.get(1).firstFrame()).isEqualTo(5);
        assertThat(c.get(1).lastFrame()).isEqualTo(6);
        assertThat(c.get(0).lastFrame()).isEqualTo(4);
        assertThat(c.get(0).to(A).synSeen()).isTrue();
    }

    @Test
    void synDataStartsAfterTheSynSequenceNumber() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 41, TcpSegment.SYN, new byte[] {7, 8}));
        r.add(seg(2, A, B, 44, 0, new byte[] {9}));
        HalfStream h = r.connections().get(0).from(A);
        assertThat(h.firstSequence()).isEqualTo(42);
        assertThat(h.bytes()).containsExactly(7, 8, 9);
    }

    /**
     * TCP delivers the sender's octets in order however segments are cut, repeated and reordered (RFC 9293 §3.10.7.4).
     */
    @Test
    void anySegmentationRetransmissionAndOrderGivesBackTheSentOctets() {
        qt().withExamples(200).forAll(longs().between(0, 0xffffffffL), integers().between(0, 3000), longs().all())
                .checkAssert((isn, length, seed) -> {
                    Random random = new Random(seed);
                    byte[] data = new byte[length];
                    random.nextBytes(data);
                    List<TcpSegment> segments = new ArrayList<>();
                    segments.add(seg(1, A, B, isn, TcpSegment.SYN, new byte[0]));
                    int at = 0;
                    while (at < length) {
                        int n = 1 + random.nextInt(Math.min(length - at, 700));
                        long seq = (isn + 1 + at) & 0xffffffffL;
                        segments.add(seg(0, A, B, seq, 0, slice(data, at, at + n)));
                        if (random.nextInt(4) == 0) {
                            int from = random.nextInt(n);
                            segments.add(seg(0, A, B, (seq + from) & 0xffffffffL, 0, slice(data, at + from, at + n)));
                        }
                        at += n;
                    }
                    Collections.shuffle(segments.subList(1, segments.size()), random);
                    List<TcpSegment> numbered = new ArrayList<>();
                    for (int i = 0; i < segments.size(); i++) {
                        TcpSegment s = segments.get(i);
                        numbered.add(new TcpSegment(i + 1, s.source(), s.destination(), s.sequence(), s.flags(),
                                s.payload(), s.payloadLength()));
                    }
                    HalfStream h = TcpReassembler.reassemble(numbered).get(0).from(A);
                    assertThat(h.bytes()).isEqualTo(data);
                    assertThat(h.gap()).isNull();
                    assertThat(h.conflicts()).isEmpty();
                    assertThat(h.pieces().stream().mapToInt(HalfStream.Piece::length).sum()).isEqualTo(length);
                });
    }

    /**
     * A stream longer than one of the arrays the reassembler fills ({@link HalfStream#CHUNK}), out of order and with
     * retransmissions across the arrays' edges, one of them with other octets: the same stream, pieces and conflict
     * as any reassembly, {@link TcpReassembler#finish()} the same as {@link TcpReassembler#connections()}.
     */
    @Test
    void aStreamLongerThanOneArrayIsPutTogetherAcrossTheArrays() {
        byte[] data = new byte[2 * HalfStream.CHUNK + 12_345];
        new Random(7).nextBytes(data);
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0, TcpSegment.SYN, new byte[0]));
        int frame = 2;
        List<TcpSegment> later = new ArrayList<>();
        for (int at = 0; at < data.length; at += 9_001) {
            TcpSegment s = seg(frame++, A, B, 1 + at, 0, slice(data, at, Math.min(data.length, at + 9_001)));
            if ((at / 9_001) % 7 == 3) {
                later.add(s); // arrives after the next ones
            } else {
                r.add(s);
            }
        }
        later.forEach(r::add);
        int edge = HalfStream.CHUNK;
        r.add(seg(frame++, A, B, 1 + edge - 100, 0, slice(data, edge - 100, edge + 100))); // the same again
        byte[] other = slice(data, 2 * edge - 50, 2 * edge + 50);
        other[60] ^= 1; // differs at 2 * CHUNK + 10
        r.add(seg(frame, A, B, 1 + 2 * edge - 50, 0, other));

        HalfStream kept = r.connections().get(0).from(A);
        HalfStream h = r.finish().get(0).from(A);
        assertThat(h.bytes()).isEqualTo(data);
        assertThat(h.length()).isEqualTo(data.length);
        assertThat(h.gap()).isNull();
        assertThat(h.conflicts()).containsExactly(new HalfStream.Conflict(2L * edge + 10, frame));
        assertThat(h.pieces()).isEqualTo(kept.pieces());
        assertThat(kept.bytes()).isEqualTo(data);
        assertThat(h.view().readableBytes()).isEqualTo(data.length);
        assertThat(h.view().getByte(edge)).isEqualTo(data[edge]);
        assertThat(h.view().isReadOnly()).isTrue();
        assertThat(h.startsWith(slice(data, 0, 16))).isTrue();
        assertThat(h.startsWith(new byte[] {(byte) ~data[0]})).isFalse();
    }

    @Test
    void nothingIsAddedAfterTheFinish() {
        TcpReassembler r = new TcpReassembler();
        r.add(seg(1, A, B, 0, TcpSegment.SYN, new byte[0]));
        r.finish();
        assertThatThrownBy(() -> r.add(seg(2, A, B, 1, 0, new byte[] {1})))
                .isInstanceOf(IllegalStateException.class);
    }

    private static TcpSegment seg(int frame, Endpoint src, Endpoint dst, long seq, int flags, byte[] payload) {
        return new TcpSegment(frame, src, dst, seq, flags | (flags == TcpSegment.SYN ? 0 : TcpSegment.ACK), payload,
                payload.length);
    }

    private static byte[] slice(byte[] data, int from, int to) {
        return Arrays.copyOfRange(data, from, to);
    }
}
