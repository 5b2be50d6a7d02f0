package org.iwarp4j.tools.demo;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iwarp4j.tools.report.HumanRenderer;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;
import org.iwarp4j.verbs.cm.ConnectionParameters;

/**
 * Prints the demo top-down, the way an operation travels: for each operation the verbs calls, the
 * completions and checks, then each RDMAP message it produced, each DDP segment of the message, the MPA
 * framing of the segment and finally the TCP octets, all taken from the decoded capture.
 */
final class DemoReport {

    private static final String RULE = "-".repeat(100);
    private static final int DUMP_OCTETS = 48;
    private static final Pattern DECIMAL_IN_PARENS = Pattern.compile("0x[0-9a-f]+ \\((\\d+)\\)");

    private final PrintWriter out;
    private final boolean fields;

    /** @param fields also print explain's full field-by-field view of every FPDU */
    DemoReport(PrintWriter out, boolean fields) {
        this.out = out;
        this.fields = fields;
    }

    void header(DemoRun run, String capture) {
        out.println("iwarp demo: a server and a client, each with its own software RNIC in this JVM, connect over TCP");
        out.println("loopback; the client runs one of each RDMA operation on the server's memory and both sides check");
        out.println("every octet and value. The client's connection is captured and decoded with `iwarp explain`'s "
                + "dissector.");
        out.println();
        out.println("  server  RNIC " + run.server.rnic.name() + " (" + run.server.rnic.transport() + "), listening on "
                + run.serverAddress());
        out.println("  client  RNIC " + run.client.rnic.name() + " (" + run.client.rnic.transport()
                + "), connected from " + run.client.connection.localAddress() + "; capture: " + capture);
        out.println();
        ConnectionParameters c = run.clientParameters();
        ConnectionParameters s = run.serverParameters();
        out.println("MPA negotiated (RFC 5044 §7.1, RFC 6581):");
        out.println("  revision " + c.mpaRevision() + ", CRC32c " + (c.crc() ? "on" : "off")
                + " (RFC 5044 §4.4: on when either frame has C=1), markers client->server "
                + onOff(c.txMarkers()) + ", server->client " + onOff(c.rxMarkers()) + " (RFC 5044 §4.3)");
        out.println("  IRD/ORD: client " + c.ird() + "/" + c.ord() + ", server " + s.ird() + "/" + s.ord()
                + " (RFC 6581 §9.1); "
                + (c.peerToPeer() ? "peer-to-peer, RTR " + c.rtr() : "client-server mode, no RTR"));
        out.println("  MULPDU (largest ULPDU per FPDU, RFC 5044 §4.5): client " + c.mulpdu() + ", server " + s.mulpdu()
                + " octets");
        out.println();
        out.println("Layers, top down: verbs call -> RDMAP message (RFC 5040, RFC 7306) -> DDP segments (RFC 5041)");
        out.println("                  -> MPA FPDU: ULPDU_Length | DDP segment | PAD | CRC, markers (RFC 5044) -> TCP "
                + "octets");
    }

    void startup(WireTrace trace) {
        out.println();
        out.println(RULE);
        out.println("0. Connection setup: the MPA Request and Reply (RFC 5044 §7.1, RFC 6581 §6), before any FPDU");
        out.println(RULE);
        for (Layer frame : trace.startup()) {
            boolean request = "mpa-request".equals(WireTrace.string(frame, "type"));
            out.printf(" MPA %-7s %s  Rev %d  M=%s C=%s R=%s  IRD %d ORD %d  %s%n", request ? "Request" : "Reply",
                    request ? "client -> server" : "server -> client", WireTrace.number(frame, "rev"),
                    flag(frame, "m"), flag(frame, "c"), flag(frame, "r"), WireTrace.number(frame, "ird"),
                    WireTrace.number(frame, "ord"), location(frame));
            if (fields) {
                render(frame);
            }
        }
    }

    void operation(int number, OperationRecord op, List<WireTrace.Message> messages) {
        out.println();
        out.println(RULE);
        out.println(number + ". " + op.title() + ": " + op.purpose());
        out.println(RULE);
        String label = " verbs  ";
        for (String call : op.calls()) {
            out.println(label + call);
            label = "        ";
        }
        for (String completion : op.completions()) {
            out.println("        -> " + completion);
        }
        for (Check check : op.checks()) {
            out.println(" check  " + (check.passed() ? "ok        " : "MISMATCH  ") + check.what());
        }
        if (messages.isEmpty()) {
            out.println(" wire   (no message found in the capture)");
        }
        for (WireTrace.Message m : messages) {
            message(m);
        }
    }

