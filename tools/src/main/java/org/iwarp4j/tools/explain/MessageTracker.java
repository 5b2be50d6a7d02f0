package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;

/**
 * What only the sequence of segments shows, per direction and per queue: MSN order, MO and TO
 * continuity of multi-segment messages, L-bit placement, Read and Atomic Responses against the
 * requests the other direction sent, at most one Terminate and nothing after it.
 *
 * <p>These are {@link Finding findings}, never errors: a receiver would answer most of them with a
 * Terminate, but a capture that starts late, misses a packet or holds one side only shows the same
 * symptoms legitimately. Findings that break a rule are warnings ({@code "notes"} in JSON); the others
 * tell people how a segment fits into its message.
 */
final class MessageTracker {

    /**
     * One observation about a segment.
     *
     * @param warning true when a rule looks broken (JSON {@code notes}); false for an explanation for people
     * @param layer   {@code "DDP"} or {@code "RDMAP"}: the layer it concerns
     */
    record Finding(boolean warning, String layer, String rfc, String text) {}

    private final boolean knownStart;
    private final boolean pairs;
    private final Map<Origin, Side> sides = new LinkedHashMap<>();

    /**
     * @param knownStart whether each direction is decoded from its first FPDU (after the MPA Request/Reply),
     *                   so that the first message on every queue must be MSN 1
     * @param pairs      whether both directions are there, so responses can be matched with requests
     */
    MessageTracker(boolean knownStart, boolean pairs) {
        this.knownStart = knownStart;
        this.pairs = pairs;
    }

    /** Findings for a segment a receiver accepted the header of (no Terminate-worthy field). */
    List<Finding> segment(Origin origin, long offset, DdpFields f, ByteBuf segment) {
        Side side = side(origin);
        List<Finding> out = new ArrayList<>();
        String ref = origin.ref(offset);
        if (side.terminate != null) {
            out.add(warn("RDMAP", Rfc.RDMAP_TERMINATE_USE, "sent after this direction's Terminate at " + side.terminate
                    + ": after a Terminate nothing more is sent [RDMAP-19]"));
        }
        RdmapOpcode opcode = RdmapControl.opcode(f.rdmapControl());
        if (f instanceof DdpFields.Tagged t) {
            boolean first = tagged(side, t, out);
            if (opcode == RdmapOpcode.RDMA_READ_RESPONSE && pairs) {
                readResponse(other(origin), t, first, out);
            }
        } else if (f instanceof DdpFields.Untagged u) {
            untagged(side, u, opcode, out);
            switch (opcode) {
                case RDMA_READ_REQUEST -> {
                    ReadRequestHeader h = new ReadRequestHeader().wrap(segment, UntaggedHeaderFlyweight.HEADER_LENGTH);
                    side.requests.add(new Read(ref, u.messageSequenceNumber(), h.sinkStag(), h.sinkTaggedOffset(),
                            Integer.toUnsignedLong(h.messageSize())));
                }
                case ATOMIC_REQUEST -> side.requests.add(new Atomic(ref, u.messageSequenceNumber(),
                        new AtomicRequestHeader().wrap(segment, UntaggedHeaderFlyweight.HEADER_LENGTH).requestId()));
                case ATOMIC_RESPONSE -> {
                    if (pairs) {
                        atomicResponse(other(origin), new AtomicResponseHeader().wrap(segment,
                                UntaggedHeaderFlyweight.HEADER_LENGTH).originalRequestId(), out);
                    }
                }
                default -> {
                }
            }
        }
        byte[] header = new byte[f.headerLength()];
        segment.getBytes(0, header);
        side.history.add(new Sent(header, f.segmentLength(), ref));
        return out;
    }

