package org.iwarp4j.tools.pcap;

import java.util.List;
import java.util.TreeSet;

/**
 * One direction of a TCP connection, reassembled: the octets the sender sent, in sequence order, up
 * to the first hole in the capture.
 *
 * @param source        sender
 * @param destination   receiver
 * @param synSeen       whether the capture holds this side's SYN (then {@link #firstSequence} = ISN + 1)
 * @param firstSequence TCP sequence number of {@code bytes[0]} (unsigned 32 bits)
 * @param bytes         the contiguous octets from {@code firstSequence} on
 * @param pieces        which pcap frame supplied which octets of {@code bytes} (first copy wins)
 * @param gap           the hole that ends {@code bytes}, or {@code null} when the capture is complete
 * @param conflicts     retransmissions whose octets differ from the first copy
 * @param closings      the segments of this direction that carried FIN or RST, in capture order
 */
public record HalfStream(Endpoint source, Endpoint destination, boolean synSeen, long firstSequence, byte[] bytes,
                         List<Piece> pieces, Gap gap, List<Conflict> conflicts, List<Closing> closings) {

    /** Octets {@code [offset, offset + length)} of the stream came from pcap frame {@code frame}. */
    public record Piece(long offset, int length, int frame) {}

    /**
     * Octets missing from the capture at stream offset {@code offset}.
     *
     * @param missing        how many octets are missing before the next captured ones
     * @param capturedAfter  captured octets after the hole, not part of {@link #bytes}
     */
    public record Gap(long offset, long missing, long capturedAfter) {}

    /** A retransmission in {@code frame} carried different octets than the first copy, from {@code offset} on. */
    public record Conflict(long offset, int frame) {}

    /**
     * Pcap frame {@code frame} carried a FIN ({@code reset} false) or an RST ({@code reset} true) of this direction.
     */
    public record Closing(int frame, boolean reset) {}

    public HalfStream {
        bytes = bytes.clone();
        pieces = List.copyOf(pieces);
        conflicts = List.copyOf(conflicts);
        closings = List.copyOf(closings);
    }

    /**
     * A reassembled stream is equal only to itself: its octets are its own copy (the array of a record compares by
     * identity anyway), and a hash over every piece would cost a pass over the capture each time one is looked up.
     */
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    /** The TCP sequence number of the octet at stream offset {@code offset}. */
    public long sequenceAt(long offset) {
        return (firstSequence + offset) & 0xffffffffL;
    }

    /**
     * The pcap frames that supplied octets {@code [offset, offset + length)}, ascending. The pieces lie in stream
     * order, each after the one before, so a binary search finds the first: a capture of N pieces is explained in
     * N log N, not N squared.
     */
    public List<Integer> framesFor(long offset, long length) {
        long end = offset + Math.max(length, 1);
        TreeSet<Integer> frames = new TreeSet<>();
        for (int i = firstPieceEndingAfter(offset); i < pieces.size() && pieces.get(i).offset() < end; i++) {
            frames.add(pieces.get(i).frame());
        }
        return List.copyOf(frames);
    }

    /** The index of the first piece whose octets end after {@code offset} ({@code pieces.size()} if none). */
    private int firstPieceEndingAfter(long offset) {
        int lo = 0;
        int hi = pieces.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Piece p = pieces.get(mid);
            if (p.offset() + p.length() <= offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
