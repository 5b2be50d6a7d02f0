package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateErrorType;
import org.iwarp4j.rdmap.terminate.TerminateLayer;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.TerminateHeader;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The Terminate header (RFC 5040 §4.8) as the rdmap module's lenient {@link TerminateDecoder} reads
 * it — including Linux siw's bit-mirrored control word — with the copied DDP and RDMA headers decoded
 * as headers of their own. JSON: {@code "terminate": {"layer", "etype", "code", "cause", "m", "d",
 * "r", "ddpSegmentLength", "copiedHeader", "copiedDdpHeader", "copiedRdmaHeader", "layout",
 * "controlWord", "ambiguous", "notes", "terminated": {"ddp", "rdmap"}}}.
 */
final class TerminateView {

    /**
     * What the reader of the Terminate knows: the layout to prefer when both readings of the control word
     * are equally plausible, and whether the Terminate may be an RFC 6581 initiator's first FPDU.
     */
    record Context(TerminateLayout preferred, TerminateDecoder.Phase phase) {}

    /** The decoded Terminate and its layer. */
    record Decoded(Terminate terminate, Layer layer) {}

    private TerminateView() {}

    /** The Terminate header at {@code buffer[index, index + length)}: the DDP payload of a Terminate message. */
    static Decoded of(ByteBuf buffer, int index, int length, Context context) {
        Terminate t = TerminateDecoder.decode(buffer, index, length, context.preferred(), context.phase());
        TerminateLayout other =
                context.preferred() == TerminateLayout.RFC ? TerminateLayout.SIW_MIRRORED : TerminateLayout.RFC;
        // On a tie the preferred layout wins: decoding with the other preference shows whether there was one.
        Terminate alternative = TerminateDecoder.decode(buffer, index, length, other, context.phase());
        boolean ambiguous = alternative.layout() != t.layout();
        byte[] word = new byte[Math.min(TerminateHeader.CONTROL_LENGTH, length)];
        buffer.getBytes(index, word);
        int after = TerminateHeader.CONTROL_LENGTH
                + (t.d() && length >= TerminateHeader.TERMINATED_DDP_HEADER_OFFSET ? 2 : 0);
        byte[] copied = new byte[Math.max(0, length - after)];
        buffer.getBytes(index + Math.min(after, length), copied);
        List<String> notes = notes(t);

        Layer l =
                new Layer("Terminate header  " + Origin.octets(length) + " (" + Rfc.RDMAP_TERMINATE + ")", "terminate");
        TerminateCause cause = t.cause();
        l.json("layer", Json.num(t.layer()))
                .json("etype", Json.num(t.errorType()))
                .json("code", Json.num(t.errorCode()))
                .json("cause", cause == null ? Json.Null.NULL : Json.str(cause.toString()))
                .json("m", Json.bool(t.m()))
                .json("d", Json.bool(t.d()))
                .json("r", Json.bool(t.r()))
                .json("ddpSegmentLength", t.ddpSegmentLength() < 0 ? Json.Null.NULL : Json.num(t.ddpSegmentLength()))
                .json("copiedHeader", Json.str(Values.hex(copied)))
                .json("copiedDdpHeader", hexOrNull(t.terminatedDdpHeader()))
                .json("copiedRdmaHeader", hexOrNull(t.terminatedRdmaHeader()))
                .json("layout", Json.str(layoutJson(t.layout())))
                .json("controlWord", Json.str(Values.hex(word)));
        controlWord(l, t, word);
        if (t.layout() == TerminateLayout.SIW_MIRRORED && length >= TerminateHeader.CONTROL_LENGTH) {
            rfcReading(l, buffer, index);
        }
        l.json("ambiguous", Json.bool(ambiguous));
        if (ambiguous) {
            l.row("Also reads as", alternative.describe(), Rfc.RDMAP_TERMINATE,
                    "in the " + layoutName(alternative.layout())
                    + ": both readings are registered causes. In a capture the Terminate's place decides (the MPA "
                    + "codes 0x2/0x0/0x05-0x07 only come as an Initiator's first FPDU, RFC 6581 §9); "
                    + "--terminate-layout rfc|siw says which layout the peer uses");
            l.json("alsoReadsAs",
                    Json.obj("layer", Json.num(alternative.layer()), "etype", Json.num(alternative.errorType()),
                    "code", Json.num(alternative.errorCode()), "layout", Json.str(layoutJson(alternative.layout()))));
        }
        if (t.d()) {
            l.row("DDP Segment Length", t.ddpSegmentLength() < 0 ? "absent" : Integer.toString(t.ddpSegmentLength()),
                    Rfc.RDMAP_TERMINATE, segmentLengthMeaning(t));
        }
        if (!t.d() && !t.r()) {
            l.note("No copied headers (D=0, R=0).");
        } else {
            l.child(terminated(t, notes));
        }
        notes.forEach(n -> l.note("note: " + n));
        l.json("notes", Json.arr(notes.stream().map(Json::str).toList()));
        return new Decoded(t, l);
    }

