package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The ULPDU of an FPDU as the layers above MPA see it: one DDP segment (RFC 5041 §4) whose header carries
 * the RDMAP control field (RFC 5040 §4.1), then the RDMAP header of the opcode and the payload. Decoded
 * with the ddp and rdmap modules' own flyweights; shows fields only, it does not validate a message
 * against the state of a stream (MSNs, sinks, sizes).
 */
final class SegmentView {

    private SegmentView() {}

    /** The DDP layer (with the RDMAP layer nested) of {@code ulpdu}. */
    static Layer of(byte[] ulpdu) {
        Layer ddp = new Layer("DDP segment (RFC 5041 §4)", "ddp");
        if (ulpdu.length < 2) {
            return ddp.note("Too short for a DDP header (" + Origin.octets(ulpdu.length) + "): nothing to decode.")
                    .json("error", Json.str("short"));
        }
        ByteBuf buf = Unpooled.wrappedBuffer(ulpdu);
        int control = buf.getUnsignedByte(0);
        boolean tagged = DdpControl.isTagged(control);
        boolean last = DdpControl.isLast(control);
        ddp.field("T (tagged)", bit(tagged), Rfc.DDP_CONTROL, tagged
                        ? "tagged buffer model: placed at an STag and Tagged Offset the data sink advertised"
                        : "untagged buffer model: placed in the next buffer the data sink queued on QN",
                "tagged", Json.bool(tagged));
        ddp.field("L (last)", bit(last), Rfc.DDP_CONTROL, last ? "the last segment of its DDP message"
                : "more segments of this message follow", "last", Json.bool(last));
        int reserved = DdpControl.reserved(control);
        if (reserved != 0) {
            ddp.row("Rsvd", "0x" + Integer.toHexString(reserved), Rfc.DDP_CONTROL, "NOT 0: reserved bits are sent as 0");
        }
        int dv = DdpControl.version(control);
        ddp.field("DV", Integer.toString(dv), Rfc.DDP_CONTROL, dv == DdpControl.DDP_VERSION ? "DDP version 1"
                : "NOT 1: a receiver terminates with DDP error 0x1/0x?/0x06 (invalid DDP version)", "dv", Json.num(dv));
        int headerLength = tagged ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
        if (ulpdu.length < headerLength) {
            return ddp.note("Too short for a " + (tagged ? "tagged" : "untagged") + " DDP header of " + headerLength
                    + " octets: " + Origin.octets(ulpdu.length) + ".").json("error", Json.str("short"));
        }
        int rdmapControl = buf.getUnsignedByte(RdmapControl.OFFSET);
        Integer invalidateStag = null;
        if (tagged) {
            TaggedHeaderFlyweight h = new TaggedHeaderFlyweight().wrap(buf, 0);
            ddp.field("STag", hex8(h.stag()), Rfc.DDP_TAGGED, "the data sink's Steering Tag: names the registered buffer",
                    "stag", Json.num(h.stag() & 0xffffffffL));
            ddp.field("TO", String.format("0x%016x", h.taggedOffset()), Rfc.DDP_TAGGED,
                    "Tagged Offset of the first payload octet in that buffer", "to", Json.str(hex16(h.taggedOffset())));
        } else {
            UntaggedHeaderFlyweight h = new UntaggedHeaderFlyweight().wrap(buf, 0);
            invalidateStag = h.rsvdUlpWord();
            ddp.field("QN", Integer.toUnsignedString(h.queueNumber()), Rfc.DDP_UNTAGGED, queueName(h.queueNumber()),
                    "qn", Json.num(h.queueNumber() & 0xffffffffL));
            ddp.field("MSN", Integer.toUnsignedString(h.messageSequenceNumber()), Rfc.DDP_UNTAGGED,
                    "Message Sequence Number: the message's place on its queue (from 1)",
                    "msn", Json.num(h.messageSequenceNumber() & 0xffffffffL));
            ddp.field("MO", Integer.toUnsignedString(h.messageOffset()), Rfc.DDP_UNTAGGED,
                    "Message Offset: where this segment's payload starts in the message",
                    "mo", Json.num(h.messageOffset() & 0xffffffffL));
        }
        ddp.child(rdmap(buf, headerLength, rdmapControl, invalidateStag));
        return ddp;
    }

