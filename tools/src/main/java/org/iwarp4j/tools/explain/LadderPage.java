package org.iwarp4j.tools.explain;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.iwarp4j.tools.pcap.Endpoint;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.report.HtmlRenderer;
import org.iwarp4j.tools.report.Layer;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.DocumentType;
import org.jsoup.nodes.Element;

/**
 * The page of {@code explain --pcap FILE --html OUT} (and {@code demo --html}): for each captured connection a
 * ladder diagram (the Initiator and the Responder as vertical lines, one arrow per MPA frame and RDMAP message,
 * Terminates and errors in red, FIN and RST marked) beside the layers of the arrow clicked last (RDMAP, DDP, MPA,
 * TCP octets: {@link HtmlRenderer} on explain's own layers).
 *
 * <p>The page needs nothing from the network: its style sheet and script are inline, the diagram is inline SVG.
 * It is built as a jsoup document, so every text from the capture is escaped when it is written. The diagram is
 * drawn here, element by element: a sequence diagram is lines and text at computed positions, which no charting
 * library on the classpath draws, and hand-written SVG keeps every arrow a link to its layers.
 *
 * <p>Clicking an arrow opens {@code #fN} (N the entry's number in the text output): the URL fragment
 * {@code page.html#f5} opens entry 5 when the page loads, and with scripts off the panel opens by CSS
 * {@code :target}.
 */
public final class LadderPage {

    private static final int WIDTH = 900;
    private static final int LEFT = 150;
    private static final int RIGHT = 790;
    private static final int TOP = 64;
    private static final int ROW = 50;
    private static final String BLUE = "#1565c0";
    private static final String GREY = "#546e7a";
    private static final String RED = "#c62828";
    private static final String ORANGE = "#ef6c00";
    private static final String CSS = resource("ladder.css");
    private static final String SCRIPT = resource("ladder.js");

    private LadderPage() {}

    /**
     * The page of a decoded capture.
     *
     * @param title what the page is of, e.g. {@code iwarp explain: capture.pcap}
     * @param intro lines shown above the connections, after explain's own preamble (may be empty)
     */
    public static String render(Explanation explanation, String title, List<String> intro) {
        Document doc = page(title);
        Element body = doc.body();
        Element header = body.appendElement("header");
        header.appendElement("h1").text(title);
        for (String line : explanation.preamble()) {
            header.appendElement("p").addClass("preamble").text(line);
        }
        for (String line : intro) {
            header.appendElement("p").addClass("intro").text(line);
        }
        if (!explanation.warnings().isEmpty()) {
            Element ul = header.appendElement("ul").addClass("warnings");
            explanation.warnings().forEach(w -> ul.appendElement("li").text("warning: " + w));
        }
        List<Ladder> ladders = Ladder.of(explanation);
        if (ladders.isEmpty()) {
            body.appendElement("p").addClass("empty").text("No TCP connection in the capture.");
        }
        for (Ladder ladder : ladders) {
            connection(body, ladder);
        }
        body.appendElement("footer").appendElement("p").addClass("summary").text(explanation.summary());
        body.appendElement("script").appendChild(new DataNode(SCRIPT));
        return doc.outerHtml() + "\n";
    }

    /** The page of a capture that could not be read at all: the error, where the connections would be. */
    public static String failure(String title, String name, String message) {
        Document doc = page(title);
        Element body = doc.body();
        body.appendElement("header").appendElement("h1").text(title);
        Element box = body.appendElement("div").addClass("fatal").attr("role", "alert");
        box.appendElement("strong").text(name + ": cannot be read as a capture");
        box.appendElement("p").text(message);
        body.appendElement("footer").appendElement("p").addClass("summary")
                .text("Nothing decoded: the file is not a classic pcap capture explain can read.");
        return doc.outerHtml() + "\n";
    }

    private static Document page(String title) {
        Document doc = Document.createShell("");
        doc.prependChild(new DocumentType("html", "", ""));
        doc.outputSettings().prettyPrint(false).charset(StandardCharsets.UTF_8);
        doc.selectFirst("html").attr("lang", "en");
        Element head = doc.head();
        head.appendElement("meta").attr("charset", "utf-8");
        head.appendElement("meta").attr("name", "viewport").attr("content", "width=device-width, initial-scale=1");
        head.appendElement("title").text(title);
        head.appendElement("style").appendChild(new DataNode(CSS));
        return doc;
    }