    private static void controlWord(Layer l, Terminate t, byte[] word) {
        boolean siw = t.layout() == TerminateLayout.SIW_MIRRORED;
        l.row("Control word", Values.spacedHex(word), Rfc.RDMAP_TERMINATE, siw
                ? "Linux siw layout (bit-mirrored control word), see " + Rfc.SIW_FINDINGS
                + " F1: octet 0 = EType<<4 | Layer, octet 2 = R<<2 | D<<1 | M"
                : "RFC layout: octet 0 = Layer<<4 | EType, octet 1 = Error Code, octet 2 = M D R in its top bits");
        TerminateLayer layer = TerminateLayer.fromValue(t.layer());
        l.row("Layer", Values.hex(t.layer(), 1), Rfc.RDMAP_TERMINATE, layer == null ? "not an assigned layer"
                : layer.displayName() + ": " + switch (layer) {
                    case RDMAP -> "RDMAP found the error";
                    case DDP -> "DDP found the error";
                    case LLP -> "the lower layer (MPA) found the error";
                });
        TerminateErrorType type = TerminateErrorType.of(t.layer(), t.errorType());
        l.row("EType", Values.hex(t.errorType(), 1), Rfc.RDMAP_TERMINATE,
                type == null ? "not an error type of this layer" : type.displayName());
        TerminateCause cause = t.cause();
        l.row("Error Code", Values.hex(t.errorCode(), 2), codeRfc(t.layer()), cause == null
                ? "NOT a registered Layer/EType/Code (" + t.describe() + ")" : cause.triple() + " "
                + cause.description());
        l.row("M", bit(t.m()), Rfc.RDMAP_TERMINATE,
                t.m() ? "the DDP Segment Length is valid" : "no valid DDP Segment Length");
        l.row("D", bit(t.d()), Rfc.RDMAP_TERMINATE,
                t.d() ? "the DDP Segment Length and the Terminated DDP Header follow"
                : "no Terminated DDP Header");
        l.row("R", bit(t.r()), Rfc.RDMAP_TERMINATE, t.r() ? "the Terminated RDMA Header (a Read Request header) follows"
                : "no Terminated RDMA Header");
    }

    /** What a decoder that knows only the RFC layout reads from siw's word (TerminateHeader is the RFC flyweight). */
    private static void rfcReading(Layer l, ByteBuf buffer, int index) {
        TerminateHeader h = new TerminateHeader().wrap(buffer, index);
        int reserved = (buffer.getUnsignedByte(index + TerminateHeader.FLAGS_OFFSET)
                & TerminateHeader.FLAGS_RESERVED_MASK) << 8
                | buffer.getUnsignedByte(index + TerminateHeader.FLAGS_OFFSET + 1);
        TerminateCause cause = TerminateCause.of(h.layer(), h.errorType(), h.errorCode());
        l.row("RFC reading", Values.hex(h.layer(), 1) + "/" + Values.hex(h.errorType(), 1) + "/"
                        + Values.hex(h.errorCode(), 2), Rfc.RDMAP_TERMINATE,
                "what the same octets say in the RFC layout: M=" + bit(h.m()) + " D=" + bit(h.d()) + " R=" + bit(h.r())
                        + ", reserved " + Values.hex(reserved, 1) + (cause == null ? "; not a registered cause" : ""));
        l.json("rfcReading",
                Json.obj("layer", Json.num(h.layer()), "etype", Json.num(h.errorType()), "code",
                Json.num(h.errorCode()),
                "m", Json.bool(h.m()), "d", Json.bool(h.d()), "r", Json.bool(h.r()), "reserved", Json.num(reserved)));
    }

