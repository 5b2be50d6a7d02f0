package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.TaggedAccessCheck;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;

/**
 * The checks a receiving iwarp4j stack makes on a DDP segment that need nothing but the segment
 * itself, in the order the stack makes them, with the Terminate it answers (RFC 5040 §4.8, RFC 5041 §7.2):
 *
 * <ol>
 *   <li>{@code DdpReceiver}: the complete DDP header is there (0x1/0x0/0x00), DV = 1 (0x1/0x1/0x04,
 *       0x1/0x2/0x06); tagged: TO + payload length stays below 2^64 (0x1/0x1/0x03, RFC 5041 §7.1);
 *       untagged: the QN is one of RFC 7306's queues 0..3 (0x1/0x2/0x01) and MO + payload length stays
 *       below 2^32, the bound on a DDP message (0x1/0x2/0x05, RFC 5041 §5.2, §7.1);</li>
 *   <li>RDMAP's admission ({@code InboundDispatcher}): a Terminate on QN 2 is read whatever else is wrong
 *       with it; otherwise RV = 1 (0x0/0x2/0x05), the opcode is assigned and its T flag and QN are the
 *       opcode's (0x0/0x2/0x06); Immediate Data carries exactly 8 octets and the Read Request, Atomic
 *       Request and Atomic Response headers arrive whole in one segment (0x0/0x2/0xFF);</li>
 *   <li>the responder ({@code Responder}), once the request is delivered: a Read Request of non-zero size
 *       whose Data Source TO + size, or Data Sink TO + size, reaches 2^64 (0x0/0x1/0x04, RFC 5040 §7.2); an
 *       Atomic Request's AOpCode is FetchAdd or CmpSwap (0x0/0x2/0x06), its target TO is 8-octet aligned
 *       (0x0/0x2/0x07) and its 8 octets end below 2^64 (0x0/0x1/0x04, RFC 7306 §8.2).</li>
 * </ol>
 *
 * The RFCs list their checks without an order; the stack makes these octet-only ones before any that
 * consults its state, so the Terminate for such a segment is the same whatever the receiver holds.
 * Everything that needs that state — STags and their bounds, posted buffers, MSN windows, outstanding
 * Reads — is left to the notes of {@link MessageTracker}; the responder's verdicts hold for a request that
 * is delivered (its MSN is the next one on QN 1). Reserved fields are not checked: the RFCs make senders
 * zero them and receivers ignore them (RFC 5041 §4.1, RFC 5040 §4.1, §4.8, RFC 7306 §5.2.1). A received
 * Terminate is never answered with one (RFC 5040 §5.4), however inconsistent its own layout; explain
 * warns about that instead ({@link MessageTracker#terminate}). RFC 7306 is taken to be enabled (an RFC
 * 5040-only receiver such as Linux siw answers opcodes 0x8–0xB and QN 3 with a Terminate too).
 * {@code ExplainTerminateWorthyTest} feeds each failure to the real stack and compares.
 *
 * <p>{@link #verdict(ByteBuf, int, int)} is the entry point for other tools (e.g. the conformance
 * tools): it answers "which Terminate must a receiver send for these segment octets, if any". It is
 * cheap: it copies no octets, reads only the headers, and builds its text only for a segment it rejects.
 */
public final class SegmentCheck {

    /**
     * A segment a receiver answers with a Terminate: the cause (Layer / EType / Code), what was found, the
     * RFC section of the rule broken.
     */
    public record Violation(TerminateCause cause, String found, String rfc) {
        public Violation {
            Objects.requireNonNull(cause, "cause");
        }

        /** The Terminate's Layer: 0 RDMAP, 1 DDP. */
        public int layer() {
            return cause.layer().value();
        }

        /** The Terminate's Error Type. */
        public int errorType() {
            return cause.errorType().value();
        }

        /** The Terminate's Error Code. */
        public int errorCode() {
            return cause.code();
        }
    }

    private SegmentCheck() {}

    /**
     * The Terminate a receiver must answer the DDP segment at {@code buffer[index, index + length)} with —
     * one MPA ULPDU, DDP header and payload, without MPA's ULPDU_Length, PAD or CRC — or empty when
     * nothing in the octets alone makes it reject the segment. Reads {@code buffer} without moving its
     * indices or releasing it.
     */
    public static Optional<Violation> verdict(ByteBuf buffer, int index, int length) {
        ByteBuf segment = index == 0 ? buffer : buffer.slice(index, length);
        return Optional.ofNullable(check(DdpFields.read(segment, 0, length), segment));
    }

    /** {@link #verdict(ByteBuf, int, int)} for a whole array: one DDP segment. */
    public static Optional<Violation> verdict(byte[] segment) {
        return verdict(Unpooled.wrappedBuffer(segment), 0, segment.length);
    }


