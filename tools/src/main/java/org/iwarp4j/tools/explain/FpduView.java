package org.iwarp4j.tools.explain;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.fpdu.DissectedFpdu;
import org.iwarp4j.mpa.fpdu.DissectedMarker;
import org.iwarp4j.tools.report.Json;
import org.iwarp4j.tools.report.Layer;

/** One FPDU, as the mpa module's dissector found it, shown field by field (RFC 5044 §4). */
final class FpduView {

    private FpduView() {}

    /**
     * @param offset  offset of the FPDU in the input or stream (what the entry reports)
     * @param markers whether the half connection carries markers (then the stream offset is shown)
     * @param octets  whether to show the ULPDU's octets (its dump, JSON {@code ulpdu}); without them the layer
     *                holds only the fields, for a caller that reads nothing else ({@code --summary})
     */
    static Layer of(DissectedFpdu d, long offset, boolean markers, Origin origin, boolean octets) {
        Layer l = new Layer("FPDU  " + origin.where(offset, d.wireLength()), null)
                .json("type", Json.str("fpdu"))
                .json("offset", Json.num(offset));
        if (markers) {
            l.row("From SeqStart", Values.hexAndDecimal(d.streamOffset(), 1), Rfc.MPA_MARKERS,
                    "where the FPDU starts, counted from SeqStart; a marker sits at every multiple of 512");
        }
        List<DissectedMarker> inner = new ArrayList<>();
        for (DissectedMarker m : d.markers()) {
            if (m.leading()) {
                marker(l, m, d);
            } else {
                inner.add(m);
            }
        }
        int ulpduLength = d.ulpduLength();
        l.field("ULPDU_Length", Values.hexAndDecimal(ulpduLength, 4), Rfc.MPA_FPDU,
                "octets of ULPDU; PAD, CRC and markers are not counted", "ulpduLength", Json.num(ulpduLength));
        if (ulpduLength > Mulpdu.MAX) {
            l.note(String.format("ULPDU_Length %d exceeds %d, the largest MULPDU a conforming sender uses (%s)",
                    ulpduLength, Mulpdu.MAX, Rfc.MPA_MULPDU));
        }
        byte[] ulpdu = octets ? d.ulpdu() : null;
        if (octets) {
            l.dump("ULPDU", ulpdu, Rfc.MPA_FPDU, inner.isEmpty()
                    ? "one DDP segment, handed to DDP"
                    : "one DDP segment, handed to DDP without the markers shown below");
        }
        for (DissectedMarker m : inner) {
            marker(l, m, d);
        }
        l.field("PAD", Origin.octets(d.padLength()), Rfc.MPA_FPDU,
                "makes 2 + ULPDU_Length + PAD a multiple of 4; sent as zeros, covered by the CRC",
                "padLength", Json.num(d.padLength()));
        l.field("CRC", Values.hex(d.crcField(), 8), Rfc.MPA_CRC, crcVerdict(d),
                "crc", Json.str(Values.hex(d.crcField(), 8)));
        l.json("crcValid", Json.boolOrNull(d.crcValid()));
        List<Json> markerJson = new ArrayList<>();
        for (DissectedMarker m : d.markers()) {
            markerJson.add(Json.obj("offset", Json.num(m.fpduOffset()), "fpduPtr", Json.num(m.fpduptr())));
        }
        l.json("markers", Json.arr(markerJson));
        if (octets) {
            l.json("ulpdu", Json.str(HexFormat.of().formatHex(ulpdu)));
        }
        return l;
    }

    private static String crcVerdict(DissectedFpdu d) {
        long v = d.crcField();
        String wire = "wire " + Values.digits((int) (v & 0xff), 2) + " " + Values.digits((int) (v >> 8 & 0xff), 2) + " "
                + Values.digits((int) (v >> 16 & 0xff), 2) + " " + Values.digits((int) (v >> 24 & 0xff), 2);
        if (d.crcValid() == null) {
            return "not checked (CRC off, " + Rfc.MPA_CRC + "); " + wire;
        }
        return d.crcValid()
                ? "valid: CRC32c over the " + d.crcCoveredLength() + " octets before it; " + wire
                : "INVALID (expected " + Values.hex(d.computedCrc(), 8) + " over the " + d.crcCoveredLength()
                        + " octets before it); " + wire;
    }

    private static void marker(Layer l, DissectedMarker m, DissectedFpdu d) {
        long streamOffset = (d.streamOffset() + m.fpduOffset()) & 0xffffffffL;
        String value = "FPDUPTR " + Values.hexAndDecimal(m.fpduptr(), 4);
        StringBuilder meaning = new StringBuilder("at FPDU+").append(m.fpduOffset()).append(" (SeqStart+")
                .append(Values.hex(streamOffset, 1)).append("): ");
        if (!m.valid()) {
            meaning.append("MISMATCH: ULPDU_Length puts this FPDU's start ").append(m.expectedFpduptr())
                    .append(" octets back");
        } else if (m.leading()) {
            meaning.append("between two FPDUs: belongs to this FPDU and is covered by its CRC");
        } else {
            meaning.append("points back to this FPDU's ULPDU_Length");
        }
        if (m.reserved() != 0) {
            meaning.append("; RESERVED ").append(Values.hex(m.reserved(), 4)).append(" is not 0 (ignored)");
        }
        l.row("Marker", value, Rfc.MPA_MARKERS, meaning.toString());
    }
}
