package org.iwarp4j.mpa.fpdu;

/**
 * The arithmetic of FPDU framing and markers (RFC 5044 §4.1–§4.4): the one place that knows where
 * PAD, markers and the CRC go. Shared by {@link FpduWriter}, {@link FpduReader} and
 * {@link FpduDissector}.
 *
 * <pre>
 * FPDU (no markers):  ULPDU_Length(2, BE) | ULPDU | PAD (0..3) | CRC (4, LSB first)
 * </pre>
 *
 * <b>Content</b> is {@code ULPDU_Length || ULPDU || PAD}, {@code 2 + ULPDU_Length + PAD} octets, a
 * multiple of 4. With markers, a 4-octet marker {@code RESERVED(16) | FPDUPTR(16)} starts at every
 * stream offset that is a multiple of 512 (offsets relative to SeqStart, modulo 2^32, RFC 5044 §4.3):
 * <ul>
 *   <li>a marker exactly at the FPDU's first octet (stream offset ≡ 0 mod 512) falls between FPDUs:
 *       FPDUPTR 0, it belongs to this (the following) FPDU and its CRC covers it (§4.3, §4.4);
 *       the ULPDU_Length field then starts 4 octets into the FPDU ("header position");</li>
 *   <li>inner markers fall after content index {@code i > 0} (never inside ULPDU_Length, never
 *       inside the CRC, because everything is 4-aligned), at content indices
 *       {@code first, first + 508, first + 1016, …} up to and including {@code i == content length}
 *       (a marker between PAD and CRC, which this FPDU's CRC covers);</li>
 *   <li>the FPDUPTR of inner marker {@code k} (0-based) is {@code contentIndex + 4k}: the distance
 *       in stream octets from the first octet of ULPDU_Length to the marker, counting earlier markers
 *       of the same FPDU (§4.3). On the wire it is 16 bits; compare modulo 2^16.</li>
 * </ul>
 * Stream offsets are {@code int}s interpreted modulo 2^32, so TCP sequence wrap is automatic.
 * Every FPDU starts and ends 4-aligned relative to SeqStart.
 */
public final class FpduLayout {

    /** ULPDU_Length field length. */
    public static final int LENGTH_FIELD = 2;
    /** Marker length. */
    public static final int MARKER_LENGTH = 4;
    /** Markers start every 512 octets of the stream (RFC 5044 §4.3). */
    public static final int MARKER_INTERVAL = 512;
    /** Content octets between two markers inside one FPDU. */
    public static final int CONTENT_PER_MARKER = MARKER_INTERVAL - MARKER_LENGTH;
    /** Offset of FPDUPTR within a marker. */
    public static final int FPDUPTR_OFFSET = 2;
    /** RFC 5044 §4.2: the two low bits of FPDUPTR are sent 0 and treated as 0 on receipt. */
    public static final int FPDUPTR_MASK = 0xFFFC;
    /** Largest value ULPDU_Length can hold. */
    public static final int MAX_ULPDU_LENGTH_FIELD = 0xFFFF;

    private FpduLayout() {}

    /** PAD octets: {@code (4 - (2 + ulpduLength) % 4) % 4} (RFC 5044 §4.1). */
    public static int padLength(int ulpduLength) {
        return (4 - ((LENGTH_FIELD + ulpduLength) & 3)) & 3;
    }

    /** {@code 2 + ULPDU_Length + PAD}: the octets between markers that the FPDU is made of before its CRC. */
    public static int contentLength(int ulpduLength) {
        return LENGTH_FIELD + ulpduLength + padLength(ulpduLength);
    }

    /** FPDU length without markers: {@code 2 + ULPDU_Length + PAD + 4}. */
    public static int plainLength(int ulpduLength) {
        return contentLength(ulpduLength) + Crc32c.LENGTH;
    }

    /** Whether an FPDU starting at {@code streamOffset} begins with the FPDUPTR-0 marker (markers on). */
    public static boolean startsWithMarker(int streamOffset) {
        return (streamOffset & (MARKER_INTERVAL - 1)) == 0;
    }

    /** Position of ULPDU_Length within the FPDU: 4 after a leading marker, else 0. */
    public static int headerPosition(int streamOffset, boolean markers) {
        return markers && startsWithMarker(streamOffset) ? MARKER_LENGTH : 0;
    }

    /** Content index of the first inner marker of an FPDU at {@code streamOffset} (always 4…508). */
    public static int firstInnerMarkerIndex(int streamOffset) {
        int hdr = streamOffset + (startsWithMarker(streamOffset) ? MARKER_LENGTH : 0);
        return MARKER_INTERVAL - (hdr & (MARKER_INTERVAL - 1));
    }

    /** Number of inner markers (not counting a leading one) of an FPDU at {@code streamOffset}. */
    public static int innerMarkerCount(int streamOffset, int ulpduLength) {
        int first = firstInnerMarkerIndex(streamOffset);
        int content = contentLength(ulpduLength);
        return first > content ? 0 : 1 + (content - first) / CONTENT_PER_MARKER;
    }

    /** Content index of inner marker {@code k}. */
    public static int innerMarkerIndex(int streamOffset, int k) {
        return firstInnerMarkerIndex(streamOffset) + k * CONTENT_PER_MARKER;
    }

    /** FPDUPTR of inner marker {@code k} (not truncated to 16 bits). */
    public static int innerMarkerFpduptr(int streamOffset, int k) {
        return innerMarkerIndex(streamOffset, k) + k * MARKER_LENGTH;
    }

    /** Position of inner marker {@code k} within the FPDU (from its first octet, incl. a leading marker). */
    public static int innerMarkerPosition(int streamOffset, int k) {
        return (startsWithMarker(streamOffset) ? MARKER_LENGTH : 0) + innerMarkerFpduptr(streamOffset, k);
    }

    /** Total markers of the FPDU, a leading one included. */
    public static int markerCount(int streamOffset, int ulpduLength) {
        return (startsWithMarker(streamOffset) ? 1 : 0) + innerMarkerCount(streamOffset, ulpduLength);
    }

    /** Wire length: {@code 2 + ULPDU_Length + PAD + 4 + 4 × markers}. */
    public static int wireLength(int streamOffset, int ulpduLength, boolean markers) {
        int plain = plainLength(ulpduLength);
        return markers ? plain + MARKER_LENGTH * markerCount(streamOffset, ulpduLength) : plain;
    }

    /** Octets covered by the CRC: everything of the FPDU before its CRC field, markers included (§4.4). */
    public static int crcCoveredLength(int wireLength) {
        return wireLength - Crc32c.LENGTH;
    }

    /**
     * Upper bound of the wire length of any FPDU whose ULPDU_Length is at most {@code ulpduLimit}:
     * the most a receiver ever has to buffer for one FPDU.
     */
    public static int maxWireLength(int ulpduLimit, boolean markers) {
        int content = LENGTH_FIELD + ulpduLimit + 3;
        int plain = content + Crc32c.LENGTH;
        if (!markers) {
            return plain;
        }
        // one leading marker + inner markers from content index 4 on, every 508 octets
        return plain + MARKER_LENGTH * (2 + (content - 4) / CONTENT_PER_MARKER);
    }
}