    /** Checks the segment at {@code segment[0, f.segmentLength())}; {@code null} when a receiver accepts its header. */
    static Violation check(DdpFields f, ByteBuf segment) {
        if (f instanceof DdpFields.Incomplete) {
            // RFC 5041 §4: every segment carries its complete header; the RFC has no code for a short one.
            return ddp(DdpError.LOCAL_CATASTROPHIC, f.control() < 0 ? "an empty segment: no DDP header"
                    : "a segment of " + Origin.octets(f.segmentLength()) + " is shorter than its " + f.headerLength()
                    + "-octet " + (f.tagged() ? "tagged" : "untagged") + " DDP header", Rfc.DDP_HEADERS);
        }
        int dv = DdpControl.version(f.control());
        if (dv != DdpControl.DDP_VERSION) {
            // RFC 5041 §4.1: DV MUST be 1; §7.2 codes it per buffer model.
            return ddp(f.tagged() ? DdpError.TAGGED_INVALID_DDP_VERSION : DdpError.UNTAGGED_INVALID_DDP_VERSION,
                    "DV=" + dv + " (RFC 5041 speaks version 1)", Rfc.DDP_CONTROL);
        }
        int rdmapControl = f.rdmapControl();
        if (f instanceof DdpFields.Tagged t && TaggedAccessCheck.wraps(t.taggedOffset(), t.payloadLength())) {
            // RFC 5041 §7.1 check 5: the 64-bit sum TO + payload length must not wrap; it needs no STag.
            return ddp(DdpError.TO_WRAP, "TO " + Values.hex64(t.taggedOffset()) + " + "
                    + Origin.octets(t.payloadLength()) + " reaches 2^64", Rfc.DDP_ERRORS);
        }
        if (f instanceof DdpFields.Untagged u) {
            // RFC 5041 §7.1 check 1: the QN is valid for the stream (RFC 7306 queues 0..3).
            if (Integer.compareUnsigned(u.queueNumber(), DdpReceiver.QUEUES_RFC7306) >= 0) {
                return ddp(DdpError.INVALID_QN, "QN " + Values.u32(u.queueNumber()) + " (RDMAP uses 0..3)",
                        Rfc.DDP_ERRORS);
            }
            // RFC 5041 §5.2: a DDP message is shorter than 2^32 octets, so §7.1 check 4 fails for every buffer.
            if (DdpReceiver.exceedsMessageLimit(u.messageOffset(), u.payloadLength())) {
                return ddp(DdpError.MESSAGE_TOO_LONG, "MO " + Values.u32(u.messageOffset()) + " + "
                        + Origin.octets(u.payloadLength()) + " reaches 2^32: no DDP message is that long",
                        Rfc.DDP_MESSAGE_LENGTH);
            }
            if (u.queueNumber() == RdmapOpcode.QN_TERMINATE
                    && RdmapControl.opcodeCode(rdmapControl) == RdmapOpcode.TERMINATE.code()) {
                return null; // RFC 5040 §5.4: a Terminate ends the stream; it is read leniently, whatever its RV.
            }
        }
        Violation control = control(rdmapControl);
        if (control != null) {
            return control;
        }
        RdmapOpcode opcode = RdmapControl.opcode(rdmapControl);
        if (f instanceof DdpFields.Tagged) {
            return opcode.tagged() ? null : rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE,
                    opcode.displayName() + " on a tagged segment (it is untagged, QN " + opcode.queueNumber() + ")",
                    Rfc.RDMAP_OPCODES);
        }
        DdpFields.Untagged u = (DdpFields.Untagged) f;
        if (opcode.tagged() || opcode.queueNumber() != u.queueNumber()) {
            return rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE, opcode.displayName() + " on untagged queue "
                    + Values.u32(u.queueNumber())
                    + (opcode.tagged() ? " (it is tagged)" : " (it belongs on QN " + opcode.queueNumber() + ")"),
                    Rfc.RDMAP_OPCODES);
        }
        return switch (opcode) {
            // RFC 7306 §6.2 [EXT-02]: exactly 8 octets; else 0x0/0x2/0xFF Unspecified Error (the RFC names no code).
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> whole(u, ImmediateDataHeader.LENGTH)
                    ? null : rdmap(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED,
                            "Immediate Data must be exactly 8 octets in one segment; got " + shape(u),
                            Rfc.IMMEDIATE_DATA);
            case RDMA_READ_REQUEST -> whole(u, ReadRequestHeader.LENGTH) ? read(segment)
                    : incomplete(u, opcode, Rfc.RDMAP_READ_REQUEST);
            case ATOMIC_RESPONSE ->
                    whole(u, AtomicResponseHeader.LENGTH) ? null : incomplete(u, opcode, Rfc.ATOMIC_RESPONSE);
            case ATOMIC_REQUEST ->
                    whole(u, AtomicRequestHeader.LENGTH) ? atomic(segment) : incomplete(u, opcode, Rfc.ATOMIC_REQUEST);
            default -> null;
        };
    }

    /** RFC 5040 §4.1 [RDMAP-01]: RV 01b; RFC 5040 §4.2, RFC 7306 §4.1: an assigned opcode. */
    private static Violation control(int rdmapControl) {
        int rv = RdmapControl.version(rdmapControl);
        if (rv != RdmapControl.RDMAP_VERSION) {
            return rdmap(TerminateCause.RDMAP_INVALID_VERSION, "RV=" + rv + " (RFC 5040 speaks version 1)",
                    Rfc.RDMAP_CONTROL);
        }
        if (RdmapControl.opcode(rdmapControl) == null) {
            int code = RdmapControl.opcodeCode(rdmapControl);
            return rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "opcode " + Values.hex(code, 1) + " is "
                    + (code == 0xF ? "reserved for experimental use" : "not assigned"), Rfc.RDMAP_OPCODES);
        }
        return null;
    }

    /**
     * RFC 5040 §7.2 [RDMAP-31]: a non-zero Read's Data Source TO + size must not wrap. The Data Sink's is the
     * requester's to check (RFC 5041 §7.1 on the Read Response); the RFC leaves the responder free, and
     * iwarp4j refuses the request with the same code, since a Read Response there could never be placed.
     * RFC 5040 §5.2: a zero-size Read is not validated.
     */
    private static Violation read(ByteBuf segment) {
        ReadRequestHeader h = new ReadRequestHeader().wrap(segment, UntaggedHeaderFlyweight.HEADER_LENGTH);
        long size = Integer.toUnsignedLong(h.messageSize());
        if (TaggedAccessCheck.wraps(h.sourceTaggedOffset(), size)) {
            return rdmap(TerminateCause.RDMAP_TO_WRAP, "the Data Source TO " + Values.hex64(h.sourceTaggedOffset())
                    + " + RDMA Read Message Size " + size + " reaches 2^64", Rfc.RDMAP_VALIDATION);
        }
        if (TaggedAccessCheck.wraps(h.sinkTaggedOffset(), size)) {
            return rdmap(TerminateCause.RDMAP_TO_WRAP, "the Data Sink TO " + Values.hex64(h.sinkTaggedOffset())
                    + " + RDMA Read Message Size " + size + " reaches 2^64: no Read Response could be placed there "
                    + "(the RFC leaves this check to the requester; iwarp4j's responder refuses the request)",
                    Rfc.RDMAP_READ_RESPONSE);
        }
        return null;
    }

    /**
     * RFC 7306 §5.2.1 [EXT-10]: FetchAdd or CmpSwap; §5.1, §8.2 [EXT-04]: an 8-octet aligned target;
     * §8.2: the target validated as a Read's source, whose 8 octets must not wrap.
     */
    private static Violation atomic(ByteBuf segment) {
        AtomicRequestHeader h = new AtomicRequestHeader().wrap(segment, UntaggedHeaderFlyweight.HEADER_LENGTH);
        if (AtomicOpcode.fromCode(h.atomicOpcodeCode()) == null) {
            return rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE, "AOpCode " + Values.hex(h.atomicOpcodeCode(), 1)
                    + " is neither FetchAdd (0x0) nor CmpSwap (0x2)", Rfc.ATOMIC_REQUEST);
        }
        if (!AtomicMath.isAligned(h.remoteTaggedOffset())) {
            return rdmap(TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED,
                    "the target Remote TO " + Values.hex64(h.remoteTaggedOffset())
                    + " is not 8-octet aligned", Rfc.EXT_ERRORS);
        }
        if (TaggedAccessCheck.wraps(h.remoteTaggedOffset(), Long.BYTES)) {
            return rdmap(TerminateCause.RDMAP_TO_WRAP, "the target Remote TO " + Values.hex64(h.remoteTaggedOffset())
                    + " + 8 octets reaches 2^64", Rfc.EXT_ERRORS);
        }
        return null;
    }

    /** The stack takes fixed headers only whole, in one segment: MO 0, L=1, exactly the header's length. */
    private static boolean whole(DdpFields.Untagged u, int length) {
        return u.messageOffset() == 0 && u.last() && u.payloadLength() == length;
    }

    private static Violation incomplete(DdpFields.Untagged u, RdmapOpcode opcode, String rfc) {
        return rdmap(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, "the " + opcode.headerLength() + "-octet "
                + opcode.displayName() + " header must arrive whole in one segment; got " + shape(u), rfc);
    }

    private static String shape(DdpFields.Untagged u) {
        return Origin.octets(u.payloadLength()) + " at MO " + Values.u32(u.messageOffset())
                + (u.last() ? ", L=1" : ", L=0");
    }

    private static Violation ddp(DdpError error, String found, String rfc) {
        return new Violation(TerminateCause.of(error.layer(), error.type().value(), error.code()), found, rfc);
    }

    private static Violation rdmap(TerminateCause cause, String found, String rfc) {
        return new Violation(cause, found, rfc);
    }
}