    private void message(WireTrace.Message m) {
        List<WireTrace.Segment> segments = m.segments();
        Layer rdmap = segments.get(0).rdmap();
        out.println(" RDMAP  " + (m.fromClient() ? "client -> server  " : "server -> client  ") + m.name()
                + (segments.size() > 1 ? ", " + segments.size() + " DDP segments" : ""));
        if (rdmap != null) {
            // The control field, then the opcode's own header (Read Request, Atomic, Terminate: nested layers).
            String f = rowsOf(rdmap, "RV", "Rsv", "Payload");
            for (Layer header : rdmap.children()) {
                f += "  " + rowsOf(header);
            }
            long payload = 0;
            boolean carries = false;
            for (WireTrace.Segment s : segments) {
                Layer r = s.rdmap();
                if (r != null && r.member("payloadLength") != null) {
                    carries = true;
                    payload += WireTrace.number(r, "payloadLength");
                }
            }
            out.println("          " + f + (carries ? "  Payload " + payload + " octets" : ""));
        }
        int n = 0;
        for (WireTrace.Segment s : segments) {
            n++;
            Layer ddp = s.ddp();
            Layer r = s.rdmap();
            String payload = r != null && r.member("payloadLength") != null
                    ? "  (+" + WireTrace.number(r, "payloadLength") + " octets of payload)" : "";
            out.println("  DDP   " + (segments.size() > 1 ? "segment " + n + "/" + segments.size() + ": " : "")
                    + (ddp == null ? "(not decodable)" : rowsOf(ddp, "Rsvd", "RsvdULP", "Payload") + payload));
            out.println("  MPA   " + rowsOf(s.fpdu(), "ULPDU", "From SeqStart"));
            out.println("  TCP   " + s.wire().length + " octets from seq " + String.format("0x%08x", s.tcpSeq())
                    + (s.frames().isEmpty() ? "" : ", pcap frame" + (s.frames().size() > 1 ? "s " : " ")
                    + frameList(s.frames())));
            dump(s.wire());
            if (fields) {
                render(s.fpdu());
            }
        }
    }

    void unassigned(List<WireTrace.Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        out.println();
        out.println(RULE);
        out.println("Other messages in the capture");
        out.println(RULE);
        messages.forEach(this::message);
    }

    void summary(List<OperationRecord> ops, WireTrace trace, String captureNote) {
        long checks = ops.stream().mapToLong(o -> o.checks().size()).sum();
        long failed = ops.stream().flatMap(o -> o.checks().stream()).filter(c -> !c.passed()).count();
        int fpdus = trace.messages().stream().mapToInt(m -> m.segments().size()).sum();
        out.println();
        out.println(RULE);
        out.println(ops.size() + " operations, " + (checks - failed) + " of " + checks + " checks passed; "
                + trace.messages().size() + " RDMAP messages in " + fpdus + " FPDUs, " + trace.packets()
                + " packets captured, " + trace.errors() + " decode errors.");
        out.println(captureNote);
    }

    /** {@code label value} of every row of {@code layer}, in order, leaving out the rows labelled {@code skip}. */
    private static String rowsOf(Layer layer, String... skip) {
        List<String> skipped = List.of(skip);
        List<String> parts = new ArrayList<>();
        for (Layer.Item item : layer.items()) {
            if (item instanceof Layer.Row r && !skipped.contains(r.label())) {
                parts.add(shortLabel(r.label()) + " " + compact(r));
            }
        }
        return String.join("  ", parts);
    }

    private static String shortLabel(String label) {
        int paren = label.indexOf(" (");
        return paren > 0 ? label.substring(0, paren) : label;
    }

    private static String compact(Layer.Row r) {
        String v = r.value();
        if (r.label().equals("CRC")) {
            return v + (r.meaning().startsWith("valid") ? " (valid)" : r.meaning().startsWith("INVALID") ? " (INVALID)"
                    : " (not checked)");
        }
        if (r.label().equals("Marker")) {
            // "FPDUPTR 0x0014 (20)" at "FPDU+12 (SeqStart+0x200): ..."
            Matcher m = DECIMAL_IN_PARENS.matcher(v.replace("FPDUPTR ", ""));
            String where = r.meaning().substring(0, Math.max(0, r.meaning().indexOf(':')));
            return "FPDUPTR " + (m.matches() ? m.group(1) : v) + " " + where;
        }
        Matcher m = DECIMAL_IN_PARENS.matcher(v);
        if (m.matches()) {
            return m.group(1); // "0x013c (316)" -> 316
        }
        return v.replace(" octets", "").replace(" octet", "");
    }

    private void dump(byte[] bytes) {
        int shown = Math.min(bytes.length, DUMP_OCTETS);
        for (int at = 0; at < shown; at += 16) {
            StringBuilder line = new StringBuilder("          ").append(String.format("%04x ", at));
            StringBuilder ascii = new StringBuilder();
            for (int i = at; i < at + 16; i++) {
                if (i - at == 8) {
                    line.append(' ');
                }
                if (i < shown) {
                    int b = bytes[i] & 0xff;
                    line.append(String.format(" %02x", b));
                    ascii.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
                } else {
                    line.append("   ");
                }
            }
            out.println(line + "  |" + ascii + "|");
        }
        if (shown < bytes.length) {
            out.println("          ... " + (bytes.length - shown) + " more octets (the last 4 are the CRC: "
                    + String.format("%02x %02x %02x %02x", bytes[bytes.length - 4], bytes[bytes.length - 3],
                    bytes[bytes.length - 2], bytes[bytes.length - 1]) + ")");
        }
    }

    private void render(Layer layer) {
        StringBuilder b = new StringBuilder();
        new HumanRenderer(HumanRenderer.DEFAULT_DUMP_LIMIT).render("", layer, 4, b);
        out.print(b);
    }

    private static String location(Layer frame) {
        return "tcp seq " + String.format("0x%08x", WireTrace.number(frame, "tcpSeq"));
    }

    private static String flag(Layer frame, String key) {
        return frame.member(key) instanceof Json.Bool b && b.value() ? "1" : "0";
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }

    private static String frameList(List<Integer> frames) {
        return frames.size() > 4 ? frames.get(0) + ".." + frames.get(frames.size() - 1)
                : String.join(",", frames.stream().map(String::valueOf).toList());
    }
}
