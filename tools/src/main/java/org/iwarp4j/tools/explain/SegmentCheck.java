package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
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
 *       0x1/0x2/0x06), the untagged QN is one of RFC 7306's queues 0..3 (0x1/0x2/0x01);</li>
 *   <li>RDMAP's admission ({@code InboundDispatcher}): a Terminate on QN 2 is read whatever else is wrong
 *       with it; otherwise RV = 1 (0x0/0x2/0x05), the opcode is assigned and its T flag and QN are the
 *       opcode's (0x0/0x2/0x06); Immediate Data carries exactly 8 octets and the Read Request, Atomic
 *       Request and Atomic Response headers arrive whole in one segment (0x0/0x2/0xFF);</li>
 *   <li>the responder ({@code Responder}): an Atomic Request's AOpCode is FetchAdd or CmpSwap
 *       (0x0/0x2/0x06) and its target TO is 8-octet aligned (0x0/0x2/0x07).</li>
 * </ol>
 *
 * Everything that needs the receiver's state — STags and their bounds, posted buffers, MSN windows,
 * outstanding Reads — is left to the notes of {@link MessageTracker}. RFC 7306 is taken to be enabled
 * (an RFC 5040-only receiver such as Linux siw answers opcodes 0x8–0xB and QN 3 with a Terminate too).
 * {@code ExplainTerminateParityTest} feeds each failure to the real stack and compares.
 */
final class SegmentCheck {

    /** A header a receiver answers with a Terminate: the cause, what was found, the rule broken. */
    record Violation(TerminateCause cause, String found, String rfc) {}

    private SegmentCheck() {}

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
        if (f instanceof DdpFields.Untagged u) {
            // RFC 5041 §7.1 check 1: the QN is valid for the stream (RFC 7306 queues 0..3).
            if (Integer.compareUnsigned(u.queueNumber(), DdpReceiver.QUEUES_RFC7306) >= 0) {
                return ddp(DdpError.INVALID_QN, "QN " + Values.u32(u.queueNumber()) + " (RDMAP uses 0..3)", Rfc.DDP_ERRORS);
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
                    + Values.u32(u.queueNumber()) + (opcode.tagged() ? " (it is tagged)" : " (it belongs on QN " + opcode.queueNumber() + ")"),
                    Rfc.RDMAP_OPCODES);
        }
        return switch (opcode) {
            // RFC 7306 §6.2 [EXT-02]: exactly 8 octets; else 0x0/0x2/0xFF Unspecified Error (the RFC names no code).
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> whole(u, ImmediateDataHeader.LENGTH)
                    ? null : rdmap(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, "Immediate Data must be exactly 8 octets "
                    + "in one segment; got " + shape(u), Rfc.IMMEDIATE_DATA);
            case RDMA_READ_REQUEST -> whole(u, ReadRequestHeader.LENGTH) ? null : incomplete(u, opcode, Rfc.RDMAP_READ_REQUEST);
            case ATOMIC_RESPONSE -> whole(u, AtomicResponseHeader.LENGTH) ? null : incomplete(u, opcode, Rfc.ATOMIC_RESPONSE);
            case ATOMIC_REQUEST -> whole(u, AtomicRequestHeader.LENGTH) ? atomic(segment) : incomplete(u, opcode, Rfc.ATOMIC_REQUEST);
            default -> null;
        };
    }

    /** RFC 5040 §4.1 [RDMAP-01]: RV 01b; RFC 5040 §4.2, RFC 7306 §4.1: an assigned opcode. */
    private static Violation control(int rdmapControl) {
        int rv = RdmapControl.version(rdmapControl);
        if (rv != RdmapControl.RDMAP_VERSION) {
            return rdmap(TerminateCause.RDMAP_INVALID_VERSION, "RV=" + rv + " (RFC 5040 speaks version 1)", Rfc.RDMAP_CONTROL);
        }
        if (RdmapControl.opcode(rdmapControl) == null) {
            int code = RdmapControl.opcodeCode(rdmapControl);
            return rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE, String.format("opcode 0x%x is %s", code,
                    code == 0xF ? "reserved for experimental use" : "not assigned"), Rfc.RDMAP_OPCODES);
        }
        return null;
    }

    /** RFC 7306 §5.2.1 [EXT-10]: FetchAdd or CmpSwap; §5.1, §8.2 [EXT-04]: an 8-octet aligned target. */
    private static Violation atomic(ByteBuf segment) {
        AtomicRequestHeader h = new AtomicRequestHeader().wrap(segment, UntaggedHeaderFlyweight.HEADER_LENGTH);
        if (AtomicOpcode.fromCode(h.atomicOpcodeCode()) == null) {
            return rdmap(TerminateCause.RDMAP_UNEXPECTED_OPCODE, String.format("AOpCode 0x%x is neither FetchAdd (0x0) nor CmpSwap (0x2)",
                    h.atomicOpcodeCode()), Rfc.ATOMIC_REQUEST);
        }
        if (!AtomicMath.isAligned(h.remoteTaggedOffset())) {
            return rdmap(TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED, "the target Remote TO " + Values.hex64(h.remoteTaggedOffset())
                    + " is not 8-octet aligned", Rfc.EXT_ERRORS);
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
        return Origin.octets(u.payloadLength()) + " at MO " + Values.u32(u.messageOffset()) + (u.last() ? ", L=1" : ", L=0");
    }

    private static Violation ddp(DdpError error, String found, String rfc) {
        return new Violation(TerminateCause.of(error.layer(), error.type().value(), error.code()), found, rfc);
    }

    private static Violation rdmap(TerminateCause cause, String found, String rfc) {
        return new Violation(cause, found, rfc);
    }
}
