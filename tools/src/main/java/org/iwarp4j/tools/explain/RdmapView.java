package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The RDMAP message a DDP segment carries (RFC 5040 §4, RFC 7306 §4–§6): the control field in RsvdULP,
 * the Invalidate STag, the opcode's own header and the payload. JSON: {@code "rdmap": {"rv", "rsv",
 * "opcode", "opcodeCode", ...}} with the opcode's own fields: {@code "invalidateStag"},
 * {@code "readRequest"}, {@code "terminate"}, {@code "atomic"}, {@code "immediate"}, and
 * {@code "payloadLength"} for the opcodes that carry ULP payload (Write, Read Response, the Sends).
 */
final class RdmapView {

    /** The layer and, for a Terminate, what the decoder made of it. */
    record Decoded(Layer layer, TerminateView.Decoded terminate) {}

    private RdmapView() {}

    /**
     * The RDMAP layer of a segment at {@code segment[0, f.segmentLength())}, or {@code null} if it has no control
     * octet.
     */
    static Decoded segment(DdpFields f, ByteBuf segment, TerminateView.Context context) {
        if (f.rdmapControl() < 0) {
            return null;
        }
        RdmapOpcode opcode = RdmapControl.opcode(f.rdmapControl());
        Layer l = control(f, opcode, "RDMAP");
        TerminateView.Decoded terminate = null;
        int header = 0;
        if (f instanceof DdpFields.Untagged u && opcode != null) {
            int at = UntaggedHeaderFlyweight.HEADER_LENGTH;
            int available = u.payloadLength();
            switch (opcode) {
                case RDMA_READ_REQUEST -> {
                    if (available >= ReadRequestHeader.LENGTH) {
                        l.child(RdmapHeaderView.readRequest(segment, at, "Read Request header"));
                        header = ReadRequestHeader.LENGTH;
                    }
                }
                case ATOMIC_REQUEST -> {
                    if (available >= AtomicRequestHeader.LENGTH) {
                        l.child(RdmapHeaderView.atomicRequest(segment, at));
                        header = AtomicRequestHeader.LENGTH;
                    }
                }
                case ATOMIC_RESPONSE -> {
                    if (available >= AtomicResponseHeader.LENGTH) {
                        l.child(RdmapHeaderView.atomicResponse(segment, at));
                        header = AtomicResponseHeader.LENGTH;
                    }
                }
                case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> {
                    if (available >= ImmediateDataHeader.LENGTH) {
                        byte[] data = new byte[ImmediateDataHeader.LENGTH];
                        segment.getBytes(at + ImmediateDataHeader.IMMEDIATE_DATA_OFFSET, data);
                        l.field("Immediate Data", Values.spacedHex(data), Rfc.IMMEDIATE_DATA,
                                "8 octets for the sink's application, delivered with its next receive like a Send",
                                "immediate", Json.str(Values.hex(data)));
                        header = ImmediateDataHeader.LENGTH;
                    }
                }
                case TERMINATE -> {
                    terminate = TerminateView.of(segment, at, available, context);
                    l.child(terminate.layer());
                    header = available;
                }
                default -> header = 0;
            }
            if (header == 0 && opcode.headerLength() > 0 && opcode != RdmapOpcode.TERMINATE) {
                l.row("Header", Origin.octets(available) + " of " + opcode.headerLength(), opcodeRfc(opcode),
                        "CUT SHORT: the " + opcode.displayName() + " header is incomplete");
                header = available;
            }
        }
        payload(l, f, segment, opcode, header);
        return new Decoded(l, terminate);
    }

    /**
     * The RDMAP view of a Terminate's copied DDP header: its control field, the Invalidate STag and, with
     * {@code rdmaHeader}, the copied Read Request header. {@code null} if the copy has no control octet.
     */
    static Layer copied(DdpFields f, ByteBuf rdmaHeader) {
        if (f.rdmapControl() < 0) {
            return null;
        }
        Layer l = control(f, RdmapControl.opcode(f.rdmapControl()), "RDMAP of the terminated message");
        if (rdmaHeader != null) {
            l.child(RdmapHeaderView.readRequest(rdmaHeader, 0, "Terminated RDMA Header"));
        }
        return l;
    }

