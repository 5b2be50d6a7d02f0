package org.iwarp4j.tools.explain;

import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * A DDP header shown field by field (RFC 5041 §4.1–§4.3): the header of a segment, or the copy of an
 * offending segment's header that a Terminate carries. JSON: {@code "ddp": {"tagged", "last", "rsvd",
 * "dv", "rsvdUlp", "stag", "to"}} or {@code {..., "qn", "msn", "mo"}}; a header cut short has only the
 * fields it holds.
 */
final class DdpView {

    private DdpView() {}

    /** The DDP layer of a segment handed up by MPA. */
    static Layer segment(DdpFields f) {
        return of(f, false);
    }

    /** The Terminated DDP Header of a Terminate (RFC 5040 §4.8): a header without its payload. */
    static Layer copied(DdpFields f) {
        return of(f, true);
    }

    private static Layer of(DdpFields f, boolean copied) {
        Layer l = new Layer(heading(f, copied), "ddp");
        if (f.control() < 0) {
            l.row("Header", "none", Rfc.DDP_CONTROL, "no octets: a segment always starts with a DDP header");
            return l;
        }
        control(l, f.control());
        if (f instanceof DdpFields.Tagged t) {
            l.field("RsvdULP", Values.hex(t.rdmapControl(), 2), Rfc.DDP_TAGGED,
                    "8 bits DDP passes up untouched: RDMAP's control field (" + Rfc.RDMAP_CONTROL + ")",
                    "rsvdUlp", Json.str(Values.hex(t.rdmapControl(), 2)));
            tagged(l, t, copied);
        } else if (f instanceof DdpFields.Untagged u) {
            String control = Values.hex(u.rdmapControl(), 2);
            String word = Values.hex(u.rsvdUlpWord(), 8).substring(2);
            String rsvdUlp = control + word;
            l.field("RsvdULP", control + " " + word, Rfc.DDP_UNTAGGED,
                    "40 bits DDP passes up untouched: RDMAP's control field and Invalidate STag (" + Rfc.RDMAP_CONTROL
                    + ")", "rsvdUlp", Json.str(rsvdUlp));
            untagged(l, u);
        } else {
            if (f.rdmapControl() >= 0) {
                l.field("RsvdULP[0:7]", Values.hex(f.rdmapControl(), 2), Rfc.DDP_CONTROL,
                        "RDMAP's control field", "rsvdUlp", Json.str(Values.hex(f.rdmapControl(), 2)));
            }
            l.row("Header", f.segmentLength() + " of " + f.headerLength() + " octets",
                    f.tagged() ? Rfc.DDP_TAGGED : Rfc.DDP_UNTAGGED,
                    "CUT SHORT: every segment carries its complete DDP header");
            return l;
        }
        if (!copied) {
            l.row("Payload", Origin.octets(f.payloadLength()), Rfc.DDP_HEADERS,
                    f.payloadLength() == 0 ? "none: a zero-length segment"
                    : "the DDP payload, handed to RDMAP (below)");
        }
        return l;
    }

    private static String heading(DdpFields f, boolean copied) {
        String what = copied ? "Terminated DDP Header" : "DDP";
        if (f instanceof DdpFields.Tagged) {
            return what + "  tagged, "
                    + (copied ? "14 octets" : "14-octet header + " + Origin.octets(f.payloadLength()) + " of payload")
                    + " (" + Rfc.DDP_TAGGED + ")";
        }
        if (f instanceof DdpFields.Untagged) {
            return what + "  untagged, "
                    + (copied ? "18 octets" : "18-octet header + " + Origin.octets(f.payloadLength()) + " of payload")
                    + " (" + Rfc.DDP_UNTAGGED + ")";
        }
        if (f.control() < 0) {
            return what + "  empty: no DDP header (" + Rfc.DDP_CONTROL + ")";
        }
        return what + "  " + Origin.octets(f.segmentLength()) + ", too short for its " + f.headerLength() + "-octet "
                + (f.tagged() ? "tagged header (" + Rfc.DDP_TAGGED + ")"
                        : "untagged header (" + Rfc.DDP_UNTAGGED + ")");
    }

