package org.iwarp4j.tools.explain;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.PacketDecoder;
import org.iwarp4j.tools.pcap.TcpConnection;
import org.iwarp4j.tools.report.Layer;

/** The two things {@code explain} decodes: octets from a hex file, and every TCP connection of a capture. */
public final class Explainer {

    private Explainer() {}

    /**
     * One stretch of output for people: the lines that introduce it, then its entries.
     *
     * @param spans where each entry of {@code frames} lies in its direction's stream (same order)
     * @param wire  the captured connection the section explains, or {@code null} (octets from a hex file)
     */
    public record Section(List<String> heading, List<Layer> frames, List<Span> spans, Wire wire) {
        public Section {
            heading = List.copyOf(heading);
            frames = List.copyOf(frames);
            spans = List.copyOf(spans);
            if (spans.size() != frames.size()) {
                throw new IllegalArgumentException(spans.size() + " spans for " + frames.size() + " frames");
            }
        }
    }

    /**
     * Where one entry lies: octets {@code [offset, offset + length)} of its direction's stream ({@code length} 0 for
     * an error), first carried by pcap frame {@code frame} (0 outside a capture).
     */
    public record Span(long offset, long length, int frame) {}

    /** A captured connection: its MPA Initiator and Responder and the octets each sent. */
    public record Wire(Endpoint initiator, Endpoint responder, HalfStream i2r, HalfStream r2i) {

        /** The stream of {@code direction} ({@code I2R} or {@code R2I}). */
        public HalfStream stream(String direction) {
            return "R2I".equals(direction) ? r2i : i2r;
        }
    }

    public static Explanation explainHex(HexStream in, String name) {
        return explainHex(in, name, TerminateLayout.RFC);
    }

    /**
     * @param terminateLayout the layout of a Terminate's control word to prefer when both readings are
     *                        registered causes and nothing else tells them apart ({@code --terminate-layout})
     */
    public static Explanation explainHex(HexStream in, String name, TerminateLayout terminateLayout) {
        byte[] bytes = in.bytes();
        HalfConnectionDecoder decoder =
                new HalfConnectionDecoder(Unpooled.wrappedBuffer(bytes), new Origin.Input(), true);
        List<String> preamble = new ArrayList<>();
        // What the receiver of the first FPDU knows (TerminateDecoder.Phase): after a Request, the
        // Responder has sent nothing yet (RFC 5044 §7.1.2); after a Reply, the Initiator has.
        TerminateDecoder.Phase firstPhase = TerminateDecoder.Phase.UNKNOWN;
        if (in.startsAtFpdu()) {
            boolean crc = in.crc() == null || in.crc();
            preamble.add(name + ": " + Origin.octets(bytes.length) + ", starting at an FPDU (--fpdu); CRC "
                    + (crc ? "on" : "off (" + Rfc.MPA_CRC + ")")
                    + (in.markers() ? ", markers on, first octet at stream offset "
                    + Values.hexAndDecimal(in.streamOffset(), 1) + " from SeqStart" : ", no markers"));
            decoder.fpdus(0, crc, in.markers(), in.streamOffset());
        } else {
            preamble.add(name + ": " + Origin.octets(bytes.length)
                    + ", starting at an MPA Request or Reply (told apart by the key, " + Rfc.MPA_FRAME + ")");
            HalfConnectionDecoder.Startup startup = decoder.startupFrame(null);
            if (startup instanceof HalfConnectionDecoder.Parsed p) {
                afterStartupFrame(in, decoder, p);
                firstPhase = p.frame().type() == MpaFrameType.REQUEST ? TerminateDecoder.Phase.SETUP
                        : TerminateDecoder.Phase.RUNNING;
            } else if (decoder.badKeyAtStart()) {
                decoder.entries().get(0).layer().note("Octets that start at an FPDU need --fpdu.");
            }
        }
        UpperLayers.Result upper = UpperLayers.explain(decoder.entries(),
                new UpperLayers.Settings(terminateLayout, firstPhase, !in.startsAtFpdu(), false));
        List<Entry> entries = upper.entries();
        int errors = decoder.errors() + upper.errors();
        Section section = new Section(List.of(), layers(entries), spans(entries), null);
        return new Explanation(List.of(section), errors, preamble, List.of(), summary(entries, errors));
    }

