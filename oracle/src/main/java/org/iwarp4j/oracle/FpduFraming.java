package org.iwarp4j.oracle;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The test oracle for MPA framing of one half connection (RFC 5044 §4): builds and takes apart FPDUs
 * octet by octet, exactly as the RFC describes them, with no cleverness. Written independently of the
 * {@code mpa} module (from the sender algorithm of RFC 5044 §4.3) so that the stack can be
 * measured against it.
 *
 * <pre>
 * FPDU = [marker] ULPDU_Length(2, BE) ULPDU PAD(0..3) [marker] CRC(4, least-significant octet first)
 *        with a 4-octet marker RESERVED(16)|FPDUPTR(16) at every stream offset ≡ 0 (mod 512)
 * </pre>
 *
 * Stream offsets count from SeqStart, the first octet of Full Operation of the half connection, modulo
 * 2^32 (RFC 5044 §4.3). Each instance tracks the offset of the next FPDU; not thread-safe.
 */
public final class FpduFraming {

    /** RFC 5044 §4.3: a marker every 512 octets of the stream. */
    public static final int MARKER_INTERVAL = 512;
    /** Marker length. */
    public static final int MARKER_LENGTH = 4;

    private final boolean crc;
    private final boolean markers;
    private int streamOffset;

    /**
     * @param crc          CRCs are on in this half connection (otherwise the field is sent as zeros and not judged)
     * @param markers      markers are inserted in this half connection
     * @param streamOffset stream offset of the next FPDU (0 = the first FPDU of Full Operation)
     */
    public FpduFraming(boolean crc, boolean markers, int streamOffset) {
        if ((streamOffset & 3) != 0) {
            throw new IllegalArgumentException("FPDUs start 4-aligned: " + streamOffset);
        }
        this.crc = crc;
        this.markers = markers;
        this.streamOffset = streamOffset;
    }

    public boolean crc() {
        return crc;
    }

    public boolean markers() {
        return markers;
    }

    /** Stream offset (from SeqStart, modulo 2^32) of the next FPDU. */
    public int streamOffset() {
        return streamOffset;
    }

    /** PAD length: {@code 2 + ULPDU_Length + PAD} is a multiple of 4 (RFC 5044 §4.1). */
    public static int padLength(int ulpduLength) {
        int pad = 0;
        while ((2 + ulpduLength + pad) % 4 != 0) {
            pad++;
        }
        return pad;
    }

    private boolean markerAt(int offset) {
        return markers && (offset & (MARKER_INTERVAL - 1)) == 0;
    }

    /** The wire octets of a correct FPDU carrying {@code ulpdu}; advances the stream offset. */
    public byte[] encode(byte[] ulpdu) {
        return encode(ulpdu, FpduTamper.NONE);
    }

    /** The wire octets of an FPDU carrying {@code ulpdu} with the given defect; advances the stream offset. */
    public byte[] encode(byte[] ulpdu, FpduTamper tamper) {
        if (ulpdu.length > 0xFFFF) {
            throw new IllegalArgumentException("ULPDU_Length is 16 bits: " + ulpdu.length);
        }
        boolean padFf = tamper == FpduTamper.NONZERO_PAD || tamper == FpduTamper.NONZERO_PAD_UNCOVERED;
        Covered wireBody = covered(ulpdu, padFf, tamper);
        long value = 0;
        if (crc) {
            // NONZERO_PAD_UNCOVERED: the CRC of the same FPDU with a zero PAD, so the PAD on the wire is not covered
            byte[] forCrc = tamper == FpduTamper.NONZERO_PAD_UNCOVERED ? covered(ulpdu, false, tamper).octets
                    : wireBody.octets;
            value = crc32c(forCrc, 0, forCrc.length);
        }
        if (tamper == FpduTamper.BAD_CRC) {
            value ^= crc ? 1 : 0xDEADBEEFL;
        }
        byte[] covered = wireBody.octets;
        byte[] wire = Arrays.copyOf(covered, covered.length + 4);
        for (int i = 0; i < 4; i++) { // RFC 5044 §4.4: least-significant octet first
            wire[covered.length + i] = (byte) (value >>> (8 * i));
        }
        streamOffset = wireBody.endOffset + 4;
        return wire;
    }

    /** The octets an FPDU's CRC covers, and the stream offset where its CRC field starts. */
    private record Covered(byte[] octets, int endOffset) {}

