package org.iwarp4j.oracle;

import java.util.ArrayList;
import java.util.List;

/**
 * One FPDU as {@link FpduFraming} decoded it, with everything a test may want to assert: where it started,
 * its fields, its markers and whether its CRC and markers are valid.
 *
 * @param streamOffset the stream offset (from SeqStart, modulo 2^32) of its first octet
 * @param wire         its octets as received, markers included
 * @param ulpduLength  the ULPDU_Length field
 * @param ulpdu        the ULPDU with markers removed
 * @param pad          the PAD octets as received
 * @param crcField     the CRC field as {@code CRC32C.getValue()} would give it (sent least-significant octet first)
 * @param computedCrc  CRC32c of every octet before the CRC field
 * @param crcChecked   whether CRCs are on in this half connection (otherwise the CRC is not judged)
 * @param markers      every marker in the FPDU, a leading one (FPDUPTR 0) included
 */
public record DecodedFpdu(int streamOffset, byte[] wire, int ulpduLength, byte[] ulpdu, byte[] pad, long crcField,
                          long computedCrc, boolean crcChecked, List<Marker> markers) {

    /**
     * A marker (RFC 5044 §4.2).
     *
     * @param position        octet index within {@link #wire()}
     * @param reserved        its RESERVED field
     * @param fpduptr         its FPDUPTR field as received
     * @param expectedFpduptr the backward distance to this FPDU's ULPDU_Length (RFC 5044 §4.3)
     */
    public record Marker(int position, int reserved, int fpduptr, int expectedFpduptr) {
        /** FPDUPTR with its two low bits treated as 0 (RFC 5044 §4.2) equals the expected distance. */
        public boolean valid() {
            return (fpduptr & 0xFFFC) == (expectedFpduptr & 0xFFFF);
        }
    }

    /** The CRC field matches (or CRCs are off and the field is not judged, RFC 5044 §4.1). */
    public boolean crcValid() {
        return !crcChecked || crcField == computedCrc;
    }

    public boolean markersValid() {
        return markers.stream().allMatch(Marker::valid);
    }

    /** Every problem found, as readable text; empty for a valid FPDU. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        if (!crcValid()) {
            p.add(String.format("CRC field 0x%08x but CRC32c of the %d covered octets is 0x%08x",
                    crcField, wire.length - 4, computedCrc));
        }
        for (Marker m : markers) {
            if (!m.valid()) {
                p.add("marker at FPDU octet " + m.position() + " has FPDUPTR " + m.fpduptr() + ", expected "
                        + m.expectedFpduptr());
            }
        }
        return p;
    }

    @Override
    public String toString() {
        return "FPDU@" + Integer.toUnsignedString(streamOffset) + "[ULPDU_Length=" + ulpduLength + " pad="
                + pad.length + " markers=" + markers.size() + String.format(" crc=0x%08x", crcField)
                + (problems().isEmpty() ? "" : " " + problems()) + "]";
    }
}
