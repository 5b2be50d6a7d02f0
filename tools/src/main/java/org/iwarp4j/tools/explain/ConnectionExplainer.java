package org.iwarp4j.tools.explain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.TcpConnection;

/**
 * Explains one captured TCP connection: finds the Initiator, decodes the MPA Request then FPDUs
 * Initiator→Responder and the MPA Reply then FPDUs Responder→Initiator, each direction with the
 * CRC and marker settings the two frames negotiated, SeqStart being the first octet after each frame
 * (RFC 5044 §4.3, §7.1).
 */
final class ConnectionExplainer {

    /** The connection's entries in conversation order, the lines that introduce it, and its two directions. */
    record Result(List<String> heading, List<Entry> entries, int errors, Explainer.Wire wire) {}

    private ConnectionExplainer() {}

    static Result explain(int number, TcpConnection conn, TerminateLayout terminateLayout) {
        Stream stream = open(number, conn, terminateLayout, true);
        List<Entry> entries = new ArrayList<>();
        for (Entry e = stream.next(); e != null; e = stream.next()) {
            entries.add(e);
        }
        return new Result(stream.heading(), entries, stream.errors(), stream.wire());
    }

    /**
     * Starts explaining one connection: its heading at once, its entries as {@link Stream#next()} asks for them.
     *
     * @param octets whether an FPDU's layer shows its ULPDU's octets ({@link FpduView#of})
     */
    static Stream open(int number, TcpConnection conn, TerminateLayout terminateLayout, boolean octets) {
        Endpoint initiator = initiator(conn);
        HalfStream i2r = conn.from(initiator);
        HalfStream r2i = conn.to(initiator);
        Endpoint responder = i2r.destination();
        String label = initiator + "-" + responder;
        Explainer.Wire wire = new Explainer.Wire(initiator, responder, i2r, r2i);
        List<String> heading = new ArrayList<>();
        heading.add("Connection " + number + ": " + initiator + " <-> " + responder + ", pcap frames "
                + conn.firstFrame() + ".." + conn.lastFrame());
        if (i2r.length() == 0 && r2i.length() == 0) {
            heading.add("  no payload in either direction: nothing to decode");
            return new Stream(heading, wire, null, null, null);
        }
        heading.add("  Initiator " + initiator + ": " + initiatorReason(conn, initiator));
        heading.add("  I2R " + streamSummary(i2r) + "; R2I " + streamSummary(r2i));

        HalfConnectionDecoder toResponder =
                new HalfConnectionDecoder(i2r.view(), new Origin.Captured(label, "I2R", i2r), octets);
        HalfConnectionDecoder toInitiator =
                new HalfConnectionDecoder(r2i.view(), new Origin.Captured(label, "R2I", r2i), octets);
        HalfConnectionDecoder.Startup request = toResponder.startupFrame(MpaFrameType.REQUEST);
        HalfConnectionDecoder.Startup reply = toInitiator.startupFrame(MpaFrameType.REPLY);
        fullOperation(request, reply, toResponder, toInitiator).forEach(line -> heading.add("  " + line));
        hole(i2r, toResponder);
        hole(r2i, toInitiator);
        conflicts(i2r, toResponder);
        conflicts(r2i, toInitiator);
        // Both directions from their first FPDU on: the first FPDU of the connection is read as its
        // receiver reads it before anything was sent or received (TerminateDecoder.Phase.SETUP).
        UpperLayers upper = new UpperLayers(
                new UpperLayers.Settings(terminateLayout, TerminateDecoder.Phase.SETUP, true, true));
        return new Stream(heading, wire, toResponder, toInitiator, upper);
    }

    /**
     * One connection explained entry by entry: both directions in capture order (each keeping its own order),
     * each FPDU with its upper layers. Holds one entry of each direction ahead, and nothing it handed out: memory
     * stays that of a few FPDUs however long the connection.
     */
    static final class Stream {
        private final List<String> heading;
        private final Explainer.Wire wire;
        private final HalfConnectionDecoder toResponder;
        private final HalfConnectionDecoder toInitiator;
        private final UpperLayers upper;
        private final ArrayDeque<Entry> ready = new ArrayDeque<>();
        private Entry nextI2r;
        private Entry nextR2i;

        private Stream(List<String> heading, Explainer.Wire wire, HalfConnectionDecoder toResponder,
                       HalfConnectionDecoder toInitiator, UpperLayers upper) {
            this.heading = List.copyOf(heading);
            this.wire = wire;
            this.toResponder = toResponder;
            this.toInitiator = toInitiator;
            this.upper = upper;
            if (toResponder != null) {
                nextI2r = toResponder.next();
                nextR2i = toInitiator.next();
            }
        }

        /** The lines that introduce the connection. */
        List<String> heading() {
            return heading;
        }

        /** Its Initiator, Responder and their streams. */
        Explainer.Wire wire() {
            return wire;
        }