    private Covered covered(byte[] ulpdu, boolean padFf, FpduTamper tamper) {
        int padLength = padLength(ulpdu.length);
        byte[] content = new byte[2 + ulpdu.length + padLength];
        content[0] = (byte) (ulpdu.length >>> 8);
        content[1] = (byte) ulpdu.length;
        System.arraycopy(ulpdu, 0, content, 2, ulpdu.length);
        if (padFf) {
            Arrays.fill(content, 2 + ulpdu.length, content.length, (byte) 0xFF);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> markerPositions = new ArrayList<>();
        int pos = streamOffset;
        if (markerAt(pos)) { // the marker between FPDUs belongs to this FPDU (RFC 5044 §4.3)
            markerPositions.add(out.size());
            writeMarker(out, 0);
            pos += MARKER_LENGTH;
        }
        int hdr = pos;
        for (int i = 0; i < content.length; i++) {
            if (i > 0 && markerAt(pos)) {
                markerPositions.add(out.size());
                writeMarker(out, pos - hdr);
                pos += MARKER_LENGTH;
            }
            out.write(content[i]);
            pos++;
        }
        if (markerAt(pos)) { // a marker between PAD and CRC belongs to this FPDU (RFC 5044 §4.4)
            markerPositions.add(out.size());
            writeMarker(out, pos - hdr);
            pos += MARKER_LENGTH;
        }
        byte[] octets = out.toByteArray();
        applyMarkerTamper(octets, markerPositions, tamper);
        return new Covered(octets, pos);
    }

    private static void applyMarkerTamper(byte[] wire, List<Integer> positions, FpduTamper tamper) {
        switch (tamper) {
            case BAD_MARKER_FPDUPTR -> {
                if (positions.isEmpty()) {
                    throw new IllegalStateException("this FPDU holds no marker to tamper with");
                }
                int p = positions.get(0);
                int v = (((wire[p + 2] & 0xFF) << 8) | (wire[p + 3] & 0xFF)) + 4;
                wire[p + 2] = (byte) (v >>> 8);
                wire[p + 3] = (byte) v;
            }
            case MARKER_FPDUPTR_LOW_BITS -> positions.forEach(p -> wire[p + 3] |= 0x03);
            case MARKER_RESERVED_BITS -> positions.forEach(p -> {
                wire[p] = (byte) 0xA5;
                wire[p + 1] = (byte) 0xA5;
            });
            default -> { }
        }
    }

    private static void writeMarker(ByteArrayOutputStream out, int fpduptr) {
        out.write(0); // RESERVED, sent as 0 (RFC 5044 §4.2)
        out.write(0);
        out.write(fpduptr >>> 8);
        out.write(fpduptr);
    }

    /** Where ULPDU_Length starts in the next FPDU: 4 after a leading marker, else 0. */
    public int headerPosition() {
        return markerAt(streamOffset) ? MARKER_LENGTH : 0;
    }

    /** The wire length of the next FPDU if its ULPDU_Length is {@code ulpduLength}. */
    public int wireLength(int ulpduLength) {
        int contentLength = 2 + ulpduLength + padLength(ulpduLength);
        int pos = streamOffset;
        int n = 0;
        if (markerAt(pos)) {
            n += MARKER_LENGTH;
            pos += MARKER_LENGTH;
        }
        for (int i = 0; i < contentLength; i++) {
            if (i > 0 && markerAt(pos)) {
                n += MARKER_LENGTH;
                pos += MARKER_LENGTH;
            }
            n++;
            pos++;
        }
        if (markerAt(pos)) {
            n += MARKER_LENGTH;
        }
        return n + 4;
    }

    /**
     * Takes apart the next FPDU, whose complete wire octets are {@code wire} (see {@link #headerPosition()}
     * and {@link #wireLength(int)}), and advances the stream offset. Never throws for a bad CRC or marker:
     * the result says what is wrong ({@link DecodedFpdu#problems()}).
     */
    public DecodedFpdu decode(byte[] wire) {
        int start = streamOffset;
        int hdrPos = headerPosition();
        int ulpduLength = ((wire[hdrPos] & 0xFF) << 8) | (wire[hdrPos + 1] & 0xFF);
        int expectedWire = wireLength(ulpduLength);
        if (wire.length != expectedWire) {
            throw new IllegalArgumentException("an FPDU with ULPDU_Length " + ulpduLength + " at stream offset "
                    + Integer.toUnsignedString(start) + " is " + expectedWire + " octets, not " + wire.length);
        }
        int padLength = padLength(ulpduLength);
        byte[] content = new byte[2 + ulpduLength + padLength];
        List<DecodedFpdu.Marker> found = new ArrayList<>();
        int pos = start;
        int i = 0;
        if (markerAt(pos)) {
            found.add(marker(wire, i, 0));
            i += MARKER_LENGTH;
            pos += MARKER_LENGTH;
        }
        int hdr = pos;
        for (int c = 0; c < content.length; c++) {
            if (c > 0 && markerAt(pos)) {
                found.add(marker(wire, i, pos - hdr));
                i += MARKER_LENGTH;
                pos += MARKER_LENGTH;
            }
            content[c] = wire[i++];
            pos++;
        }
        if (markerAt(pos)) {
            found.add(marker(wire, i, pos - hdr));
            i += MARKER_LENGTH;
            pos += MARKER_LENGTH;
        }
        long crcField = 0;
        for (int k = 3; k >= 0; k--) {
            crcField = (crcField << 8) | (wire[i + k] & 0xFF);
        }
        long computed = crc32c(wire, 0, i);
        streamOffset = pos + 4;
        return new DecodedFpdu(start, wire.clone(), ulpduLength, Arrays.copyOfRange(content, 2, 2 + ulpduLength),
                Arrays.copyOfRange(content, 2 + ulpduLength, content.length), crcField, computed, crc,
                List.copyOf(found));
    }

    private static DecodedFpdu.Marker marker(byte[] wire, int at, int expected) {
        int reserved = ((wire[at] & 0xFF) << 8) | (wire[at + 1] & 0xFF);
        int fpduptr = ((wire[at + 2] & 0xFF) << 8) | (wire[at + 3] & 0xFF);
        return new DecodedFpdu.Marker(at, reserved, fpduptr, expected);
    }

    /**
     * Decodes every complete FPDU at the start of {@code stream} (a concatenation of FPDUs of this half
     * connection, starting at the current stream offset) and returns them; trailing octets of an incomplete
     * FPDU are ignored, see {@link FpduStreamDecoder} for incremental input.
     */
    public List<DecodedFpdu> decodeAll(byte[] stream) {
        FpduStreamDecoder d = new FpduStreamDecoder(this);
        return d.feed(stream);
    }

    static long crc32c(byte[] b, int from, int length) {
        CRC32C c = new CRC32C();
        c.update(b, from, length);
        return c.getValue();
    }
}