    private static Layer rdmap(ByteBuf buf, int at, int control, Integer invalidateStag) {
        int code = RdmapControl.opcodeCode(control);
        RdmapOpcode op = RdmapOpcode.fromCode(code);
        String name = op == null ? "unassigned opcode 0x" + Integer.toHexString(code) : op.displayName();
        Layer l = new Layer("RDMAP " + name + " (" + section(op) + ")", "rdmap");
        int rv = RdmapControl.version(control);
        l.field("RV", Integer.toString(rv), Rfc.RDMAP_CONTROL, rv == RdmapControl.RDMAP_VERSION ? "RDMAP version 1"
                : "NOT 1: the receiver terminates (0x0/0x2/0x05 invalid RDMAP version)", "rv", Json.num(rv));
        l.field("Opcode", String.format("0x%x", code), Rfc.RDMAP_CONTROL, name, "opcode", Json.num(code));
        l.json("message", Json.str(op == null ? "unknown" : op.name()));
        if (op == null) {
            return l.note("Not an RDMAP opcode: a receiver terminates with 0x0/0x2/0x06 (unexpected opcode).");
        }
        if (op.carriesInvalidateStag() && invalidateStag != null) {
            l.field("Invalidate STag", hex8(invalidateStag), Rfc.RDMAP_CONTROL,
                    "the data sink invalidates this STag before it completes the receive",
                    "invalidateStag", Json.num(invalidateStag & 0xffffffffL));
        }
        int rest = buf.readableBytes() - at;
        if (rest < op.headerLength()) {
            return l.note("Too short for the " + op.headerLength() + "-octet " + name + " header: "
                    + Origin.octets(rest) + ".");
        }
        switch (op) {
            case RDMA_READ_REQUEST -> readRequest(l, new ReadRequestHeader().wrap(buf, at));
            case TERMINATE -> terminate(l, buf, at, rest);
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> {
                long data = new ImmediateDataHeader().wrap(buf, at).immediateData();
                l.field("Immediate Data", String.format("0x%016x", data), Rfc.IMMEDIATE_DATA,
                        "8 octets delivered in the data sink's receive completion", "immediateData", Json.str(hex16(data)));
            }
            case ATOMIC_REQUEST -> atomicRequest(l, new AtomicRequestHeader().wrap(buf, at));
            case ATOMIC_RESPONSE -> {
                AtomicResponseHeader h = new AtomicResponseHeader().wrap(buf, at);
                l.field("Request Identifier", Integer.toUnsignedString(h.originalRequestId()), Rfc.ATOMIC_RESPONSE,
                        "the Atomic Request this answers", "requestId", Json.num(h.originalRequestId() & 0xffffffffL));
                l.field("Original Remote Data", String.format("0x%016x", h.originalRemoteData()), Rfc.ATOMIC_RESPONSE,
                        "the target's value before the operation", "originalRemoteData",
                        Json.str(hex16(h.originalRemoteData())));
            }
            default -> { }
        }
        int payload = rest - (op == RdmapOpcode.TERMINATE ? rest : op.headerLength());
        if (op.carriesPayload()) {
            l.field("Payload", Origin.octets(payload), section(op), payloadMeaning(op), "payloadLength", Json.num(payload));
        }
        return l;
    }

    private static void readRequest(Layer l, ReadRequestHeader h) {
        l.field("Data Sink STag", hex8(h.sinkStag()), Rfc.RDMAP_READ_REQUEST, "where the Read Response is placed",
                "sinkStag", Json.num(h.sinkStag() & 0xffffffffL));
        l.field("Data Sink TO", String.format("0x%016x", h.sinkTaggedOffset()), Rfc.RDMAP_READ_REQUEST, "",
                "sinkTo", Json.str(hex16(h.sinkTaggedOffset())));
        l.field("RDMA Read Size", Integer.toUnsignedString(h.messageSize()), Rfc.RDMAP_READ_REQUEST, "octets to read",
                "size", Json.num(h.messageSize() & 0xffffffffL));
        l.field("Data Source STag", hex8(h.sourceStag()), Rfc.RDMAP_READ_REQUEST, "the buffer read from (the responder's)",
                "sourceStag", Json.num(h.sourceStag() & 0xffffffffL));
        l.field("Data Source TO", String.format("0x%016x", h.sourceTaggedOffset()), Rfc.RDMAP_READ_REQUEST, "",
                "sourceTo", Json.str(hex16(h.sourceTaggedOffset())));
    }

