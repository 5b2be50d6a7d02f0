package org.iwarp4j.tools.explain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.tools.pcap.Capture;
import org.iwarp4j.tools.pcap.HalfStream;
import org.iwarp4j.tools.pcap.TcpConnection;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.JsonWriter;
import org.iwarp4j.tools.report.Layer;

/**
 * {@code explain --pcap FILE --summary}: one JSON object per captured connection, built from the same decoded
 * frames as {@code --json}, for scripts that judge a whole conversation (the siw matrix does). Per connection:
 * who was Initiator and Responder, how the MPA startup ended ({@code "mpa"}: {@code accept}, {@code reject} or
 * {@code none}), the Request and Reply (their decoded fields and octets), whether CRCs were on, and per
 * direction what its sender put on the wire: FPDUs by RDMAP opcode in order, the first FPDU with its octets,
 * the ULPDU_Length of each FPDU, FPDUs whose PAD is not zero (a sender should send zeros, RFC 5044 §4.1),
 * zero-length RDMA Writes, FPDUs with a CRC error, error entries, the first Terminate (decoded as {@code --json}
 * decodes it), and how the direction ended ({@code FIN}, {@code RST} or {@code none}).
 */
final class ConnectionSummary {

    private ConnectionSummary() {}

    /**
     * {@link #render(Explanation)} for a whole capture without its {@link Explanation}: each connection is decoded
     * entry by entry ({@link ConnectionExplainer.Stream}), its entries summed up and dropped as they come, and its
     * object written to {@code out} once its last entry is in. The capture's octets are the only thing held
     * whole; of its frames no more than a few at a time.
     *
     * @return the number of error entries, as {@link Explanation#errors()} counts them
     */
    static int write(Capture capture, TerminateLayout terminateLayout, PrintWriter out) {
        int errors = 0;
        int number = 0;
        StringBuilder text = new StringBuilder();
        for (TcpConnection conn : capture.connections()) {
            // The summary reads no ULPDU octets of the layers: they are not shown, only decoded.
            ConnectionExplainer.Stream stream = ConnectionExplainer.open(++number, conn, terminateLayout, false);
            Builder connection = new Builder(number, stream.wire());
            for (Entry e = stream.next(); e != null; e = stream.next()) {
                connection.add(e.layer(), e.offset(), e.length());
            }
            errors += stream.errors();
            text.setLength(0);
            JsonWriter.write(connection.build(), text.append(number == 1 ? "[\n" : ",\n"));
            out.print(text);
        }
        out.print(number == 0 ? "[]\n" : "\n]\n");
        return errors;
    }

    /** {@link #of(Explanation)} as text: a JSON array, one connection per line. */
    static String render(Explanation explanation) {
        List<Json> items = of(explanation).items();
        if (items.isEmpty()) {
            return "[]\n";
        }
        StringBuilder out = new StringBuilder("[\n");
        for (int i = 0; i < items.size(); i++) {
            JsonWriter.write(items.get(i), out);
            out.append(i + 1 < items.size() ? ",\n" : "\n");
        }
        return out.append("]\n").toString();
    }

    /** One object per section that explains a captured connection, in capture order. */
    static Json.Arr of(Explanation explanation) {
        List<Json> out = new ArrayList<>();
        int number = 0;
        for (Explainer.Section section : explanation.sections()) {
            if (section.wire() != null) {
                Builder connection = new Builder(++number, section.wire());
                for (int i = 0; i < section.frames().size(); i++) {
                    Explainer.Span span = section.spans().get(i);
                    connection.add(section.frames().get(i), span.offset(), span.length());
                }
                out.add(connection.build());
            }
        }
        return new Json.Arr(out);
    }

    /** One connection's object, from its entries handed in one at a time and not kept. */
    private static final class Builder {
        private final int number;
        private final Explainer.Wire wire;
        private final ByteBuf i2r;
        private final ByteBuf r2i;
        private final Side toResponder = new Side();
        private final Side toInitiator = new Side();
        private Json.Obj request;
        private Json.Obj reply;

        Builder(int number, Explainer.Wire wire) {
            this.number = number;
            this.wire = wire;
            this.i2r = wire.i2r().view(); // read in place: the streams are not copied
            this.r2i = wire.r2i().view();
        }

        /** An entry: its layer, and octets {@code [offset, offset + length)} of its direction's stream. */
        void add(Layer entry, long offset, long length) {
            Json.Obj frame = entry.toJson();
            String direction = string(frame.get("direction"));
            ByteBuf stream = "R2I".equals(direction) ? r2i : i2r;
            Side side = "R2I".equals(direction) ? toInitiator : toResponder;
            int from = (int) Math.min(offset, stream.readableBytes());
            int to = (int) Math.min(offset + length, stream.readableBytes());
            ByteBuf octets = stream.slice(from, to - from);
            String type = string(frame.get("type"));
            switch (type == null ? "" : type) {
                case "mpa-request" -> request = request == null ? withOctets(frame, octets) : request;
                case "mpa-reply" -> reply = reply == null ? withOctets(frame, octets) : reply;
                case "fpdu" -> side.fpdu(frame, octets);
                case "error" -> side.errors++;
                default -> { }
            }
        }

