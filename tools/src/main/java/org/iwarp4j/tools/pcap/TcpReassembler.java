package org.iwarp4j.tools.pcap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Sorts captured TCP segments into connections and puts each direction's octets back in sequence
 * order: retransmitted and overlapping segments are merged (the first copy wins, differing copies are
 * reported), sequence numbers may wrap, and a hole in the capture ends the usable stream.
 *
 * <p>A connection is identified by its two endpoints (one, for a socket connected to itself, whose octets
 * all count as one direction's); a new SYN with a different ISN from the same
 * side starts a new connection (port reuse). Streams are assumed shorter than 2 GiB per direction.
 */
public final class TcpReassembler {

    private final Map<Set<Endpoint>, Builder> current = new HashMap<>();
    private final List<Builder> all = new ArrayList<>();
    private boolean finished;

    public void add(TcpSegment segment) {
        if (finished) {
            throw new IllegalStateException("the reassembler has finished: no segment can be added");
        }
        // A socket connected to itself (TCP's self-connect, or a crafted capture) is one endpoint, not two.
        Set<Endpoint> key = segment.source().equals(segment.destination()) ? Set.of(segment.source())
                : Set.of(segment.source(), segment.destination());
        Builder b = current.get(key);
        if (b != null && segment.syn() && !segment.ack()) {
            Direction d = b.direction(segment.source());
            if (d.synSeen && d.isn != segment.sequence()) {
                b = null;
            }
        }
        if (b == null) {
            b = new Builder(segment);
            current.put(key, b);
            all.add(b);
        }
        b.add(segment);
    }

    /** Every connection, in the order of its first captured packet. */
    public List<TcpConnection> connections() {
        return all.stream().map(b -> b.build(false)).toList();
    }

    /**
     * {@link #connections()} for the last time: each direction lets go of its segments as it copies them into its
     * stream, so that a capture's octets are not held twice. Nothing can be added afterwards.
     */
    public List<TcpConnection> finish() {
        finished = true;
        return all.stream().map(b -> b.build(true)).toList();
    }

    /** Reassembles every TCP segment of a capture. */
    public static List<TcpConnection> reassemble(Iterable<TcpSegment> segments) {
        TcpReassembler r = new TcpReassembler();
        segments.forEach(r::add);
        return r.finish();
    }

    private static final class Builder {
        final int firstFrame;
        int lastFrame;
        Endpoint opener;
        final Direction first;
        final Direction second;

        Builder(TcpSegment s) {
            firstFrame = s.frame();
            first = new Direction(s.source(), s.destination());
            second = new Direction(s.destination(), s.source());
        }

        Direction direction(Endpoint source) {
            return first.source.equals(source) ? first : second;
        }

        void add(TcpSegment s) {
            lastFrame = Math.max(lastFrame, s.frame());
            if (s.syn() && !s.ack() && opener == null) {
                opener = s.source();
            }
            direction(s.source()).add(s);
        }

        TcpConnection build(boolean release) {
            return new TcpConnection(firstFrame, lastFrame, Optional.ofNullable(opener), first.build(release),
                    second.build(release));
        }
    }

    private static final class Direction {
        final Endpoint source;
        final Endpoint destination;
        final List<TcpSegment> segments = new ArrayList<>();
        final List<HalfStream.Closing> closings = new ArrayList<>();
        boolean synSeen;
        long isn;

        Direction(Endpoint source, Endpoint destination) {
            this.source = source;
            this.destination = destination;
        }

        void add(TcpSegment s) {
            if (s.syn() && !synSeen) {
                synSeen = true;
                isn = s.sequence();
            }
            if (s.payloadLength() > 0) {
                segments.add(s);
            }
            if ((s.flags() & (TcpSegment.FIN | TcpSegment.RST)) != 0) {
                closings.add(new HalfStream.Closing(s.frame(), (s.flags() & TcpSegment.RST) != 0));
            }
        }

        /** @param release whether to let go of the segments (each once copied), the reassembler being done */
        HalfStream build(boolean release) {
            long base;
            if (synSeen) {
                base = (isn + 1) & 0xffffffffL;
            } else if (!segments.isEmpty()) {
                // No SYN: the stream starts at the lowest sequence number seen (compared modulo 2^32).
                long ref = segments.get(0).firstDataSequence();
                int lowest = 0;
                for (TcpSegment s : segments) {
                    lowest = Math.min(lowest, (int) (s.firstDataSequence() - ref));
                }
                base = (ref + lowest) & 0xffffffffL;
            } else {
                base = 0;
            }
            List<Placed> placed = new ArrayList<>();
            for (TcpSegment s : segments) {
                // Signed 32-bit distance: sequence numbers wrap (RFC 9293 §3.4).
                long start = (int) (s.firstDataSequence() - base);
                placed.add(new Placed(start, s));
            }
            placed.sort(Comparator.comparingLong(Placed::start).thenComparingInt(p -> p.segment.frame()));
            if (release) {
                segments.clear(); // the placed ones from here on, dropped as they are copied
            }

            // The stream's arrays are allocated as they fill, while the segments copied into them are let go of:
            // the octets are not held twice.
            Chunks out = new Chunks(Math.toIntExact(contiguousLength(placed)));
            List<HalfStream.Piece> pieces = new ArrayList<>();
            List<HalfStream.Conflict> conflicts = new ArrayList<>();
            long expected = 0;
            long declaredEnd = 0;
            HalfStream.Gap gap = null;
            for (int i = 0; i < placed.size(); i++) {
                Placed p = placed.get(i);
                byte[] data = p.segment.payloadUnsafe();
                long start = p.start;
                long capturedEnd = start + data.length;
                if (start > expected) {
                    long after = 0;
                    for (int j = i; j < placed.size(); j++) {
                        after += placed.get(j).segment.capturedLength();
                    }
                    gap = new HalfStream.Gap(expected, start - expected, after);
                    break;
                }
                declaredEnd = Math.max(declaredEnd, start + p.segment.payloadLength());
                // Octets we already have must match (a retransmission carries the same data).
                long overlapFrom = Math.max(start, 0);
                long overlapTo = Math.min(capturedEnd, expected);
                if (overlapTo > overlapFrom) {
                    for (long k = overlapFrom; k < overlapTo; k++) {
                        if (out.get((int) k) != data[(int) (k - start)]) {
                            conflicts.add(new HalfStream.Conflict(k, p.segment.frame()));
                            break;
                        }
                    }
                }
                if (capturedEnd > expected) {
                    int from = (int) (expected - start);
                    out.put((int) expected, data, from, data.length - from);
                    pieces.add(new HalfStream.Piece(expected, data.length - from, p.segment.frame()));
                    expected = capturedEnd;
                }
                placed.set(i, null); // its octets are in the stream now
            }
            if (gap == null && declaredEnd > expected) {
                // The capture cut a segment short (snap length) and no retransmission filled the hole.
                gap = new HalfStream.Gap(expected, declaredEnd - expected, 0);
            }
            return new HalfStream(source, destination, synSeen, base, pieces, gap, conflicts, closings, out.filled());
        }

        /** How many octets the placed segments cover from 0 before the first hole: the stream's length. */
        private static long contiguousLength(List<Placed> placed) {
            long expected = 0;
            for (Placed p : placed) {
                if (p.start > expected) {
                    break;
                }
                expected = Math.max(expected, p.start + p.segment.capturedLength());
            }
            return expected;
        }
    }

    private record Placed(long start, TcpSegment segment) {}

    /** A stream's octets in arrays of {@link HalfStream#CHUNK} (the last one shorter), allocated when written. */
    private static final class Chunks {
        final byte[][] chunks;
        private final int length;

        Chunks(int length) {
            this.length = length;
            this.chunks = new byte[(int) ((length + (long) HalfStream.CHUNK - 1) / HalfStream.CHUNK)][];
        }

        /** The arrays, every one allocated. */
        byte[][] filled() {
            for (int i = 0; i < chunks.length; i++) {
                chunk(i);
            }
            return chunks;
        }

        byte get(int at) {
            return chunk(at / HalfStream.CHUNK)[at % HalfStream.CHUNK];
        }

        /** Writes {@code n} octets of {@code data} from {@code from} at stream offset {@code at}. */
        void put(int at, byte[] data, int from, int n) {
            while (n > 0) {
                int inChunk = at % HalfStream.CHUNK;
                int run = Math.min(n, HalfStream.CHUNK - inChunk);
                System.arraycopy(data, from, chunk(at / HalfStream.CHUNK), inChunk, run);
                at += run;
                from += run;
                n -= run;
            }
        }

        private byte[] chunk(int index) {
            if (chunks[index] == null) {
                chunks[index] = new byte[Math.min(HalfStream.CHUNK, length - index * HalfStream.CHUNK)];
            }
            return chunks[index];
        }
    }
}
