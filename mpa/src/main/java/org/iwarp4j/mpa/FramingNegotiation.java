package org.iwarp4j.mpa;

import org.iwarp4j.mpa.frame.MpaFrame;

import java.util.Objects;

/**
 * How the MPA Request and Reply decide the framing of Full Operation (RFC 5044 §7.1.1, §4.4), as one
 * rule used by the startup (both roles), the dissectors and the tools:
 *
 * <ul>
 *   <li><b>CRC</b>: on in both directions when either frame has C=1 (RFC 5044 §4.4: "if either
 *       endpoint requests CRC, CRCs MUST be used").</li>
 *   <li><b>Markers</b>: per direction; a frame's M bit asks the <em>other</em> endpoint to insert
 *       markers in what it sends (RFC 5044 §7.1.1). So the sender of a direction inserts markers iff
 *       the peer's frame had M=1.</li>
 * </ul>
 */
public final class FramingNegotiation {

    private FramingNegotiation() {}

    /** RFC 5044 §4.4: CRCs are generated and checked in both directions when either frame has C=1. */
    public static boolean crc(MpaFrame request, MpaFrame reply) {
        return Objects.requireNonNull(request, "request").crc() || Objects.requireNonNull(reply, "reply").crc();
    }

    /**
     * RFC 5044 §7.1.1: whether the endpoint that receives {@code peerFrame} must insert markers in what
     * it sends (the peer's M bit).
     */
    public static boolean senderInsertsMarkers(MpaFrame peerFrame) {
        return Objects.requireNonNull(peerFrame, "peerFrame").markers();
    }
}