    /** Findings for a Terminate (after {@link #segment}): once per stream, MSN 1, and which message it answers. */
    List<Finding> terminate(Origin origin, long offset, DdpFields.Untagged u, Terminate t) {
        Side side = side(origin);
        List<Finding> out = new ArrayList<>();
        if (side.terminate != null) {
            out.add(warn("RDMAP", Rfc.RDMAP_TERMINATE_USE,
                    "a second Terminate in this direction: there is at most one per stream [RDMAP-19]"));
        } else {
            side.terminate = origin.ref(offset);
        }
        if (u.messageSequenceNumber() != 1) {
            out.add(warn("RDMAP", Rfc.RDMAP_TERMINATE_USE, "MSN " + Values.u32(u.messageSequenceNumber())
                    + ": the one Terminate of a stream is message 1 on QN 2 [RDMAP-19]"));
        }
        String layout = layoutProblems(t);
        if (!layout.isEmpty()) {
            out.add(warn("RDMAP", Rfc.RDMAP_TERMINATE, "the Terminate's own layout is inconsistent: " + layout
                    + ". M, D and R announce what follows the control word, but no rule makes the receiver reject a "
                    + "Terminate that breaks this, nor answer it with one: it ends the stream either way ("
                    + Rfc.RDMAP_TERMINATE_USE + ")"));
        }
        byte[] copied = t.terminatedDdpHeader();
        if (copied != null && pairs) {
            Sent match = other(origin).find(copied);
            if (match != null) {
                out.add(info("RDMAP", Rfc.RDMAP_TERMINATE, "The copied DDP header is that of the FPDU at " + match.ref
                        + ", ULPDU_Length " + match.segmentLength + ": the message this Terminate answers"
                        + (t.ddpSegmentLength() >= 0 && t.ddpSegmentLength() != match.segmentLength
                        ? "; its DDP Segment Length " + t.ddpSegmentLength()
                        + (t.ddpSegmentLength() == match.segmentLength
                        - copied.length ? " is that segment's payload length"
                        : " is not that segment's length") : "")));
            }
        }
        return out;
    }

    /**
     * What the rdmap module's lenient decoder found inconsistent between the Terminate's M/D/R bits and the
     * octets present ("" if nothing). Its other remarks are not layout faults: set reserved bits are ignored on
     * receive [RDMAP-08], and an ambiguous control word is shown as "Also reads as".
     */
    private static String layoutProblems(Terminate t) {
        List<String> problems = new ArrayList<>();
        for (String n : Values.notes(t.notes())) {
            if (!n.isEmpty() && !n.startsWith("ambiguous layout") && !n.equals("reserved bits set")) {
                problems.add(n);
            }
        }
        return String.join("; ", problems);
    }

    private Side side(Origin origin) {
        return sides.computeIfAbsent(origin, o -> new Side());
    }

    private Side other(Origin origin) {
        for (Map.Entry<Origin, Side> e : sides.entrySet()) {
            if (!e.getKey().equals(origin)) {
                return e.getValue();
            }
        }
        return new Side();
    }

