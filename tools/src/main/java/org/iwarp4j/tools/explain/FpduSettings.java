package org.iwarp4j.tools.explain;

import org.iwarp4j.mpa.FramingNegotiation;
import org.iwarp4j.mpa.frame.MpaFrame;

/**
 * How the FPDUs of one direction are framed, as the MPA startup negotiated it (RFC 5044 §7.1.1,
 * §4.4; table in §7.3 of the spec digest), with the reason in words.
 *
 * @param crc     CRCs generated and checked
 * @param markers the sender of this direction inserts markers
 * @param crcWhy     why CRCs are on or off, for people
 * @param markersWhy why markers are on or off, for people
 */
record FpduSettings(boolean crc, boolean markers, String crcWhy, String markersWhy) {

    /** Both reasons, e.g. {@code CRC on (Request C=1, Reply C=0), no markers (Reply M=0)}. */
    String why() {
        return crcWhy + ", " + markersWhy;
    }

    /**
     * Settings of the direction that {@code own}'s sender sends, given the peer's frame.
     *
     * @param own  the frame this direction started with
     * @param peer the frame the other direction started with, or {@code null} when the input does not hold it
     */
    static FpduSettings negotiated(MpaFrame own, MpaFrame peer) {
        String ownName = HalfConnectionDecoder.name(own.type());
        String peerName = HalfConnectionDecoder.name(own.type().other());
        // RFC 5044 §4.4: CRCs are used in both directions when either frame has C=1.
        boolean crc = peer == null ? own.crc() : FramingNegotiation.crc(own, peer);
        String crcWhy;
        if (peer == null) {
            crcWhy = own.crc() ? "CRC on (" + ownName + " C=1)"
                    : "CRC off (" + ownName + " C=0; the " + peerName + " is not in the input, assumed C=0)";
        } else {
            crcWhy = "CRC " + (crc ? "on" : "off") + " (" + ownName + " C=" + bit(own.crc()) + ", " + peerName + " C="
                    + bit(peer.crc()) + ")";
        }
        // RFC 5044 §7.1.1: a frame's M bit asks the *other* side to insert markers in what it sends.
        boolean markers = peer != null && FramingNegotiation.senderInsertsMarkers(peer);
        String markersWhy = peer == null
                ? "no markers (set by the M bit of the " + peerName + ", which is not in the input; assumed M=0)"
                : (markers ? "markers" : "no markers") + " (" + peerName + " M=" + bit(peer.markers()) + ")";
        return new FpduSettings(crc, markers, crcWhy, markersWhy);
    }

    private static String bit(boolean b) {
        return b ? "1" : "0";
    }
}
