package org.iwarp4j.tools.explain;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/** An MPA Request or Reply (as parsed by the mpa module) shown field by field (RFC 5044 §7.1.1, RFC 6581 §6, §9). */
final class StartupFrameView {

    private StartupFrameView() {}

    static Layer of(MpaFrame f, long offset, Origin origin) {
        boolean request = f.type() == MpaFrameType.REQUEST;
        String name = request ? "MPA Request" : "MPA Reply";
        Layer l = new Layer(name + "  " + origin.where(offset, f.length()), null)
                .json("type", Json.str(request ? "mpa-request" : "mpa-reply"))
                .json("offset", Json.num(offset));
        String peer = request ? "the Responder" : "the Initiator";
        String peerDirection = request ? "R2I" : "I2R";
        l.row("Key", "\"" + f.type().keyAscii() + "\"", Rfc.MPA_FRAME, request
                ? "an MPA Request, sent by the Initiator (a Reply says \"MPA ID Rep Frame\")"
                : "an MPA Reply, sent by the Responder (a Request says \"MPA ID Req Frame\")");
        l.field("M (markers)", bit(f.markers()), Rfc.MPA_FRAME, f.markers()
                        ? peer + " MUST insert a marker every 512 octets in what it sends (" + peerDirection + ")"
                        : peer + " MUST NOT insert markers in what it sends (" + peerDirection + ")",
                "m", Json.bool(f.markers()));
        l.field("C (CRC)", bit(f.crc()), Rfc.MPA_CRC, f.crc()
                        ? "CRCs wanted: with C=1 in either frame both sides generate and check CRCs"
                        : "CRCs not wanted: they are off only if the other frame has C=0 too",
                "c", Json.bool(f.crc()));
        l.field("R (rejected)", bit(f.rejected()), Rfc.MPA_FRAME, request
                        ? "not used in a Request (sent as 0, ignored)"
                        : f.rejected() ? "connection REJECTED: MPA exits, no FPDUs follow (" + Rfc.MPA_STARTUP + ")"
                        : "connection accepted",
                "r", Json.bool(f.rejected()));
        l.field("S (enhanced)", bit(f.enhanced()), Rfc.ENHANCED_FRAME, f.revision() < 2
                        ? (f.enhanced() ? "a reserved bit in Rev 1 (RFC 5044): ignored" : "no enhanced data (Rev 1)")
                        : f.enhanced() ? "Private Data starts with 4 octets of enhanced connection data"
                        : "no enhanced connection data",
                "s", Json.bool(f.enhanced()));
        l.row("Res", Values.hex(f.reservedBits(), 1), Rfc.ENHANCED_FRAME, f.reservedBits() == 0
                ? "reserved: sent as 0, not checked"
                : "reserved, not 0: not checked (Linux siw uses 0x8 privately)");
        l.field("Rev", Integer.toString(f.revision()), f.revision() == 1 ? Rfc.MPA_FRAME : Rfc.ENHANCED_FRAME,
                        f.revision() == 1
                        ? "MPA revision 1 (RFC 5044)" : "MPA revision " + f.revision()
                        + " (RFC 6581 enhanced connection setup)",
                "rev", Json.num(f.revision()));
        int pdLength = f.privateDataLength();
        l.field("PD_Length", Values.hexAndDecimal(pdLength, 4), Rfc.MPA_FRAME,
                "octets of Private Data that follow (at most 512)", "pdLength", Json.num(pdLength));
        EnhancedConnectionData e = f.enhancedData();
        if (e != null) {
            enhanced(l, e, request);
        }
        byte[] pd = f.privateData();
        if (pd.length == 0) {
            l.row(e != null ? "ULP Private Data" : "Private Data", "none", Rfc.MPA_FRAME, "");
        } else {
            l.dump(e != null ? "ULP Private Data" : "Private Data", pd, Rfc.MPA_FRAME,
                    "for the ULP (the application); MPA does not interpret it");
        }
        l.json("privateData", Json.str(HexFormat.of().formatHex(pd)));
        return l;
    }

    private static void enhanced(Layer l, EnhancedConnectionData e, boolean request) {
        l.note("Enhanced RDMA connection data: " + Values.digits(e.irdWord(), 4) + " "
                + Values.digits(e.ordWord(), 4) + ", the first 4 octets of Private Data (" + Rfc.ENHANCED_DATA + ")");
        String sender = request ? "the Initiator" : "the Responder";
        String offered = request ? "offered" : "accepted";
        boolean p2p = e.peerToPeer();
        l.field("  A (peer-to-peer)", bit(p2p), Rfc.RTR, p2p
                        ? "peer-to-peer model: the Initiator's first FPDU is an RTR message"
                        : "client-server model: no RTR", "peerToPeer", Json.bool(p2p));
        l.row("  B (Send RTR)", bit(e.sendRtr()), Rfc.RTR, rtr(e.sendRtr(), p2p, "zero-length Send", offered));
        l.field("  IRD", depth(e.ird()), Rfc.IRD_ORD, "inbound RDMA Read queue depth of " + sender
                + (e.ird() == EnhancedConnectionData.NO_NEGOTIATION ? " (0x3fff: no automatic negotiation)" : ""),
                "ird", Json.num(e.ird()));
        l.row("  C (Write RTR)", bit(e.writeRtr()), Rfc.RTR, rtr(e.writeRtr(), p2p, "zero-length RDMA Write", offered));
        l.row("  D (Read RTR)", bit(e.readRtr()), Rfc.RTR, rtr(e.readRtr(), p2p, "zero-length RDMA Read", offered));
        l.field("  ORD", depth(e.ord()), Rfc.IRD_ORD, "outbound RDMA Read queue depth of " + sender
                + (e.ord() == EnhancedConnectionData.NO_NEGOTIATION ? " (0x3fff: no automatic negotiation)" : ""),
                "ord", Json.num(e.ord()));
        List<Json> rtr = new ArrayList<>();
        for (RtrType t : e.rtrFlags()) {
            rtr.add(Json.str(t.name().toLowerCase(Locale.ROOT)));
        }
        l.json("rtr", Json.arr(rtr));
    }

    private static String rtr(boolean set, boolean p2p, String what, String offered) {
        if (!p2p) {
            return set ? "set, but ignored with A=0 (MUST be sent as 0)" : "not used with A=0";
        }
        return set ? what + " RTR " + offered : what + " RTR not " + offered;
    }

    private static String depth(int v) {
        return v == EnhancedConnectionData.NO_NEGOTIATION ? "0x3fff" : Integer.toString(v);
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }
}