    private static void atomicRequest(Layer l, AtomicRequestHeader h) {
        int code = h.atomicOpcodeCode();
        AtomicOpcode op = AtomicOpcode.fromCode(code);
        l.field("Atomic Operation", String.format("0x%x", code), Rfc.ATOMIC_REQUEST,
                op == null ? "unknown atomic operation" : op.displayName(), "atomicOpcode", Json.num(code));
        l.field("Request Identifier", Integer.toUnsignedString(h.requestId()), Rfc.ATOMIC_REQUEST,
                "echoed in the Atomic Response", "requestId", Json.num(h.requestId() & 0xffffffffL));
        l.field("Remote STag", hex8(h.remoteStag()), Rfc.ATOMIC_REQUEST, "the target word's buffer",
                "remoteStag", Json.num(h.remoteStag() & 0xffffffffL));
        l.field("Remote TO", String.format("0x%016x", h.remoteTaggedOffset()), Rfc.ATOMIC_REQUEST,
                "the 8-octet-aligned target word", "remoteTo", Json.str(hex16(h.remoteTaggedOffset())));
        l.field("Add/Swap Data", String.format("0x%016x", h.addOrSwapData()), Rfc.ATOMIC_REQUEST, "",
                "addOrSwapData", Json.str(hex16(h.addOrSwapData())));
        l.field("Add/Swap Mask", String.format("0x%016x", h.addOrSwapMask()), Rfc.ATOMIC_REQUEST, "",
                "addOrSwapMask", Json.str(hex16(h.addOrSwapMask())));
        l.field("Compare Data", String.format("0x%016x", h.compareData()), Rfc.ATOMIC_REQUEST, "",
                "compareData", Json.str(hex16(h.compareData())));
        l.field("Compare Mask", String.format("0x%016x", h.compareMask()), Rfc.ATOMIC_REQUEST, "",
                "compareMask", Json.str(hex16(h.compareMask())));
    }

    private static void terminate(Layer l, ByteBuf buf, int at, int rest) {
        try {
            Terminate t = TerminateDecoder.decode(buf, at, rest);
            l.field("Terminate", String.format("0x%x/0x%x/0x%02x", t.layer(), t.errorType(), t.errorCode()),
                    Rfc.RDMAP_TERMINATE, t.describe(), "terminate", Json.obj("layer", Json.num(t.layer()),
                            "errorType", Json.num(t.errorType()), "errorCode", Json.num(t.errorCode())));
        } catch (RuntimeException e) {
            l.note("The Terminate cannot be decoded: " + e.getMessage());
        }
    }

    private static String payloadMeaning(RdmapOpcode op) {
        return switch (op) {
            case RDMA_WRITE -> "placed at STag/TO by DDP; no receive is consumed";
            case RDMA_READ_RESPONSE -> "the data read, placed at the Read Request's sink STag/TO";
            default -> "placed in the receive buffer at MO";
        };
    }

    private static String section(RdmapOpcode op) {
        if (op == null) {
            return Rfc.RDMAP_CONTROL;
        }
        return switch (op) {
            case RDMA_WRITE -> Rfc.RDMAP_WRITE;
            case RDMA_READ_REQUEST -> Rfc.RDMAP_READ_REQUEST;
            case RDMA_READ_RESPONSE -> Rfc.RDMAP_READ_RESPONSE;
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE -> Rfc.RDMAP_SEND;
            case TERMINATE -> Rfc.RDMAP_TERMINATE;
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> Rfc.IMMEDIATE_DATA;
            case ATOMIC_REQUEST -> Rfc.ATOMIC_REQUEST;
            case ATOMIC_RESPONSE -> Rfc.ATOMIC_RESPONSE;
        };
    }

    private static String queueName(int qn) {
        return switch (qn) {
            case RdmapOpcode.QN_SEND -> "queue 0: Send and Immediate Data messages";
            case RdmapOpcode.QN_READ_REQUEST -> "queue 1: RDMA Read and Atomic Requests";
            case RdmapOpcode.QN_TERMINATE -> "queue 2: Terminate";
            case RdmapOpcode.QN_ATOMIC_RESPONSE -> "queue 3: Atomic Responses (RFC 7306)";
            default -> "not a queue RDMAP uses";
        };
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }

    private static String hex8(int v) {
        return String.format("0x%08x", v);
    }

    private static String hex16(long v) {
        return String.format("0x%016x", v);
    }
}