    private static void connection(Element body, Ladder ladder) {
        Explainer.Wire wire = ladder.section().wire();
        Element section = body.appendElement("section").addClass("connection").id("c" + ladder.number());
        section.appendElement("h2").text("Connection " + ladder.number() + ": " + wire.initiator() + " ↔ "
                + wire.responder());
        List<String> heading = ladder.section().heading();
        if (heading.size() > 1) {
            section.appendElement("pre").addClass("setup").text(String.join("\n", heading.subList(1, heading.size())));
        }
        Element grid = section.appendElement("div").addClass("grid");
        grid.appendChild(diagram(ladder, wire));
        Element panels = grid.appendElement("div").addClass("panels");
        panels.appendElement("p").addClass("hint").text(ladder.events().isEmpty() ? "Nothing to draw."
                : "Click an arrow to open its layers: RDMAP, DDP, MPA and the TCP octets.");
        for (Ladder.Event e : ladder.events()) {
            if (!e.parts().isEmpty()) {
                panels.appendChild(panel(e, wire));
            }
        }
    }

    private static Element diagram(Ladder ladder, Explainer.Wire wire) {
        int height = TOP + ROW * ladder.events().size() + 30;
        Element svg = new Element("svg").addClass("ladder")
                .attr("width", Integer.toString(WIDTH)).attr("height", Integer.toString(height))
                .attr("viewBox", "0 0 " + WIDTH + " " + height).attr("role", "img")
                .attr("aria-label", "ladder diagram of connection " + ladder.number());
        Element defs = svg.appendElement("defs");
        for (String[] head : new String[][] {{"blue", BLUE}, {"grey", GREY}, {"red", RED}, {"orange", ORANGE}}) {
            defs.appendElement("marker").id("head-" + ladder.number() + "-" + head[0]).attr("viewBox", "0 0 10 10")
                    .attr("refX", "10").attr("refY", "5").attr("markerWidth", "8").attr("markerHeight", "8")
                    .attr("orient", "auto-start-reverse")
                    .appendElement("path").attr("d", "M0,0 L10,5 L0,10 z").attr("fill", head[1]);
        }
        endpoint(svg, LEFT, "Initiator", wire.initiator());
        endpoint(svg, RIGHT, "Responder", wire.responder());
        for (int x : new int[] {LEFT, RIGHT}) {
            svg.appendElement("line").addClass("lifeline").attr("x1", Integer.toString(x)).attr("y1", "48")
                    .attr("x2", Integer.toString(x)).attr("y2", Integer.toString(height - 10))
                    .attr("stroke", "#90a4ae").attr("stroke-width", "2");
        }
        int y = TOP + ROW / 2;
        for (Ladder.Event e : ladder.events()) {
            svg.appendChild(arrow(e, y, ladder.number()));
            y += ROW;
        }
        return new Element("div").addClass("diagram").appendChild(svg);
    }

    private static void endpoint(Element svg, int x, String role, Endpoint endpoint) {
        svg.appendElement("rect").addClass("endpoint").attr("x", Integer.toString(x - 95)).attr("y", "6")
                .attr("width", "190").attr("height", "40").attr("rx", "5").attr("fill", "#eceff1")
                .attr("stroke", "#90a4ae");
        text(svg, x, 22, role, "role");
        text(svg, x, 39, endpoint.toString(), "address");
    }

    private static Element arrow(Ladder.Event e, int y, int connection) {
        String color = switch (e.kind()) {
            case TERMINATE, ERROR, REJECT, RST -> RED;
            case FIN -> GREY;
            case MPA -> GREY;
            case MESSAGE -> e.warned() ? ORANGE : BLUE;
        };
        String head = switch (color) {
            case RED -> "red";
            case GREY -> "grey";
            case ORANGE -> "orange";
            default -> "blue";
        };
        int from = e.toResponder() ? LEFT : RIGHT;
        int to = e.toResponder() ? RIGHT : LEFT;
        Element g;
        if (e.parts().isEmpty()) {
            g = new Element("g");
        } else {
            g = new Element("a").attr("href", "#f" + e.number()).attr("data-panel", "f" + e.number())
                    .id("a" + e.number());
            g.appendElement("rect").addClass("hit").attr("x", Integer.toString(LEFT - 2))
                    .attr("y", Integer.toString(y - ROW / 2 + 2)).attr("width", Integer.toString(RIGHT - LEFT + 4))
                    .attr("height", Integer.toString(ROW - 4)).attr("fill", "transparent");
        }
        g.addClass("arrow").addClass(e.kind().name().toLowerCase(Locale.ROOT));
        g.attr("data-direction", e.toResponder() ? "I2R" : "R2I");
        Element line = g.appendElement("line").attr("x1", Integer.toString(from)).attr("y1", Integer.toString(y))
                .attr("x2", Integer.toString(to)).attr("y2", Integer.toString(y)).attr("stroke", color)
                .attr("stroke-width", e.kind() == Ladder.Kind.TERMINATE ? "3" : "2")
                .attr("marker-end", "url(#head-" + connection + "-" + head + ")");
        if (e.kind() == Ladder.Kind.ERROR || e.kind() == Ladder.Kind.FIN || e.kind() == Ladder.Kind.RST) {
            line.attr("stroke-dasharray", "6 4");
        }
        int mid = (LEFT + RIGHT) / 2;
        String ink = color.equals(BLUE) || color.equals(GREY) ? "#263238" : color;
        text(g, mid, y - 7, e.label(), "label").attr("fill", ink);
        text(g, mid, y + 15, e.detail(), "detail");
        if (!e.parts().isEmpty()) {
            text(g, from == LEFT ? LEFT - 10 : RIGHT + 10, y + 4, "#" + e.number(), "number")
                    .attr("text-anchor", from == LEFT ? "end" : "start");
        }
        g.appendElement("title").text(e.label() + "\n" + e.detail());
        return g;
    }