    private static void control(Layer l, int control) {
        boolean tagged = DdpControl.isTagged(control);
        boolean last = DdpControl.isLast(control);
        int rsvd = DdpControl.reserved(control);
        int dv = DdpControl.version(control);
        l.field("T (tagged)", bit(tagged), Rfc.DDP_CONTROL, tagged
                        ? "tagged buffer model: placed into a buffer the sink advertised, named by STag and TO"
                        : "untagged buffer model: placed into the next buffer the sink posted on queue QN",
                "tagged", Json.bool(tagged));
        l.field("L (last)", bit(last), Rfc.DDP_CONTROL, last
                        ? "the last segment of its message" : "not the last segment: more of this message follows",
                "last", Json.bool(last));
        l.field("Rsvd", Integer.toString(rsvd), Rfc.DDP_CONTROL, rsvd == 0
                        ? "reserved: sent as 0, not checked" : "reserved, NOT 0: senders send 0, receivers ignore it",
                "rsvd", Json.num(rsvd));
        l.field("DV", Integer.toString(dv), Rfc.DDP_CONTROL, dv == DdpControl.DDP_VERSION ? "DDP version 1 (RFC 5041)"
                        : dv == 0 ? "version 0 is the RDMA Consortium's pre-IETF DDP, not RFC 5041"
                        : "not a DDP version: RFC 5041 is version 1",
                "dv", Json.num(dv));
    }

    private static void tagged(Layer l, DdpFields.Tagged t, boolean copied) {
        boolean unchecked = !copied && t.payloadLength() == 0;
        l.field("STag", Values.stag(t.stag()), Rfc.DDP_TAGGED, (unchecked
                        ? "not checked: the segment has no payload (" + Rfc.DDP_SEGMENTATION + "); "
                        : "Steering Tag naming the sink's buffer; ") + Values.stagParts(t.stag()),
                "stag", Values.stagJson(t.stag()));
        l.field("TO", Values.hex64(t.taggedOffset()), Rfc.DDP_TAGGED, unchecked ? "Tagged Offset, not checked either"
                        : "Tagged Offset in that buffer of this segment's first payload octet",
                "to", Values.hex64Json(t.taggedOffset()));
    }

    private static void untagged(Layer l, DdpFields.Untagged u) {
        int qn = u.queueNumber();
        l.field("QN", Values.u32(qn), Rfc.DDP_UNTAGGED, queue(qn), "qn", Values.u32Json(qn));
        l.field("MSN", Values.u32(u.messageSequenceNumber()), Rfc.DDP_UNTAGGED,
                "message number on queue " + Values.u32(qn) + ": each queue counts its messages from 1, per direction",
                "msn", Values.u32Json(u.messageSequenceNumber()));
        l.field("MO", Values.u32(u.messageOffset()), Rfc.DDP_UNTAGGED, u.messageOffset() == 0
                        ? "Message Offset: this payload starts its message"
                        : "Message Offset: this payload is octet " + Values.u32(u.messageOffset())
                        + " onwards of its message",
                "mo", Values.u32Json(u.messageOffset()));
    }

    /** What RDMAP uses each untagged queue for (RFC 5040 §4.2, RFC 7306 §4.1 and its QN registry). */
    static String queue(int qn) {
        return switch (qn) {
            case RdmapOpcode.QN_SEND -> "queue 0: Sends and Immediate Data, into posted receive buffers";
            case RdmapOpcode.QN_READ_REQUEST -> "queue 1: RDMA Read Requests and Atomic Requests";
            case RdmapOpcode.QN_TERMINATE -> "queue 2: the Terminate";
            case RdmapOpcode.QN_ATOMIC_RESPONSE -> "queue 3: Atomic Responses (RFC 7306)";
            default -> "NOT a queue RDMAP uses (0..3)";
        };
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }
}
