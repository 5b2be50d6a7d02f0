package org.iwarp4j.tools.explain;

import java.util.List;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/** Where the octets of one decoded direction came from: says where an entry is, for people and in JSON. */
sealed interface Origin {

    /** Where octets {@code [offset, offset + length)} are, for an entry's heading. */
    String where(long offset, long length);

    /**
     * A short reference to the entry at {@code offset}, for other entries to point at it:
     * {@code I2R offset 44 (pcap frame 6)}.
     */
    String ref(long offset);

    /** Adds the JSON members that locate the entry beyond its {@code offset}. */
    void annotate(Layer entry, long offset, long length);

    /** The first pcap frame that carried octet {@code offset} (0 outside a capture). */
    int frameAt(long offset);

    /** The octets of a hex file: offsets are positions in the input. */
    record Input() implements Origin {
        @Override
        public String where(long offset, long length) {
            return length <= 0 ? "at input offset " + offset
                    : "input octets " + offset + ".." + (offset + length - 1) + " (" + octets(length) + ")";
        }

        @Override
        public String ref(long offset) {
            return "input offset " + offset;
        }

        @Override
        public void annotate(Layer entry, long offset, long length) {}

        @Override
        public int frameAt(long offset) {
            return 0;
        }
    }

    /**
     * One direction of a captured TCP connection: offsets are positions in its reassembled stream.
     *
     * @param connection {@code initiator-responder}, e.g. {@code 127.0.0.1:40001-127.0.0.2:50001}
     * @param direction  {@code I2R} or {@code R2I}
     */
    record Captured(String connection, String direction, HalfStream stream) implements Origin {
        @Override
        public String where(long offset, long length) {
            List<Integer> frames = stream.framesFor(offset, length);
            String seq = "tcp seq " + Values.hex(stream.sequenceAt(offset), 8);
            return direction + " offset " + offset + (length > 0 ? ", " + octets(length) : "") + ", " + seq
                    + (frames.isEmpty() ? ""
                            : (frames.size() == 1 ? ", pcap frame " : ", pcap frames ") + frameList(frames));
        }

        @Override
        public String ref(long offset) {
            List<Integer> frames = stream.framesFor(offset, 1);
            return direction + " offset " + offset + (frames.isEmpty() ? "" : " (pcap frame " + frames.get(0) + ")");
        }

        @Override
        public void annotate(Layer entry, long offset, long length) {
            entry.json("connection", Json.str(connection))
                    .json("direction", Json.str(direction))
                    .json("tcpSeq", Json.num(stream.sequenceAt(offset)))
                    .json("frames", Json.arr(stream.framesFor(offset, length).stream().map(f -> Json.num(f)).toList()));
        }

        @Override
        public int frameAt(long offset) {
            List<Integer> frames = stream.framesFor(offset, 1);
            if (!frames.isEmpty()) {
                return frames.get(0);
            }
            // Past the captured octets (an error at the end): the last frame that carried any.
            return stream.pieces().isEmpty() ? Integer.MAX_VALUE
                    : stream.pieces().get(stream.pieces().size() - 1).frame();
        }

        private static String frameList(List<Integer> frames) {
            if (frames.size() > 4) {
                return frames.get(0) + ".." + frames.get(frames.size() - 1);
            }
            StringBuilder s = new StringBuilder();
            for (int f : frames) {
                s.append(s.length() == 0 ? "" : ",").append(f);
            }
            return s.toString();
        }
    }

    static String octets(long n) {
        return n + (n == 1 ? " octet" : " octets");
    }
}