    private static void afterStartupFrame(HexStream in, HalfConnectionDecoder decoder, HalfConnectionDecoder.Parsed p) {
        int rest = decoder.length() - p.frame().length();
        if (p.frame().rejected() && p.frame().type() == MpaFrameType.REPLY) {
            p.layer().note("The Responder rejected the connection: MPA exits and no FPDUs follow (" + Rfc.MPA_STARTUP
                    + ")" + (rest > 0 ? "; the " + Origin.octets(rest) + " after the frame are not MPA and not decoded."
                            : "."));
            return;
        }
        FpduSettings negotiated = FpduSettings.negotiated(p.frame(), null);
        boolean crc = in.crc() != null ? in.crc() : negotiated.crc();
        String why = (in.crc() != null ? "CRC " + (crc ? "on (--crc)" : "off (--no-crc)") : negotiated.crcWhy())
                + ", " + (in.markers() ? "markers on (--markers)" : negotiated.markersWhy());
        if (rest == 0) {
            p.layer().note("No FPDUs follow in the input.");
            return;
        }
        p.layer().note("The " + Origin.octets(rest)
                + " after it are FPDUs of the same direction, SeqStart = the first of them ("
                + Rfc.MPA_MARKERS + "): " + why + ".");
        if (in.crc() == null && !crc) {
            p.layer().note("Use --crc to check the CRCs anyway (if the peer's frame had C=1).");
        }
        if (!in.markers()) {
            p.layer().note("Use --markers if the peer's frame had M=1.");
        }
        decoder.fpdus(p.frame().length(), crc, in.markers(), 0);
    }

    public static Explanation explainCapture(Capture capture, String name) {
        return explainCapture(capture, name, TerminateLayout.RFC);
    }

    /** @param terminateLayout as for {@link #explainHex(HexStream, String, TerminateLayout)} */
    public static Explanation explainCapture(Capture capture, String name, TerminateLayout terminateLayout) {
        List<String> preamble = new ArrayList<>();
        int connections = capture.connections().size();
        preamble.add(String.format("%s: %d packets (link type %s), %d TCP connection%s", name,
                capture.file().records(), capture.file().linkType(), connections, connections == 1 ? "" : "s"));
        List<String> warnings = warnings(capture);
        List<Section> sections = new ArrayList<>();
        List<Entry> all = new ArrayList<>();
        int errors = 0;
        int n = 0;
        for (TcpConnection conn : capture.connections()) {
            ConnectionExplainer.Result r = ConnectionExplainer.explain(++n, conn, terminateLayout);
            sections.add(new Section(r.heading(), layers(r.entries()), spans(r.entries()), r.wire()));
            all.addAll(r.entries());
            errors += r.errors();
        }
        return new Explanation(sections, errors, preamble, warnings, summary(all, errors));
    }

    /** What is wrong with the capture without being a protocol error: the file's problems, packets skipped. */
    static List<String> warnings(Capture capture) {
        List<String> warnings = new ArrayList<>(capture.file().warnings());
        if (!capture.skipped().isEmpty()) {
            Map<String, TreeSet<Integer>> byReason = new TreeMap<>();
            for (PacketDecoder.Skipped s : capture.skipped()) {
                byReason.computeIfAbsent(s.reason(), r -> new TreeSet<>()).add(s.frame());
            }
            byReason.forEach((reason, frames) -> warnings.add(frames.size()
                    + (frames.size() == 1 ? " packet" : " packets")
                    + " skipped (" + reason + "): frame" + (frames.size() == 1 ? " " : "s ") + abbreviate(frames)));
        }
        return warnings;
    }

    private static List<Layer> layers(List<Entry> entries) {
        return entries.stream().map(Entry::layer).toList();
    }

    private static List<Span> spans(List<Entry> entries) {
        return entries.stream().map(e -> new Span(e.offset(), e.length(), e.frame())).toList();
    }

    private static String summary(List<Entry> entries, int errors) {
        Map<Entry.Kind, Integer> counts = new EnumMap<>(Entry.Kind.class);
        entries.forEach(e -> counts.merge(e.kind(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        count(parts, counts, Entry.Kind.MPA_REQUEST, "MPA Request", "MPA Requests");
        count(parts, counts, Entry.Kind.MPA_REPLY, "MPA Reply", "MPA Replies");
        count(parts, counts, Entry.Kind.FPDU, "FPDU", "FPDUs");
        int frames = entries.size() - counts.getOrDefault(Entry.Kind.ERROR, 0);
        return frames + (frames == 1 ? " frame" : " frames")
                + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")")
                + (errors == 0 ? ", no errors." : ", " + errors + (errors == 1 ? " error." : " errors."));
    }

    private static void count(List<String> parts, Map<Entry.Kind, Integer> counts, Entry.Kind kind, String one,
            String many) {
        int c = counts.getOrDefault(kind, 0);
        if (c > 0) {
            parts.add(c + " " + (c == 1 ? one : many));
        }
    }

    private static String abbreviate(TreeSet<Integer> frames) {
        List<String> shown = new ArrayList<>();
        for (int f : frames) {
            if (shown.size() == 8) {
                shown.add("...");
                break;
            }
            shown.add(Integer.toString(f));
        }
        return String.join(", ", shown);
    }
}
