package org.iwarp4j.testkit;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;

/**
 * The TCP payload of one iWARP connection from the golden pcaps, segment by segment
 * ({@code vectors/streams/*.stream}). The conversations are causally ordered, so they can drive a
 * scripted peer.
 */
public record ConversationStream(String name, String description, List<Segment> segments) {

    /** Direction of a segment: Initiator to Responder, or Responder to Initiator. */
    public enum Direction { I2R, R2I }

    /**
     * One TCP segment.
     *
     * @param direction who sent it
     * @param offset    octets this direction sent before this segment, from the first MPA Request/Reply octet
     * @param tcpSeq    TCP sequence number of its first octet
     * @param payload   the octets
     */
    public record Segment(Direction direction, long offset, long tcpSeq, byte[] payload) {}

    public List<Segment> segments(Direction direction) {
        return segments.stream().filter(s -> s.direction() == direction).toList();
    }

    /** All octets one direction sent, in order. */
    public byte[] bytes(Direction direction) {
        var out = new ByteArrayOutputStream();
        for (Segment s : segments(direction)) {
            out.writeBytes(s.payload());
        }
        return out.toByteArray();
    }

    static Segment parseSegment(String value) {
        Direction dir = null;
        long offset = -1;
        long seq = -1;
        byte[] payload = null;
        for (String part : value.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            String k = part.substring(0, eq);
            String v = part.substring(eq + 1);
            switch (k) {
                case "dir" -> dir = Direction.valueOf(v);
                case "offset" -> offset = Long.parseLong(v);
                case "tcp_seq" -> seq = Long.parseLong(v.substring(2), 16);
                case "hex" -> payload = HexFormat.of().parseHex(v);
                case "len" -> { /* checked below */ }
                default -> throw new IllegalArgumentException("unknown segment attribute " + k);
            }
        }
        if (dir == null || offset < 0 || seq < 0 || payload == null) {
            throw new IllegalArgumentException("incomplete segment line: " + value);
        }
        return new Segment(dir, offset, seq, payload);
    }
}
