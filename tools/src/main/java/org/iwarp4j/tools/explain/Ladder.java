package org.iwarp4j.tools.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The events of one captured connection as a ladder diagram draws them, from what {@link Explainer} decoded (its
 * layers, read through their JSON members; nothing is decoded again): the MPA Request and Reply, each RDMAP message
 * (its DDP segments grouped: a message ends with the segment whose L bit is set, RFC 5041 §4.1), each error entry,
 * and the TCP FINs and RSTs of either side, in capture order.
 *
 * @param number  the connection's number in the capture (1, 2, ...)
 * @param section what explain decoded for it
 * @param events  what the diagram shows, top to bottom
 */
record Ladder(int number, Explainer.Section section, List<Event> events) {

    enum Kind { MPA, REJECT, MESSAGE, TERMINATE, ERROR, FIN, RST }

    /**
     * One entry of the explanation: its number as the text output numbers it ({@code #N}), its layers and where its
     * octets are.
     */
    record Part(int number, Layer layer, Explainer.Span span, String direction) {}

    /**
     * One arrow of the diagram.
     *
     * @param toResponder whether it goes from the Initiator to the Responder
     * @param frame       the pcap frame that carried its first octet
     * @param label       what the arrow says (operation, MSN, STag/TO, length)
     * @param detail      the line below the arrow (entry numbers, pcap frame, segments)
     * @param parts       the entries it stands for (several DDP segments of one message); none for FIN and RST
     * @param warned      whether explain warned about one of its entries
     */
    record Event(Kind kind, boolean toResponder, int frame, String label, String detail, List<Part> parts,
                 boolean warned) {

        /** The number of its first entry, or 0 (FIN, RST). */
        int number() {
            return parts.isEmpty() ? 0 : parts.get(0).number();
        }
    }

    /** The ladder of every captured connection of {@code explanation}, numbering entries as the text output does. */
    static List<Ladder> of(Explanation explanation) {
        List<Ladder> ladders = new ArrayList<>();
        int number = 0;
        int connection = 0;
        for (Explainer.Section section : explanation.sections()) {
            connection++;
            List<Part> parts = new ArrayList<>();
            for (int i = 0; i < section.frames().size(); i++) {
                Layer layer = section.frames().get(i);
                parts.add(new Part(++number, layer, section.spans().get(i), string(layer, "direction")));
            }
            if (section.wire() != null) {
                ladders.add(new Ladder(connection, section, events(parts, section.wire())));
            }
        }
        return ladders;
    }

