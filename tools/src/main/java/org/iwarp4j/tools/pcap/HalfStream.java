package org.iwarp4j.tools.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.TreeSet;

/**
 * One direction of a TCP connection, reassembled: the octets the sender sent, in sequence order, up
 * to the first hole in the capture.
 *
 * <p>Not a record so that the octets are held once: the {@link TcpReassembler} hands over the arrays it
 * filled, where a record would copy them to keep them its own (a capture's worth of octets, twice at once).
 * They are held in pieces of at most {@value #CHUNK} octets, which the reassembler fills while it lets go of
 * the segments they came from. {@link #bytes()} hands out a copy; {@link #view()} reads them in place.
 */
public final class HalfStream {

    private final Endpoint source;
    private final Endpoint destination;
    private final boolean synSeen;
    private final long firstSequence;
    /**
     * The most octets the reassembler puts in one array of a stream: small enough that the garbage collector
     * does not give an array regions of its own (G1's regions are 1 MiB or more, an array of half one is
     * "humongous" and may leave most of a second region empty).
     */
    static final int CHUNK = 1 << 18;

    /** The octets, in order, each array full but the last ({@link #CHUNK} octets). */
    private final byte[][] chunks;
    private final int length;
    private final List<Piece> pieces;
    private final Gap gap;
    private final List<Conflict> conflicts;
    private final List<Closing> closings;

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

    /**
     * A stream of these octets (copied) and pieces.
     *
     * @param source        sender
     * @param destination   receiver
     * @param synSeen       whether the capture holds this side's SYN (then {@link #firstSequence} = ISN + 1)
     * @param firstSequence TCP sequence number of {@code bytes[0]} (unsigned 32 bits)
     * @param bytes         the contiguous octets from {@code firstSequence} on (copied)
     * @param pieces        which pcap frame supplied which octets of {@code bytes} (first copy wins)
     * @param gap           the hole that ends {@code bytes}, or {@code null} when the capture is complete
     * @param conflicts     retransmissions whose octets differ from the first copy
     * @param closings      the segments of this direction that carried FIN or RST, in capture order
     */
    public HalfStream(Endpoint source, Endpoint destination, boolean synSeen, long firstSequence, byte[] bytes,
                      List<Piece> pieces, Gap gap, List<Conflict> conflicts, List<Closing> closings) {
        this(source, destination, synSeen, firstSequence, pieces, gap, conflicts, closings,
                new byte[][] {bytes.clone()});
    }

    /**
     * Takes {@code chunks} as they are: the reassembler's own arrays, every one but the last {@link #CHUNK}
     * octets long (the order of the parameters tells this constructor apart).
     */
    HalfStream(Endpoint source, Endpoint destination, boolean synSeen, long firstSequence, List<Piece> pieces,
               Gap gap, List<Conflict> conflicts, List<Closing> closings, byte[][] chunks) {
        this.source = source;
        this.destination = destination;
        this.synSeen = synSeen;
        this.firstSequence = firstSequence;
        this.chunks = chunks;
        long total = 0;
        for (byte[] c : chunks) {
            total += c.length;
        }
        this.length = Math.toIntExact(total);
        this.pieces = List.copyOf(pieces);
        this.gap = gap;
        this.conflicts = List.copyOf(conflicts);
        this.closings = List.copyOf(closings);
    }

    /** Sender. */
    public Endpoint source() {
        return source;
    }

    /** Receiver. */
    public Endpoint destination() {
        return destination;
    }

    /** Whether the capture holds this side's SYN (then {@link #firstSequence} = ISN + 1). */
    public boolean synSeen() {
        return synSeen;
    }

    /** TCP sequence number of the first octet (unsigned 32 bits). */
    public long firstSequence() {
        return firstSequence;
    }

    /** Which pcap frame supplied which octets (first copy wins). */
    public List<Piece> pieces() {
        return pieces;
    }

    /** The hole that ends the octets, or {@code null} when the capture is complete. */
    public Gap gap() {
        return gap;
    }

    /** Retransmissions whose octets differ from the first copy. */
    public List<Conflict> conflicts() {
        return conflicts;
    }

    /** The segments of this direction that carried FIN or RST, in capture order. */
    public List<Closing> closings() {
        return closings;
    }

    /**
     * A reassembled stream is equal only to itself: its octets are its own copy, and a hash over every piece
     * would cost a pass over the capture each time one is looked up.
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
    public String toString() {
        return "HalfStream[" + source + " -> " + destination + ", " + length + " octets from seq "
                + firstSequence + (gap == null ? "" : ", " + gap) + "]";
    }

    /** A copy of the contiguous octets from {@link #firstSequence} on. */
    public byte[] bytes() {
        return ByteBufUtil.getBytes(view());
    }

    /**
     * The octets of {@link #bytes()} without the copy: a read-only heap buffer over the stream's own arrays
     * (nothing to release), for reading a stream of any size without holding it twice.
     */
    public ByteBuf view() {
        return Unpooled.wrappedBuffer(Math.max(1, chunks.length), chunks).asReadOnly();
    }

    /** Whether the stream starts with {@code prefix}, read in place. */
    public boolean startsWith(byte[] prefix) {
        return length >= prefix.length && ByteBufUtil.equals(view(), 0, Unpooled.wrappedBuffer(prefix), 0,
                prefix.length);
    }

    public int length() {
        return length;
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