    private static Layer control(DdpFields f, RdmapOpcode opcode, String what) {
        int control = f.rdmapControl();
        int code = RdmapControl.opcodeCode(control);
        int rv = RdmapControl.version(control);
        int rsv = RdmapControl.reserved(control);
        Layer l = new Layer(what + "  " + (opcode == null ? "opcode " + Values.hex(code, 1) : opcode.displayName())
                + " (" + opcodeRfc(opcode) + ")", "rdmap");
        l.field("RV", Integer.toString(rv), Rfc.RDMAP_CONTROL,
                        rv == RdmapControl.RDMAP_VERSION ? "RDMAP version 1 (RFC 5040)"
                        : rv == 0 ? "version 0 is the RDMA Consortium's pre-IETF RDMAP, not RFC 5040"
                        : "not an RDMAP version: RFC 5040 and RFC 7306 are version 1",
                "rv", Json.num(rv));
        l.field("Rsv", Integer.toString(rsv), Rfc.RDMAP_CONTROL, rsv == 0 ? "reserved: sent as 0, ignored"
                : "reserved, NOT 0: senders send 0, receivers ignore it", "rsv", Json.num(rsv));
        l.field("Opcode", Values.hex(code, 1), opcodeRfc(opcode), meaning(opcode, code),
                "opcode", opcode == null ? Json.Null.NULL : Json.str(opcode.name()));
        l.json("opcodeCode", Json.num(code));
        if (f instanceof DdpFields.Untagged u) {
            int stag = u.rsvdUlpWord();
            if (opcode != null && opcode.carriesInvalidateStag()) {
                l.field("Invalidate STag", Values.stag(stag), Rfc.RDMAP_CONTROL,
                        "the sink invalidates this STag of its own when the Send is delivered ("
                        + Rfc.RDMAP_SEND_SEMANTICS + "); " + Values.stagParts(stag),
                        "invalidateStag", Values.stagJson(stag));
            } else if (stag != 0) {
                l.row("Invalidate STag", Values.stag(stag), Rfc.RDMAP_CONTROL,
                        "NOT 0, but only the two Send with Invalidate opcodes use it: sent as 0, ignored");
            }
        }
        return l;
    }

    /**
     * The ULP payload of the opcodes that carry one (Write, Read Response, the Sends; JSON
     * {@code payloadLength}); for the others, octets beyond their header.
     */
    private static void payload(Layer l, DdpFields f, ByteBuf segment, RdmapOpcode opcode, int header) {
        if (!(f instanceof DdpFields.Tagged || f instanceof DdpFields.Untagged)) {
            return;
        }
        int ddpPayload = f.payloadLength();
        if (opcode == null) {
            if (ddpPayload > 0) {
                byte[] data = new byte[ddpPayload];
                segment.getBytes(f.headerLength(), data);
                l.dump("Octets", data, Rfc.RDMAP_OPCODES, "after the DDP header, meaning unknown");
            }
            return;
        }
        if (!opcode.carriesPayload()) {
            int extra = ddpPayload - header;
            if (extra > 0) {
                l.row("Extra octets", Origin.octets(extra), opcodeRfc(opcode), "after the " + opcode.displayName()
                        + " header: this message carries no payload");
            }
            return;
        }
        l.json("payloadLength", Json.num(ddpPayload));
        if (ddpPayload > 0) {
            byte[] data = new byte[ddpPayload];
            segment.getBytes(f.headerLength(), data);
            l.dump("Payload", data, opcodeRfc(opcode), payloadMeaning(f, opcode, ddpPayload));
        } else {
            l.row("Payload", "none", opcodeRfc(opcode), "a zero-length " + opcode.displayName());
        }
    }

    private static String payloadMeaning(DdpFields f, RdmapOpcode opcode, int length) {
        if (opcode == null) {
            return "";
        }
        if (f instanceof DdpFields.Tagged t) {
            String range = "TO " + Values.hex(t.taggedOffset(), 1) + ".." + Values.hex(t.taggedOffset() + length - 1, 1)
                    + " of STag " + Values.stag(t.stag());
            return opcode == RdmapOpcode.RDMA_WRITE
                    ? "written at " + range
                    : "the data read, placed at " + range + " of the requester";
        }
        return "message data for the sink's posted receive buffer";
    }

    private static String meaning(RdmapOpcode opcode, int code) {
        if (opcode == null) {
            return code == 0xF ? "reserved for experimental use: no receiver accepts it"
                    : "not assigned (IANA RDMAP opcodes 0x0-0xB): no receiver accepts it";
        }
        return opcode.displayName() + ": " + switch (opcode) {
            case RDMA_WRITE -> "tagged; places the payload at STag/TO, the sink's application is not told";
            case RDMA_READ_REQUEST ->
                    "untagged on QN 1; asks the peer to send the Data Source buffer back in a Read Response";
            case RDMA_READ_RESPONSE ->
                    "tagged; carries the data a Read Request asked for, into the requester's Data Sink";
            case SEND -> "untagged on QN 0; fills the sink's next posted receive";
            case SEND_WITH_INVALIDATE -> "untagged on QN 0; fills the next receive and invalidates the STag below";
            case SEND_WITH_SE -> "untagged on QN 0; fills the next receive and asks for a Solicited Event";
            case SEND_WITH_SE_AND_INVALIDATE -> "untagged on QN 0; Solicited Event and invalidates the STag below";
            case TERMINATE -> "untagged on QN 2; the peer reports a fatal error and ends the stream";
            case IMMEDIATE_DATA -> "RFC 7306; untagged on QN 0, 8 octets for the sink's next receive";
            case IMMEDIATE_DATA_WITH_SE -> "RFC 7306; Immediate Data that asks for a Solicited Event";
            case ATOMIC_REQUEST -> "RFC 7306; untagged on QN 1, a 64-bit atomic operation on the peer's memory";
            case ATOMIC_RESPONSE -> "RFC 7306; untagged on QN 3, the value an Atomic Request found";
        };
    }

    static String opcodeRfc(RdmapOpcode opcode) {
        if (opcode == null) {
            return Rfc.RDMAP_OPCODES;
        }
        return switch (opcode) {
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

}
