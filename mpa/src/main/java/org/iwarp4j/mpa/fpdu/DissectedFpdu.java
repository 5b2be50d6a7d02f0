package org.iwarp4j.mpa.fpdu;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One FPDU as decoded by the {@link FpduDissector}: every field an analyst needs.
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
 * @param ulpdu        the ULPDU octets with markers removed
 * @param error        {@code null}, or the error this FPDU raises (0x02 CRC, 0x03 marker mismatch)
 */
public record DissectedFpdu(int inputOffset, long streamOffset, int wireLength, int ulpduLength, int padLength,
                            long crcField, long computedCrc, Boolean crcValid, List<DissectedMarker> markers,
                            byte[] ulpdu, DissectionError error) {

    public DissectedFpdu {
        markers = List.copyOf(markers);
        ulpdu = ulpdu.clone();
    }

    @Override
    public byte[] ulpdu() {
        return ulpdu.clone();
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
