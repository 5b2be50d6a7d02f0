package org.iwarp4j.mpa.fpdu;

/**
 * One marker found inside an FPDU by the {@link FpduDissector} (RFC 5044 §4.2).
 *
 * @param fpduOffset      offset of the marker's first octet from the FPDU's first octet (0 for a
 *                        leading FPDUPTR-0 marker that fell between FPDUs)
 * @param fpduptr         the FPDUPTR field as received (all 16 bits, low bits included)
 * @param reserved        the RESERVED field as received (sent 0, ignored on receipt)
 * @param expectedFpduptr the FPDUPTR the marker must carry: distance from ULPDU_Length to the marker
 *                        (0 for a leading marker), modulo 2^16
 */
public record DissectedMarker(int fpduOffset, int fpduptr, int reserved, int expectedFpduptr) {

    /** Whether FPDUPTR (low two bits ignored, RFC 5044 §4.2) points at this FPDU's ULPDU_Length. */
    public boolean valid() {
        return (fpduptr & FpduLayout.FPDUPTR_MASK) == expectedFpduptr;
    }

    /** Whether this is the FPDUPTR-0 marker that fell between FPDUs and starts this FPDU. */
    public boolean leading() {
        return fpduOffset == 0;
    }
}
