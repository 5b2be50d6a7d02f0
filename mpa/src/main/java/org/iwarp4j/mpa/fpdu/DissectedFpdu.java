package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One FPDU as decoded by the {@link FpduDissector}: every field an analyst needs.
 *
 * <p>Not a record so that the ULPDU is copied once, by the dissector, when it takes the markers out: a
 * record would copy it again in its constructor to keep it its own. {@link #ulpdu()} still hands out a
 * copy; {@link #ulpduView()} reads the FPDU's own octets without one.
 */
public final class DissectedFpdu {

    private final int inputOffset;
    private final long streamOffset;
    private final int wireLength;
    private final int ulpduLength;
    private final int padLength;
    private final long crcField;
    private final long computedCrc;
    private final Boolean crcValid;
    private final List<DissectedMarker> markers;
    private final byte[] ulpdu;
    private final DissectionError error;

    /**
     * An FPDU of these fields; the markers and the ULPDU are copied.
     *
     * @param inputOffset  offset of the FPDU's first octet in the dissected input
     * @param streamOffset stream offset of the FPDU's first octet from SeqStart (mod 2^32, unsigned)
     * @param wireLength   octets the FPDU occupies on the wire, markers included
     * @param ulpduLength  the ULPDU_Length field
     * @param padLength    PAD octets (0…3)
     * @param crcField     the CRC field as {@code CRC32C.getValue()} would give it (wire octets read little-endian)
     * @param computedCrc  CRC32c computed over the covered octets (always computed, even with CRCs off)
     * @param crcValid     {@code true}/{@code false} when CRCs are negotiated; {@code null} when CRCs are off
     *                     (the field is then not checked, RFC 5044 §4.1)
     * @param markers      every marker of the FPDU in wire order, a leading FPDUPTR-0 marker included
     * @param ulpdu        the ULPDU octets with markers removed (copied)
     * @param error        {@code null}, or the error this FPDU raises (0x02 CRC, 0x03 marker mismatch)
     */
    public DissectedFpdu(int inputOffset, long streamOffset, int wireLength, int ulpduLength, int padLength,
                         long crcField, long computedCrc, Boolean crcValid, List<DissectedMarker> markers,
                         byte[] ulpdu, DissectionError error) {
        this(List.copyOf(markers), ulpdu.clone(), inputOffset, streamOffset, wireLength, ulpduLength, padLength,
                crcField, computedCrc, crcValid, error);
    }

    /**
     * Takes {@code markers} and {@code ulpdu} as they are; they come first only so that this signature differs
     * from the public one's.
     */
    private DissectedFpdu(List<DissectedMarker> markers, byte[] ulpdu, int inputOffset, long streamOffset,
                          int wireLength, int ulpduLength, int padLength, long crcField, long computedCrc,
                          Boolean crcValid, DissectionError error) {
        this.inputOffset = inputOffset;
        this.streamOffset = streamOffset;
        this.wireLength = wireLength;
        this.ulpduLength = ulpduLength;
        this.padLength = padLength;
        this.crcField = crcField;
        this.computedCrc = computedCrc;
        this.crcValid = crcValid;
        this.markers = markers;
        this.ulpdu = ulpdu;
        this.error = error;
    }

    /** What the {@link FpduDissector} builds: {@code ulpdu} is its own array, not copied again. */
    static DissectedFpdu owning(int inputOffset, long streamOffset, int wireLength, int ulpduLength, int padLength,
                                long crcField, long computedCrc, Boolean crcValid, List<DissectedMarker> markers,
                                byte[] ulpdu, DissectionError error) {
        return new DissectedFpdu(List.copyOf(markers), ulpdu, inputOffset, streamOffset, wireLength, ulpduLength,
                padLength, crcField, computedCrc, crcValid, error);
    }

    /** Offset of the FPDU's first octet in the dissected input. */
    public int inputOffset() {
        return inputOffset;
    }

    /** Stream offset of the FPDU's first octet from SeqStart (mod 2^32, unsigned). */
    public long streamOffset() {
        return streamOffset;
    }

    /** Octets the FPDU occupies on the wire, markers included. */
    public int wireLength() {
        return wireLength;
    }

    /** The ULPDU_Length field. */
    public int ulpduLength() {
        return ulpduLength;
    }

    /** PAD octets (0…3). */
    public int padLength() {
        return padLength;
    }

    /** The CRC field as {@code CRC32C.getValue()} would give it (wire octets read little-endian). */
    public long crcField() {
        return crcField;
    }

    /** CRC32c computed over the covered octets (always computed, even with CRCs off). */
    public long computedCrc() {
        return computedCrc;
    }

    /** {@code true}/{@code false} when CRCs are negotiated; {@code null} when CRCs are off (RFC 5044 §4.1). */
    public Boolean crcValid() {
        return crcValid;
    }

    /** Every marker of the FPDU in wire order, a leading FPDUPTR-0 marker included. */
    public List<DissectedMarker> markers() {
        return markers;
    }

    /** A copy of the ULPDU octets with markers removed. */
    public byte[] ulpdu() {
        return ulpdu.clone();
    }

    /**
     * The ULPDU octets with markers removed, read-only and not copied: a heap buffer over this FPDU's own
     * array (nothing to release), its readable octets the whole ULPDU.
     */
    public ByteBuf ulpduView() {
        return Unpooled.wrappedBuffer(ulpdu).asReadOnly();
    }

    /** {@code null}, or the error this FPDU raises (0x02 CRC, 0x03 marker mismatch). */
    public DissectionError error() {
        return error;
    }

    /** Octets covered by the CRC (the FPDU without its CRC field). */
    public int crcCoveredLength() {
        return FpduLayout.crcCoveredLength(wireLength);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DissectedFpdu d && inputOffset == d.inputOffset && streamOffset == d.streamOffset
                && wireLength == d.wireLength && ulpduLength == d.ulpduLength && padLength == d.padLength
                && crcField == d.crcField && computedCrc == d.computedCrc
                && Objects.equals(crcValid, d.crcValid) && markers.equals(d.markers)
                && Arrays.equals(ulpdu, d.ulpdu) && Objects.equals(error, d.error);
    }

    @Override
    public int hashCode() {
        return Objects.hash(inputOffset, streamOffset, wireLength, ulpduLength, crcField) * 31
                + Arrays.hashCode(ulpdu);
    }

    @Override
    public String toString() {
        return "FPDU@" + inputOffset + " stream=" + streamOffset + " wire=" + wireLength + " ULPDU_Length="
                + ulpduLength + " PAD=" + padLength + String.format(" CRC=0x%08x", crcField)
                + (crcValid == null ? " (not checked)" : crcValid ? " (ok)"
                        : String.format(" (BAD, computed 0x%08x)", computedCrc))
                + " markers=" + markers + " ulpdu=" + HexFormat.of().formatHex(ulpdu)
                + (error == null ? "" : " error=" + error);
    }
}