        /** The next entry in output order, or {@code null} after the last. */
        Entry next() {
            while (ready.isEmpty()) {
                Entry e;
                if (nextR2i == null || (nextI2r != null && nextI2r.frame() <= nextR2i.frame())) {
                    e = nextI2r;
                    nextI2r = e == null ? null : toResponder.next();
                } else {
                    e = nextR2i;
                    nextR2i = toInitiator.next();
                }
                if (e == null) {
                    return null;
                }
                upper.add(e, ready::add);
            }
            return ready.pollFirst();
        }

        /** Error entries handed out so far: all of them once {@link #next()} returned {@code null}. */
        int errors() {
            return toResponder == null ? 0 : toResponder.errors() + toInitiator.errors() + upper.errors();
        }

        /** FPDUs dissected so far, both directions. */
        int dissected() {
            return toResponder == null ? 0 : toResponder.dissected() + toInitiator.dissected();
        }
    }

    /**
     * RFC 5044 §7.1: the Initiator is the side that sends the MPA Request, not necessarily the TCP
     * active opener. Fallback: the SYN sender, then the sender of the first packet.
     */
    static Endpoint initiator(TcpConnection conn) {
        boolean first = startsWithRequestKey(conn.first());
        boolean second = startsWithRequestKey(conn.second());
        if (first != second) {
            return first ? conn.first().source() : conn.second().source();
        }
        return conn.opener().orElse(conn.first().source());
    }

    private static boolean startsWithRequestKey(HalfStream s) {
        return s.startsWith(MpaFrameType.REQUEST.key());
    }

    private static String initiatorReason(TcpConnection conn, Endpoint initiator) {
        boolean opener = conn.opener().map(initiator::equals).orElse(false);
        if (startsWithRequestKey(conn.from(initiator)) && !startsWithRequestKey(conn.to(initiator))) {
            return "its stream starts with the MPA Request key" + (opener ? " (it also opened the TCP connection)"
                    : conn.opener().isPresent() ? " (the other side opened the TCP connection, RFC 5044 §7.1)" : "");
        }
        return opener ? "no single side starts with the MPA Request key; taken to be the TCP active opener (SYN)"
                : "no single side starts with the MPA Request key and no SYN was captured; taken to be the first "
                + "sender";
    }

    private static List<String> fullOperation(HalfConnectionDecoder.Startup request,
                                              HalfConnectionDecoder.Startup reply,
                                              HalfConnectionDecoder toResponder, HalfConnectionDecoder toInitiator) {
        MpaFrame req = request instanceof HalfConnectionDecoder.Parsed p ? p.frame() : null;
        MpaFrame rep = reply instanceof HalfConnectionDecoder.Parsed p ? p.frame() : null;
        if (request instanceof HalfConnectionDecoder.Invalid || reply instanceof HalfConnectionDecoder.Invalid) {
            return List.of("No Full Operation: the MPA startup failed (" + Rfc.MPA_STARTUP
                    + "), so no FPDUs are decoded");
        }
        if (rep != null && rep.rejected()) {
            int extra = Math.max(0, toResponder.length() - (req == null ? 0 : req.length()))
                    + Math.max(0, toInitiator.length() - rep.length());
            return List.of("Rejected by the Responder (Reply R=1): MPA exits without Full Operation and no FPDUs "
                    + "follow ("
                    + Rfc.MPA_STARTUP + ")"
                    + (extra > 0 ? "; " + Origin.octets(extra) + " after the frames are not MPA and not decoded" : ""));
        }
        if (req == null && rep == null) {
            return List.of("No MPA frames");
        }
        List<String> lines = new ArrayList<>();
        lines.add("Full Operation (RFC 5044 §7.1), SeqStart = the first octet after each frame (" + Rfc.MPA_MARKERS
                + "):");
        if (req != null) {
            FpduSettings i2r = FpduSettings.negotiated(req, rep);
            lines.add("  I2R " + i2r.why());
            toResponder.fpdus(req.length(), i2r.crc(), i2r.markers(), 0);
        }
        if (rep != null) {
            FpduSettings r2i = FpduSettings.negotiated(rep, req);
            lines.add("  R2I " + r2i.why());
            toInitiator.fpdus(rep.length(), r2i.crc(), r2i.markers(), 0);
        }
        return lines;
    }

    private static void conflicts(HalfStream s, HalfConnectionDecoder decoder) {
        for (HalfStream.Conflict c : s.conflicts()) {
            decoder.captureProblem("pcap frame " + c.frame() + " retransmits the octet at this offset with a different "
                    + "value; the first copy is decoded", c.offset());
        }
    }

    private static void hole(HalfStream s, HalfConnectionDecoder decoder) {
        HalfStream.Gap gap = s.gap();
        if (gap != null) {
            decoder.captureEndsAtHole("the capture misses " + Origin.octets(gap.missing()) + " from tcp seq "
                    + Values.hex(s.sequenceAt(gap.offset()), 8) + " on"
                    + (gap.capturedAfter() > 0
                            ? "; " + Origin.octets(gap.capturedAfter()) + " captured after the hole are not decoded"
                            : " (packets cut short by the snap length?)"));
        }
    }

    private static String streamSummary(HalfStream s) {
        return s.length() == 0 ? "no payload"
                : Origin.octets(s.length()) + " from tcp seq " + Values.hex(s.firstSequence(), 8);
    }
}
