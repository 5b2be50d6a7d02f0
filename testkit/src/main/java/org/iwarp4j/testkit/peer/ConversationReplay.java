package org.iwarp4j.testkit.peer;

import org.iwarp4j.oracle.FpduFraming;
import org.iwarp4j.oracle.StartupFrame;
import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.oracle.FpduStreamDecoder;
import org.iwarp4j.oracle.Hex;
import org.iwarp4j.testkit.ConversationStream;
import org.iwarp4j.testkit.ConversationStream.Direction;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a recorded conversation means above MPA: its two startup frames, the negotiated framing, and the
 * ULPDUs of both directions in causal order — the script the stack's side plays while a
 * {@link ScriptedPeer} replays the other side byte for byte ({@link ScriptedPeer#replay}).
 *
 * <p>Each ULPDU is placed in the timeline at the recorded segment in which its FPDU was completed, so "the
 * stack sends ULPDU x" never comes before the ULPDUs it answers. Decoding uses the peer's own oracle
 * ({@link FpduFraming}); an FPDU with a bad CRC or marker in a recording is an error.
 *
 * @param name     the conversation's name
 * @param request  the MPA Request (Initiator → Responder)
 * @param reply    the MPA Reply
 * @param crc      CRCs in use (C=1 in either frame, RFC 5044 §4.4)
 * @param timeline every ULPDU in causal order (empty when the Reply rejects)
 */
public record ConversationReplay(String name, StartupFrame request, StartupFrame reply, boolean crc,
                                 List<Ulpdu> timeline) {

    /** One ULPDU of the conversation: who sent it and its octets. */
    public record Ulpdu(Direction direction, byte[] octets) {
        @Override
        public String toString() {
            return direction + " ULPDU(" + octets.length + ") " + Hex.of(octets);
        }
    }

    /** Markers in the given direction: M in the other side's frame (RFC 5044 §7.1.1). */
    public boolean markers(Direction direction) {
        return direction == Direction.I2R ? reply.markers() : request.markers();
    }

    /** The ULPDUs one direction sends, in order. */
    public List<byte[]> ulpdus(Direction direction) {
        return timeline.stream().filter(u -> u.direction() == direction).map(Ulpdu::octets).toList();
    }

    /** Analyses a recorded conversation (Initiator = I2R side). */
    public static ConversationReplay of(ConversationStream stream) {
        return of(stream.name(), stream.segments());
    }

    public static ConversationReplay of(String name, List<ConversationStream.Segment> segments) {
        StartupFrame request = StartupFrame.parse(directionBytes(segments, Direction.I2R));
        StartupFrame reply = StartupFrame.parse(directionBytes(segments, Direction.R2I));
        if (!request.isRequest() || !reply.isReply()) {
            throw new IllegalArgumentException(name + ": the I2R side must start with a Request and R2I with a Reply");
        }
        boolean crc = request.crc() || reply.crc();
        List<Ulpdu> timeline = new ArrayList<>();
        if (!reply.rejected()) {
            Map<Direction, FpduStreamDecoder> decoders = new EnumMap<>(Direction.class);
            Map<Direction, Integer> skip = new EnumMap<>(Direction.class);
            decoders.put(Direction.I2R, new FpduStreamDecoder(new FpduFraming(crc, reply.markers(), 0)));
            decoders.put(Direction.R2I, new FpduStreamDecoder(new FpduFraming(crc, request.markers(), 0)));
            skip.put(Direction.I2R, request.length());
            skip.put(Direction.R2I, reply.length());
            for (ConversationStream.Segment s : segments) {
                byte[] p = s.payload();
                int drop = Math.min(skip.get(s.direction()), p.length);
                skip.put(s.direction(), skip.get(s.direction()) - drop);
                for (DecodedFpdu f : decoders.get(s.direction()).feed(Arrays.copyOfRange(p, drop, p.length))) {
                    if (!f.problems().isEmpty()) {
                        throw new IllegalArgumentException(name + ": recorded " + s.direction() + " " + f);
                    }
                    timeline.add(new Ulpdu(s.direction(), f.ulpdu()));
                }
            }
        }
        return new ConversationReplay(name, request, reply, crc, List.copyOf(timeline));
    }

    private static byte[] directionBytes(List<ConversationStream.Segment> segments, Direction d) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        segments.stream().filter(s -> s.direction() == d).forEach(s -> out.writeBytes(s.payload()));
        return out.toByteArray();
    }
}
