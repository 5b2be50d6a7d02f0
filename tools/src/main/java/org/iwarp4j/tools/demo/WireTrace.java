package org.iwarp4j.tools.demo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.tools.explain.Explainer;
import org.iwarp4j.tools.explain.Explanation;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.PcapFormatException;
import org.iwarp4j.tools.pcap.TcpConnection;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/**
 * The demo's capture decoded with {@code explain}'s dissector ({@link Explainer}): the MPA Request and
 * Reply, then every FPDU with its DDP segment and RDMAP message, grouped into RDMAP messages (a message
 * ends with the DDP segment whose L bit is set, RFC 5041 §4.1), in the order the client saw them.
 *
 * @param startup  the MPA Request and Reply, as explain's layers
 * @param messages the RDMAP messages in capture order
 * @param errors   decode errors explain reported (0 for a correct exchange)
 * @param packets  packets in the capture
 */
record WireTrace(List<Layer> startup, List<Message> messages, int errors, int packets) {

    /** One FPDU: its decoded layers, the octets TCP carried, and where. */
    record Segment(Layer fpdu, byte[] wire, long tcpSeq, List<Integer> frames) {

        Layer ddp() {
            return child(fpdu, "ddp");
        }

        Layer rdmap() {
            Layer ddp = ddp();
            return ddp == null ? null : child(ddp, "rdmap");
        }

        boolean last() {
            Layer ddp = ddp();
            return ddp == null || ddp.member("last") instanceof Json.Bool b && b.value();
        }
    }

    /**
     * One RDMAP message: its segments, sent by the client ({@code I2R}) or the server.
     *
     * @param fromClient whether the client (the MPA Initiator) sent it
     */
    record Message(boolean fromClient, List<Segment> segments) {

        String name() {
            Layer rdmap = segments.get(0).rdmap();
            return rdmap == null ? "(undecodable)" : rdmap.heading().replaceFirst("^RDMAP\\s+", "");
        }
    }

    static WireTrace decode(byte[] pcap, String name) throws PcapFormatException {
        Capture capture = Capture.read(pcap);
        return decode(capture, Explainer.explainCapture(capture, name));
    }

    /** The messages of {@code explanation}, explain's decoding of {@code capture}. */
    static WireTrace decode(Capture capture, Explanation explanation) {
        Map<String, HalfStream> streams = new LinkedHashMap<>();
        for (TcpConnection c : capture.connections()) {
            boolean firstIsInitiator = startsWithRequest(c.first()) || !startsWithRequest(c.second());
            streams.put("I2R", firstIsInitiator ? c.first() : c.second());
            streams.put("R2I", firstIsInitiator ? c.second() : c.first());
        }
        List<Layer> startup = new ArrayList<>();
        List<Message> messages = new ArrayList<>();
        Map<String, List<Segment>> open = new LinkedHashMap<>();
        for (Layer frame : explanation.frames()) {
            String type = string(frame, "type");
            if (!"fpdu".equals(type)) {
                if (type != null && type.startsWith("mpa-")) {
                    startup.add(frame);
                }
                continue;
            }
            String direction = string(frame, "direction");
            HalfStream stream = streams.get(direction);
            long offset = number(frame, "offset");
            int markers = frame.member("markers") instanceof Json.Arr a ? a.items().size() : 0;
            int wireLength = (int) (2 + number(frame, "ulpduLength") + number(frame, "padLength") + 4 + 4L * markers);
            byte[] bytes = stream == null ? new byte[0] : stream.bytes();
            byte[] wire = Arrays.copyOfRange(bytes, (int) Math.min(offset, bytes.length),
                    (int) Math.min(offset + wireLength, bytes.length));
            List<Integer> frames = new ArrayList<>();
            if (frame.member("frames") instanceof Json.Arr a) {
                a.items().forEach(j -> frames.add((int) ((Json.Num) j).value()));
            }
            Segment segment = new Segment(frame, wire, number(frame, "tcpSeq"), frames);
            List<Segment> segments = open.get(direction);
            if (segments == null) {
                segments = new ArrayList<>();
                open.put(direction, segments);
                messages.add(new Message("I2R".equals(direction), segments));
            }
            segments.add(segment);
            if (segment.last()) {
                open.remove(direction);
            }
        }
        return new WireTrace(startup, messages, explanation.errors(), capture.file().records());
    }

    private static boolean startsWithRequest(HalfStream s) {
        byte[] key = MpaFrameType.REQUEST.key();
        byte[] b = s.bytes();
        return b.length >= key.length && Arrays.equals(b, 0, key.length, key, 0, key.length);
    }

    static Layer child(Layer layer, String key) {
        for (Layer c : layer.children()) {
            if (key.equals(c.jsonKey())) {
                return c;
            }
        }
        return null;
    }

    static String string(Layer layer, String key) {
        return layer.member(key) instanceof Json.Str s ? s.value() : null;
    }

    static long number(Layer layer, String key) {
        return layer.member(key) instanceof Json.Num n ? n.value() : 0;
    }
}
