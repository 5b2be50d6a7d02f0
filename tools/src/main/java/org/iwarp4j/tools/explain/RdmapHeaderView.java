package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The fixed RDMAP headers after the untagged DDP header, read with the rdmap module's flyweights and
 * shown field by field: Read Request (RFC 5040 §4.4), Atomic Request and Atomic Response
 * (RFC 7306 §5.2.1, §5.2.2).
 */
final class RdmapHeaderView {

    private RdmapHeaderView() {}

    /** JSON {@code "readRequest": {"sinkStag", "sinkTo", "size", "srcStag", "srcTo"}}. */
    static Layer readRequest(ByteBuf buffer, int index, String heading) {
        ReadRequestHeader h = new ReadRequestHeader().wrap(buffer, index);
        Layer l = new Layer(heading + "  " + ReadRequestHeader.LENGTH + " octets (" + Rfc.RDMAP_READ_REQUEST + ")",
                "readRequest");
        l.field("Data Sink STag", Values.stag(h.sinkStag()), Rfc.RDMAP_READ_REQUEST,
                "the requester's buffer for the data: the Read Response carries this STag; "
                + Values.stagParts(h.sinkStag()), "sinkStag", Values.stagJson(h.sinkStag()));
        l.field("Data Sink TO", Values.hex64(h.sinkTaggedOffset()), Rfc.RDMAP_READ_REQUEST,
                "... and starts at this Tagged Offset", "sinkTo", Values.hex64Json(h.sinkTaggedOffset()));
        l.field("RDMA Read Message Size", Values.u32(h.messageSize()), Rfc.RDMAP_READ_REQUEST, h.messageSize() == 0
                        ? "octets to read: none (a zero-length Read, e.g. an RFC 6581 Read RTR; the source is not "
                        + "checked)"
                        : "octets to read", "size", Values.u32Json(h.messageSize()));
        l.field("Data Source STag", Values.stag(h.sourceStag()), Rfc.RDMAP_READ_REQUEST,
                "the responder's buffer to read from; " + Values.stagParts(h.sourceStag()),
                "srcStag", Values.stagJson(h.sourceStag()));
        l.field("Data Source TO", Values.hex64(h.sourceTaggedOffset()), Rfc.RDMAP_READ_REQUEST,
                "... starting at this Tagged Offset", "srcTo", Values.hex64Json(h.sourceTaggedOffset()));
        return l;
    }

    /** JSON {@code "atomic": {"reserved", "aopcode", "aopcodeName", "requestId", "remoteStag", "remoteTo", ...}}. */
    static Layer atomicRequest(ByteBuf buffer, int index) {
        AtomicRequestHeader h = new AtomicRequestHeader().wrap(buffer, index);
        int code = h.atomicOpcodeCode();
        AtomicOpcode op = AtomicOpcode.fromCode(code);
        boolean cmpSwap = op == AtomicOpcode.CMP_SWAP;
        Layer l = new Layer("Atomic Request header  " + AtomicRequestHeader.LENGTH + " octets (" + Rfc.ATOMIC_REQUEST
                + ")", "atomic");
        int reserved = buffer.getInt(index + AtomicRequestHeader.AOPCODE_OFFSET) >>> 4;
        l.field("Reserved", Values.hex(reserved, 7), Rfc.ATOMIC_REQUEST, reserved == 0
                ? "28 bits: sent as 0, ignored" : "28 bits, NOT 0: senders send 0, receivers ignore it",
                "reserved", Json.num(reserved));
        l.field("AOpCode", Values.hex(code, 1), Rfc.ATOMIC_REQUEST, op == null
                        ? (code == 1 ? "reserved" : "not assigned")
                        + ": a responder reports an unexpected opcode (0x0/0x2/0x06)"
                        : op == AtomicOpcode.FETCH_ADD
                        ? "FetchAdd: add to the 64-bit word, return what it held (" + Rfc.ATOMIC_SEMANTICS + ")"
                        : "CmpSwap: compare the 64-bit word, swap if equal, return what it held ("
                        + Rfc.ATOMIC_SEMANTICS + ")",
                "aopcode", Json.num(code));
        l.json("aopcodeName", op == null ? Json.Null.NULL : Json.str(op.displayName()));
        l.field("Request Identifier", Values.u32(h.requestId()), Rfc.ATOMIC_REQUEST,
                "chosen by the requester; the Atomic Response echoes it", "requestId", Values.u32Json(h.requestId()));
        l.field("Remote STag", Values.stag(h.remoteStag()), Rfc.ATOMIC_REQUEST,
                "the responder's buffer holding the target word; " + Values.stagParts(h.remoteStag()),
                "remoteStag", Values.stagJson(h.remoteStag()));
        boolean aligned = AtomicMath.isAligned(h.remoteTaggedOffset());
        l.field("Remote TO", Values.hex64(h.remoteTaggedOffset()), Rfc.ATOMIC_REQUEST, aligned
                        ? "the target 64-bit word; 8-octet aligned as required"
                        : "the target 64-bit word: NOT 8-octet aligned, the operation must not be performed ("
                        + Rfc.EXT_ERRORS + ")",
                "remoteTo", Values.hex64Json(h.remoteTaggedOffset()));
        l.field("Add or Swap Data", Values.hex64(h.addOrSwapData()), Rfc.ATOMIC_REQUEST,
                cmpSwap ? "the value swapped in when the compare matches" : "the value to add",
                "addOrSwapData", Values.hex64Json(h.addOrSwapData()));
        l.field("Add or Swap Mask", Values.hex64(h.addOrSwapMask()), Rfc.ATOMIC_REQUEST, cmpSwap
                        ? "the bits that are swapped (all ones: a plain swap)"
                        : "field boundaries: a 1 marks a field's top bit, whose carry is dropped (0: one 64-bit add)",
                "addOrSwapMask", Values.hex64Json(h.addOrSwapMask()));
        l.field("Compare Data", Values.hex64(h.compareData()), Rfc.ATOMIC_REQUEST,
                cmpSwap ? "compared with the target word under Compare Mask" : "not used by FetchAdd (sent as 0)",
                "compareData", Values.hex64Json(h.compareData()));
        l.field("Compare Mask", Values.hex64(h.compareMask()), Rfc.ATOMIC_REQUEST,
                cmpSwap ? "the bits that are compared" : "not used by FetchAdd (sent as all ones)",
                "compareMask", Values.hex64Json(h.compareMask()));
        return l;
    }

    /** JSON {@code "atomic": {"originalRequestId", "originalRemoteData"}}. */
    static Layer atomicResponse(ByteBuf buffer, int index) {
        AtomicResponseHeader h = new AtomicResponseHeader().wrap(buffer, index);
        Layer l = new Layer("Atomic Response header  " + AtomicResponseHeader.LENGTH + " octets (" + Rfc.ATOMIC_RESPONSE
                + ")", "atomic");
        l.field("Original Request Identifier", Values.u32(h.originalRequestId()), Rfc.ATOMIC_RESPONSE,
                "the Request Identifier of the Atomic Request this answers", "originalRequestId",
                Values.u32Json(h.originalRequestId()));
        l.field("Original Remote Data Value", Values.hex64(h.originalRemoteData()), Rfc.ATOMIC_RESPONSE,
                "what the target word held before the operation", "originalRemoteData",
                Values.hex64Json(h.originalRemoteData()));
        return l;
    }
}