    /**
     * RFC 5041 §5.2: one tagged message at a time, its TOs contiguous. Returns whether this segment starts a message.
     */
    private static boolean tagged(Side side, DdpFields.Tagged t, List<Finding> out) {
        long length = t.payloadLength();
        TaggedMessage open = side.tagged;
        String name = name(t.rdmapControl());
        if (open != null && open.stag == t.stag() && open.rdmapControl == t.rdmapControl()) {
            open.segments++;
            if (t.taggedOffset() != open.nextTo) {
                out.add(warn("DDP", Rfc.DDP_SEGMENTATION, "TO " + Values.hex(t.taggedOffset(), 1) + ", expected "
                        + Values.hex(open.nextTo, 1) + " = the first TO " + Values.hex(open.firstTo, 1) + " + the "
                        + open.length + " octets already sent [DDP-17]"));
            }
            open.length += length;
            open.nextTo = t.taggedOffset() + length;
            out.add(info("DDP", Rfc.DDP_SEGMENTATION, "Segment " + open.segments + " of " + name + " to STag "
                    + Values.stag(t.stag()) + ", TO " + Values.hex(t.taggedOffset(), 1) + " = first TO "
                    + Values.hex(open.firstTo, 1) + " + " + (t.taggedOffset() - open.firstTo)
                    + (t.last() ? "; the last: the message is " + Origin.octets(open.length) + ", TO "
                    + Values.hex(open.firstTo, 1) + ".." + Values.hex(open.firstTo + open.length - 1, 1)
                    : "; more follows")));
            if (t.last()) {
                side.tagged = null;
            }
            return false;
        }
        if (open != null) {
            out.add(warn("DDP", Rfc.DDP_SEGMENTATION, name(open.rdmapControl) + " to STag " + Values.stag(open.stag)
                    + " ended without its L=1 segment: another tagged message started [DDP-03]"));
            side.tagged = null;
        }
        if (!t.last()) {
            side.tagged = new TaggedMessage(t.stag(), t.rdmapControl(), t.taggedOffset(), length);
            out.add(info("DDP", Rfc.DDP_SEGMENTATION, "Segment 1 of " + name + " to STag " + Values.stag(t.stag())
                    + " (L=0): " + Origin.octets(length) + " at TO " + Values.hex(t.taggedOffset(), 1)
                    + ", more follows"));
        }
        return true;
    }

    /** RFC 5041 §4.3, §5.2: per queue, MSNs count from 1, MOs are contiguous, L=1 ends each message. */
    private void untagged(Side side, DdpFields.Untagged u, RdmapOpcode opcode, List<Finding> out) {
        int qn = u.queueNumber();
        int msn = u.messageSequenceNumber();
        long mo = Integer.toUnsignedLong(u.messageOffset());
        long length = u.payloadLength();
        Queue q = side.queues.computeIfAbsent(qn, k -> new Queue(knownStart ? Long.valueOf(1) : null));
        UntaggedMessage open = q.open;
        if (open != null && open.msn == msn) {
            open.segments++;
            if (mo != open.octets) {
                out.add(warn("DDP", Rfc.DDP_SEGMENTATION, "MO " + mo + ", but " + Origin.octets(open.octets)
                        + " of message MSN " + Values.u32(msn) + " came before it: the MO is "
                        + "the payload's offset in its message [DDP-16]"));
            }
            open.octets = mo + length;
            out.add(info("DDP", Rfc.DDP_SEGMENTATION, "Segment "
                    + (open.segments < 0 ? "n" : Integer.toString(open.segments))
                    + " of message MSN " + Values.u32(msn) + " on QN " + qn + ", MO " + mo
                    + (u.last() ? "; the last: the message is " + Origin.octets(open.octets) + " (MO + payload)"
                    : "; more follows")));
            if (u.last()) {
                q.open = null;
            }
            return;
        }
        if (open != null) {
            out.add(warn("DDP", Rfc.DDP_SEGMENTATION, "message MSN " + Values.u32(open.msn) + " on QN " + qn
                    + " ended without its L=1 segment: message MSN " + Values.u32(msn) + " started [DDP-03]"));
            q.open = null;
        }
        Long expected = q.expected;
        if (expected != null && Integer.toUnsignedLong(msn) != expected && opcode != RdmapOpcode.TERMINATE) {
            out.add(warn("DDP", Rfc.DDP_UNTAGGED,
                    "MSN " + Values.u32(msn) + ", expected " + expected
                    + ": each queue numbers its messages 1, 2, 3, ... per direction [DDP-11]; a receiver has no buffer "
                    + "posted for this MSN and answers 0x1/0x2/0x02 or 0x1/0x2/0x03"));
        }
        boolean lateStart = mo != 0 && expected == null;
        if (mo != 0 && !lateStart) {
            out.add(warn("DDP", Rfc.DDP_SEGMENTATION,
                    "MO " + mo + " in the first segment of message MSN " + Values.u32(msn)
                    + ": a message starts at MO 0 [DDP-16]"));
        }
        q.expected = (Integer.toUnsignedLong(msn) + 1) & 0xffffffffL;
        if (lateStart) {
            out.add(info("DDP", Rfc.DDP_SEGMENTATION,
                    "MO " + mo + ": the earlier segments of message MSN " + Values.u32(msn)
                    + " are not in the input" + (u.last() ? "; the message is " + Origin.octets(mo + length) : "")));
        }
        if (!u.last()) {
            q.open = new UntaggedMessage(msn, mo + length, lateStart ? -1 : 1);
            if (!lateStart) {
                out.add(info("DDP", Rfc.DDP_SEGMENTATION, "Segment 1 of message MSN " + Values.u32(msn) + " on QN " + qn
                        + " (L=0): " + Origin.octets(length) + " at MO 0, more follows"));
            }
        }
    }