    private static List<Event> events(List<Part> parts, Explainer.Wire wire) {
        List<Event> events = new ArrayList<>();
        Map<String, List<Part>> open = new HashMap<>();
        List<Pending> messages = new ArrayList<>();
        for (Part p : parts) {
            String type = string(p.layer(), "type");
            boolean toResponder = !"R2I".equals(p.direction());
            if ("fpdu".equals(type)) {
                Layer ddp = child(p.layer(), "ddp");
                String key = ddp == null || child(ddp, "rdmap") == null ? null : p.direction() + messageKey(ddp);
                List<Part> message = key == null ? null : open.get(key);
                if (message == null) {
                    message = new ArrayList<>();
                    messages.add(new Pending(events.size(), message));
                    events.add(null); // filled in below, once every segment is known
                    if (key != null) {
                        open.put(key, message);
                    }
                }
                message.add(p);
                if (key != null && bool(ddp, "last")) {
                    open.remove(key);
                }
            } else if ("error".equals(type)) {
                events.add(new Event(Kind.ERROR, toResponder, p.span().frame(), errorLabel(p.layer()),
                        detail(List.of(p)), List.of(p), false));
            } else {
                events.add(mpa(p, toResponder));
            }
        }
        for (Pending m : messages) {
            events.set(m.slot(), message(m.segments()));
        }
        for (HalfStream.Closing c : wire.i2r().closings()) {
            events.add(closing(c, true));
        }
        for (HalfStream.Closing c : wire.r2i().closings()) {
            events.add(closing(c, false));
        }
        // Capture order; an entry before the FIN or RST its own packet carries (a stable sort keeps that order).
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingInt(Event::frame)
                .thenComparingInt(e -> e.kind() == Kind.FIN || e.kind() == Kind.RST ? 1 : 0));
        return sorted;
    }

    /** A message whose segments are still being collected, and where its event goes. */
    private record Pending(int slot, List<Part> segments) {}

    /** DDP segments of one message share their queue and MSN (untagged) or their STag (tagged), RFC 5041 §4. */
    private static String messageKey(Layer ddp) {
        return bool(ddp, "tagged") ? " T " + string(ddp, "stag") : " U " + number(ddp, "qn") + " " + number(ddp, "msn");
    }

    private static Event mpa(Part p, boolean toResponder) {
        Layer l = p.layer();
        boolean request = "mpa-request".equals(string(l, "type"));
        boolean rejected = !request && bool(l, "r");
        StringBuilder label = new StringBuilder(request ? "MPA Request" : "MPA Reply");
        if (l.member("rev") != null) {
            label.append("  Rev ").append(number(l, "rev"));
            label.append("  M=").append(bit(l, "m")).append(" C=").append(bit(l, "c"))
                    .append(" R=").append(bit(l, "r"));
        }
        if (l.member("ird") != null) {
            label.append("  IRD ").append(number(l, "ird")).append(" ORD ").append(number(l, "ord"));
        }
        if (rejected) {
            label.append("  rejected");
        }
        return new Event(rejected ? Kind.REJECT : Kind.MPA, toResponder, p.span().frame(), label.toString(),
                detail(List.of(p)), List.of(p), false);
    }

    private static Event message(List<Part> segments) {
        Part first = segments.get(0);
        Layer ddp = child(first.layer(), "ddp");
        Layer rdmap = ddp == null ? null : child(ddp, "rdmap");
        boolean toResponder = !"R2I".equals(first.direction());
        boolean warned = segments.stream().anyMatch(s -> s.layer().member("notes") instanceof Json.Arr a
                && !a.items().isEmpty());
        if (rdmap == null) {
            String what = ddp == null ? "FPDU (no DDP segment decoded)" : "DDP segment (no RDMAP message decoded)";
            return new Event(Kind.MESSAGE, toResponder, first.span().frame(), what, detail(segments), segments, warned);
        }
        String opcode = string(rdmap, "opcode");
        StringBuilder label = new StringBuilder(operation(rdmap));
        if (bool(ddp, "tagged")) {
            label.append("  STag ").append(string(ddp, "stag")).append(" TO ").append(string(ddp, "to"));
        } else {
            label.append("  MSN ").append(number(ddp, "msn"));
        }
        long payload = 0;
        boolean carries = false;
        for (Part s : segments) {
            Layer d = child(s.layer(), "ddp");
            Layer r = d == null ? null : child(d, "rdmap");
            if (r != null && r.member("payloadLength") != null) {
                carries = true;
                payload += number(r, "payloadLength");
            }
        }
        Json.Obj read = objectMember(rdmap, "readRequest");
        Json.Obj atomics = objectMember(rdmap, "atomic");
        if (read != null) {
            label.append("  src STag ").append(str(read, "srcStag")).append(" TO ").append(str(read, "srcTo"))
                    .append("  ").append(octets(num(read, "size")));
        } else if (atomics != null && str(atomics, "remoteStag") != null) {
            label.append("  ").append(str(atomics, "aopcodeName")).append("  STag ").append(str(atomics, "remoteStag"))
                    .append(" TO ").append(str(atomics, "remoteTo"));
        } else if (carries) {
            label.append("  ").append(octets(payload));
        }
        String detail = detail(segments);
        Kind kind = Kind.MESSAGE;
        if ("TERMINATE".equals(opcode)) {
            kind = Kind.TERMINATE;
            Json.Obj t = objectMember(rdmap, "terminate");
            if (t != null && str(t, "cause") != null) {
                detail = str(t, "cause") + "  ·  " + detail;
            }
        }
        return new Event(kind, toResponder, first.span().frame(), label.toString(), detail, segments, warned);
    }

    private static Event closing(HalfStream.Closing c, boolean toResponder) {
        String what = c.reset() ? "TCP RST" : "TCP FIN";
        return new Event(c.reset() ? Kind.RST : Kind.FIN, toResponder, c.frame(), what,
                "pcap frame " + c.frame(), List.of(), false);
    }

    /** {@code RDMAP  RDMA Read Request (RFC 5040 §4.4)} → {@code RDMA Read Request}. */
    static String operation(Layer rdmap) {
        return rdmap.heading().replaceFirst("^RDMAP\\s+", "").replaceFirst("\\s*\\(RFC [^)]*\\)$", "");
    }

    private static String errorLabel(Layer error) {
        String layer = string(error, "layer");
        String message = string(error, "message");
        String label = "ERROR" + (layer == null ? "" : " " + layer) + (message == null ? "" : ": " + message);
        return label.length() > 90 ? label.substring(0, 89) + "…" : label;
    }

    private static String detail(List<Part> parts) {
        Part first = parts.get(0);
        Part last = parts.get(parts.size() - 1);
        String numbers = parts.size() == 1 ? "#" + first.number() : "#" + first.number() + "–#" + last.number();
        String frames = first.span().frame() == last.span().frame() ? "pcap frame " + first.span().frame()
                : "pcap frames " + first.span().frame() + "–" + last.span().frame();
        if (first.span().frame() == Integer.MAX_VALUE) {
            frames = "after the last captured octet";
        }
        return numbers + "  ·  " + frames + (parts.size() > 1 ? "  ·  " + parts.size() + " DDP segments" : "");
    }

    private static String octets(long n) {
        return n + (n == 1 ? " octet" : " octets");
    }

    private static String bit(Layer l, String key) {
        return bool(l, key) ? "1" : "0";
    }

    static Layer child(Layer layer, String key) {
        for (Layer c : layer.children()) {
            if (key.equals(c.jsonKey())) {
                return c;
            }
        }
        return null;
    }

    private static Json.Obj objectMember(Layer layer, String key) {
        Layer c = child(layer, key);
        if (c != null) {
            return c.toJson();
        }
        return layer.toJson().members().stream().filter(m -> m.key().equals(key) && m.value() instanceof Json.Obj)
                .map(m -> (Json.Obj) m.value()).findFirst().orElse(null);
    }

    private static String str(Json.Obj o, String key) {
        return o.members().stream().filter(m -> m.key().equals(key) && m.value() instanceof Json.Str)
                .map(m -> ((Json.Str) m.value()).value()).findFirst().orElse(null);
    }

    private static long num(Json.Obj o, String key) {
        return o.members().stream().filter(m -> m.key().equals(key) && m.value() instanceof Json.Num)
                .mapToLong(m -> ((Json.Num) m.value()).value()).findFirst().orElse(0);
    }

    static String string(Layer layer, String key) {
        return layer.member(key) instanceof Json.Str s ? s.value() : null;
    }

    static long number(Layer layer, String key) {
        return layer.member(key) instanceof Json.Num n ? n.value() : 0;
    }

    static boolean bool(Layer layer, String key) {
        return layer.member(key) instanceof Json.Bool b && b.value();
    }
}