        Json.Obj build() {
            boolean accepted = reply != null && !bool(reply.get("r"));
            String mpa = reply == null ? "none" : accepted ? "accept" : "reject";
            boolean crc = accepted && request != null && (bool(request.get("c")) || bool(reply.get("c")));
            List<Json.Member> m = new ArrayList<>();
            m.add(member("connection", new Json.Num(number)));
            m.add(member("initiator", new Json.Str(wire.initiator().toString())));
            m.add(member("responder", new Json.Str(wire.responder().toString())));
            m.add(member("mpa", new Json.Str(mpa)));
            m.add(member("crc", new Json.Bool(crc)));
            m.add(member("request", request == null ? Json.Null.NULL : request));
            m.add(member("reply", reply == null ? Json.Null.NULL : reply));
            m.add(member("initiatorSent", toResponder.toJson(wire.i2r())));
            m.add(member("responderSent", toInitiator.toJson(wire.r2i())));
            return new Json.Obj(m);
        }
    }

    /** What one direction carried after its MPA frame. */
    private static final class Side {
        final List<Json> ops = new ArrayList<>();
        final List<Json> ulpduLengths = new ArrayList<>();
        final Map<String, Long> counts = new LinkedHashMap<>();
        Json first = Json.Null.NULL;
        Json terminate = Json.Null.NULL;
        long terminates;
        long zeroLengthWrites;
        long crcErrors;
        long nonZeroPads;
        long errors;

        void fpdu(Json.Obj frame, ByteBuf octets) {
            Json.Obj rdmap = frame.get("rdmap") instanceof Json.Obj o ? o : null;
            String op = rdmap == null ? "undecoded" : string(rdmap.get("opcode"));
            op = op == null ? "undecoded" : op;
            if (ops.isEmpty()) {
                first = new Json.Obj(List.of(member("op", new Json.Str(op)),
                        member("octets", new Json.Str(ByteBufUtil.hexDump(octets)))));
            }
            ops.add(new Json.Str(op));
            if (frame.get("ulpduLength") instanceof Json.Num n) {
                ulpduLengths.add(n);
                boolean markers = frame.get("markers") instanceof Json.Arr a && !a.items().isEmpty();
                if (!markers && frame.get("padLength") instanceof Json.Num pad
                        && nonZero(octets, 2 + (int) n.value(), (int) pad.value())) {
                    nonZeroPads++;
                }
            }
            counts.merge(op, 1L, Long::sum);
            if (frame.get("crcValid") instanceof Json.Bool b && !b.value()) {
                crcErrors++;
            }
            if ("RDMA_WRITE".equals(op) && rdmap.get("payloadLength") instanceof Json.Num n && n.value() == 0) {
                zeroLengthWrites++;
            }
            if ("TERMINATE".equals(op) && ++terminates == 1 && rdmap.get("terminate") instanceof Json.Obj t) {
                terminate = t;
            }
        }

        Json.Obj toJson(HalfStream stream) {
            List<Json.Member> c = new ArrayList<>();
            counts.forEach((op, n) -> c.add(member(op, new Json.Num(n))));
            String close = "none";
            long closeFrame = 0;
            if (!stream.closings().isEmpty()) {
                HalfStream.Closing first = stream.closings().get(0);
                close = first.reset() ? "RST" : "FIN";
                closeFrame = first.frame();
            }
            return new Json.Obj(List.of(member("fpdus", new Json.Num(ops.size())), member("ops", new Json.Arr(ops)),
                    member("opCounts", new Json.Obj(c)), member("ulpduLengths", new Json.Arr(ulpduLengths)),
                    member("first", first), member("nonZeroPads", new Json.Num(nonZeroPads)),
                    member("zeroLengthWrites", new Json.Num(zeroLengthWrites)),
                    member("crcErrors", new Json.Num(crcErrors)),
                    member("errors", new Json.Num(errors)), member("terminates", new Json.Num(terminates)),
                    member("terminate", terminate), member("close", new Json.Str(close)),
                    member("closeFrame", new Json.Num(closeFrame))));
        }
    }

    /** Whether any of the {@code length} octets from {@code from} is not zero (PAD, RFC 5044 §4.1). */
    private static boolean nonZero(ByteBuf octets, int from, int length) {
        for (int i = from; i < Math.min(octets.readableBytes(), from + length); i++) {
            if (octets.getByte(octets.readerIndex() + i) != 0) {
                return true;
            }
        }
        return false;
    }

    private static Json.Obj withOctets(Json.Obj frame, ByteBuf octets) {
        List<Json.Member> m = new ArrayList<>(frame.members());
        m.add(member("octets", new Json.Str(ByteBufUtil.hexDump(octets))));
        return new Json.Obj(m);
    }

    private static Json.Member member(String key, Json value) {
        return new Json.Member(key, value);
    }

    private static String string(Json v) {
        return v instanceof Json.Str s ? s.value() : null;
    }

    private static boolean bool(Json v) {
        return v instanceof Json.Bool b && b.value();
    }
}