    /** RFC 5040 §4.5 [RDMAP-06], §5.2: a Read Response answers the oldest Read Request, at its sink STag and TO. */
    private static void readResponse(Side requester, DdpFields.Tagged t, boolean first, List<Finding> out) {
        Request head = requester.requests.peekFirst();
        if (!(head instanceof Read r)) {
            if (first) {
                out.add(warn("RDMAP", Rfc.RDMAP_READ, head == null
                        ? "no RDMA Read Request of the other direction is waiting for this response; a requester "
                        + "answers 0x0/0x2/0x06 (or the request is not in the capture)"
                        : "the oldest request of the other direction waiting for a response is the Atomic Request at "
                        + head.ref() + ": responses come in request order"));
            }
            return;
        }
        long length = t.payloadLength();
        if (first) {
            out.add(info("RDMAP", Rfc.RDMAP_READ,
                    "Answers the RDMA Read Request at " + r.ref + ": MSN " + Values.u32(r.msn)
                    + ", " + Origin.octets(r.size) + " into STag " + Values.stag(r.sinkStag) + " at TO "
                    + Values.hex(r.sinkTo, 1)));
        }
        if (length > 0 && t.stag() != r.sinkStag) {
            out.add(warn("RDMAP", Rfc.RDMAP_READ_RESPONSE,
                    "STag " + Values.stag(t.stag()) + ", but the Read Request's Data Sink STag is "
                    + Values.stag(r.sinkStag) + " [RDMAP-06]"));
        }
        if (length > 0 && t.taggedOffset() != r.nextTo) {
            out.add(warn("RDMAP", Rfc.RDMAP_READ_RESPONSE, "TO " + Values.hex(t.taggedOffset(), 1) + ", expected "
                    + Values.hex(r.nextTo, 1) + " (Data Sink TO " + Values.hex(r.sinkTo, 1) + " + "
                    + (r.size - r.remaining) + " octets already sent) [RDMAP-06]"));
        }
        if (length > r.remaining) {
            out.add(warn("RDMAP", Rfc.RDMAP_READ, "carries " + Origin.octets(length) + " where only " + r.remaining
                    + " of the requested " + r.size + " are left"));
        }
        r.remaining = Math.max(0, r.remaining - length);
        r.nextTo = t.taggedOffset() + length;
        if (t.last()) {
            if (r.remaining > 0) {
                out.add(warn("RDMAP", Rfc.RDMAP_READ, "the Read Response ends " + Origin.octets(r.remaining)
                        + " short of the requested " + r.size));
            }
            requester.requests.pollFirst();
        }
    }