    private static Element text(Element parent, int x, int y, String text, String cls) {
        return parent.appendElement("text").addClass(cls).attr("x", Integer.toString(x)).attr("y", Integer.toString(y))
                .attr("text-anchor", "middle").text(text);
    }

    /** The layers of one arrow, top down: per entry RDMAP, DDP, MPA (or the frame or error), then TCP. */
    private static Element panel(Ladder.Event e, Explainer.Wire wire) {
        Element panel = new Element("section").addClass("layers").addClass(e.kind().name().toLowerCase(Locale.ROOT))
                .id("f" + e.number());
        String sender = e.toResponder() ? "Initiator → Responder" : "Responder → Initiator";
        panel.appendElement("h3").text("#" + e.number() + "  " + e.label());
        panel.appendElement("p").addClass("where").text(sender + "  ·  " + e.detail());
        int n = 0;
        for (Ladder.Part p : e.parts()) {
            n++;
            Element part = panel.appendElement("div").addClass("part");
            if (e.parts().size() > 1) {
                part.appendElement("h4").text("DDP segment " + n + " of " + e.parts().size()
                        + "  (#" + p.number() + ")");
            }
            Layer frame = p.layer();
            Layer ddp = Ladder.child(frame, "ddp");
            Layer rdmap = ddp == null ? null : Ladder.child(ddp, "rdmap");
            if (rdmap != null) {
                part.appendChild(HtmlRenderer.render(rdmap).addClass("rdmap"));
            }
            if (ddp != null) {
                part.appendChild(HtmlRenderer.render(ddp, c -> c != rdmap).addClass("ddp"));
            }
            String cls = "fpdu".equals(Ladder.string(frame, "type")) ? "mpa" : "frame";
            part.appendChild(HtmlRenderer.render(frame, c -> c != ddp).addClass(cls));
            part.appendChild(HtmlRenderer.render(tcp(p, wire.stream(p.direction()))).addClass("tcp"));
        }
        return panel;
    }

    /** The octets TCP carried for one entry (for an error, the octets from where it was found on). */
    private static Layer tcp(Ladder.Part p, HalfStream stream) {
        byte[] bytes = stream.bytes();
        long offset = Math.min(p.span().offset(), bytes.length);
        long length = p.span().length() > 0 ? p.span().length() : Math.min(64, bytes.length - offset);
        byte[] octets = Arrays.copyOfRange(bytes, (int) offset, (int) Math.min(bytes.length, offset + length));
        List<Integer> frames = stream.framesFor(offset, Math.max(1, octets.length));
        Layer tcp = new Layer(String.format("TCP  %s offset %d, %d octets from tcp seq 0x%08x (%s → %s)",
                p.direction(), offset, octets.length, stream.sequenceAt(offset), stream.source(),
                stream.destination()), null);
        tcp.row("Sequence", Values.hex(stream.sequenceAt(offset), 8), "RFC 9293 §3.1",
                "sequence number of the first octet shown");
        String carried = frames.isEmpty() ? "none" : String.join(", ", frames.stream().map(String::valueOf).toList());
        tcp.row("pcap frames", carried, "", "the captured packets that carried these octets (first copy)");
        tcp.dump("Octets", octets, "", p.span().length() > 0 ? "the entry as TCP carried it"
                : "the octets from where the error was found on (at most 64)");
        return tcp;
    }

    private static String resource(String name) {
        try (InputStream in = LadderPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