    private static Json hexOrNull(byte[] octets) {
        return octets == null ? Json.Null.NULL : Json.str(Values.hex(octets));
    }

    private static String segmentLengthMeaning(Terminate t) {
        if (t.ddpSegmentLength() < 0) {
            return "D=1 but the field is missing";
        }
        return t.layout() == TerminateLayout.SIW_MIRRORED
                ? "the offending segment's length; Linux siw writes its payload length (0 for a Read Request), "
                + "not the ULPDU_Length the RFC means (" + Rfc.SIW_FINDINGS + " F2)"
                : "the offending segment's length as DDP received it: its ULPDU_Length"
                + (t.m() ? "" : " (M=0: not valid)");
    }

    /** The copied headers, decoded as the headers they are: JSON {@code "terminated": {"ddp", "rdmap"}}. */
    private static Layer terminated(Terminate t, List<String> notes) {
        byte[] ddp = t.terminatedDdpHeader();
        byte[] rdma = t.terminatedRdmaHeader();
        Layer l = new Layer("Terminated message: the headers of the message that caused the error", "terminated");
        ByteBuf rdmaBuf = rdma == null ? null : Unpooled.wrappedBuffer(rdma);
        if (ddp != null && ddp.length > 0) {
            DdpFields f = DdpFields.read(Unpooled.wrappedBuffer(ddp), 0, ddp.length);
            Layer ddpLayer = DdpView.copied(f);
            Layer rdmap = RdmapView.copied(f, rdmaBuf);
            if (rdmap != null) {
                ddpLayer.childBeside(rdmap);
            }
            l.child(ddpLayer);
            siwReadSizeInMsn(t, f, rdmaBuf, notes);
        } else if (rdmaBuf != null) {
            l.child(RdmapHeaderView.readRequest(rdmaBuf, 0, "Terminated RDMA Header"));
        }
        return l;
    }

    /** interop/FINDINGS.md F2: siw rebuilds a failed Read Request's header with the read size in the MSN field. */
    private static void siwReadSizeInMsn(Terminate t, DdpFields f, ByteBuf rdma, List<String> notes) {
        if (t.layout() == TerminateLayout.SIW_MIRRORED && rdma != null && f instanceof DdpFields.Untagged u
                && u.queueNumber() == RdmapOpcode.QN_READ_REQUEST
                && u.messageSequenceNumber() == new ReadRequestHeader().wrap(rdma, 0).messageSize()) {
            notes.add("the copied MSN equals the Read size: Linux siw writes the size into the MSN field of a Read "
                    + "Request header it rebuilds (" + Rfc.SIW_FINDINGS
                    + " F2); the request's real MSN is not in the Terminate");
        }
    }

    private static List<String> notes(Terminate t) {
        List<String> notes = new ArrayList<>();
        if (!t.notes().isEmpty()) {
            for (String n : Values.notes(t.notes())) {
                if (!n.startsWith("ambiguous layout")) { // shown as "Also reads as"
                    notes.add(n);
                }
            }
        }
        return notes;
    }

    private static String codeRfc(int layer) {
        return layer == TerminateLayer.DDP.value() ? Rfc.DDP_ERROR_CODES
                : layer == TerminateLayer.LLP.value() ? Rfc.MPA_ERRORS : Rfc.RDMAP_TERMINATE;
    }

    static String layoutJson(TerminateLayout layout) {
        return layout == TerminateLayout.SIW_MIRRORED ? "siw-mirrored" : "rfc";
    }

    private static String layoutName(TerminateLayout layout) {
        return layout == TerminateLayout.SIW_MIRRORED ? "Linux siw layout (bit-mirrored)" : "RFC layout";
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }
}