    /** RFC 7306 §5.2.2: Atomic Responses come in request order and echo the Request Identifier. */
    private static void atomicResponse(Side requester, int originalRequestId, List<Finding> out) {
        Request head = requester.requests.peekFirst();
        if (!(head instanceof Atomic a)) {
            out.add(warn("RDMAP", Rfc.ATOMIC_RESPONSE, head == null
                    ? "no Atomic Request of the other direction is waiting for this response (or it is not in the "
                    + "capture)"
                    : "the oldest request of the other direction waiting for a response is the RDMA Read Request at "
                    + head.ref() + ": responses come in request order"));
            return;
        }
        requester.requests.pollFirst();
        if (a.requestId != originalRequestId) {
            out.add(warn("RDMAP", Rfc.ATOMIC_RESPONSE, "Original Request Identifier " + Values.u32(originalRequestId)
                    + ", but the oldest outstanding Atomic Request (" + a.ref + ") has Request Identifier "
                    + Values.u32(a.requestId)));
        } else {
            out.add(info("RDMAP", Rfc.ATOMIC_RESPONSE,
                    "Answers the Atomic Request at " + a.ref + ": MSN " + Values.u32(a.msn)
                    + ", Request Identifier " + Values.u32(a.requestId)));
        }
    }

    private static String name(int rdmapControl) {
        RdmapOpcode op = RdmapControl.opcode(rdmapControl);
        return op == null ? "a tagged message" : "an " + op.displayName();
    }

    private static Finding warn(String layer, String rfc, String text) {
        return new Finding(true, layer, rfc, text);
    }

    private static Finding info(String layer, String rfc, String text) {
        return new Finding(false, layer, rfc, text);
    }

    /** One direction: what its sender has sent, as its receiver sees it. */
    private static final class Side {
        final Map<Integer, Queue> queues = new HashMap<>();
        final Deque<Request> requests = new ArrayDeque<>();
        final List<Sent> history = new ArrayList<>();
        TaggedMessage tagged;
        String terminate;

        /**
         * The latest segment whose DDP header is {@code copied} (a Read Request's MSN may differ: siw,
         * interop/FINDINGS.md F2).
         */
        Sent find(byte[] copied) {
            Sent loose = null;
            for (int i = history.size() - 1; i >= 0; i--) {
                Sent s = history.get(i);
                if (Arrays.equals(s.header, copied)) {
                    return s;
                }
                if (loose == null && s.header.length == copied.length
                        && copied.length == UntaggedHeaderFlyweight.HEADER_LENGTH
                        && Arrays.equals(s.header, 0, UntaggedHeaderFlyweight.MSN_OFFSET, copied, 0,
                                UntaggedHeaderFlyweight.MSN_OFFSET)
                        && Arrays.equals(s.header, UntaggedHeaderFlyweight.MO_OFFSET, s.header.length, copied,
                        UntaggedHeaderFlyweight.MO_OFFSET, copied.length)) {
                    loose = s;
                }
            }
            return loose;
        }
    }

    private static final class Queue {
        Long expected;
        UntaggedMessage open;

        Queue(Long expected) {
            this.expected = expected;
        }
    }

    private static final class UntaggedMessage {
        final int msn;
        long octets;
        int segments;

        UntaggedMessage(int msn, long octets, int segments) {
            this.msn = msn;
            this.octets = octets;
            this.segments = segments;
        }
    }

    private static final class TaggedMessage {
        final int stag;
        final int rdmapControl;
        final long firstTo;
        long nextTo;
        long length;
        int segments = 1;

        TaggedMessage(int stag, int rdmapControl, long firstTo, long length) {
            this.stag = stag;
            this.rdmapControl = rdmapControl;
            this.firstTo = firstTo;
            this.nextTo = firstTo + length;
            this.length = length;
        }
    }

    private sealed interface Request permits Read, Atomic {
        String ref();
    }

    private static final class Read implements Request {
        final String ref;
        final int msn;
        final int sinkStag;
        final long sinkTo;
        final long size;
        long remaining;
        long nextTo;

        Read(String ref, int msn, int sinkStag, long sinkTo, long size) {
            this.ref = ref;
            this.msn = msn;
            this.sinkStag = sinkStag;
            this.sinkTo = sinkTo;
            this.size = size;
            this.remaining = size;
            this.nextTo = sinkTo;
        }

        @Override
        public String ref() {
            return ref;
        }
    }

    private record Atomic(String ref, int msn, int requestId) implements Request {}

    private record Sent(byte[] header, int segmentLength, String ref) {}
}
