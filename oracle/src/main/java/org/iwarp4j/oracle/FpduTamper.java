package org.iwarp4j.oracle;

/**
 * Deliberate defects {@link FpduFraming#encode(byte[], FpduTamper)} can build into an FPDU, for negative
 * and "ignored on receipt" tests. Unless stated otherwise the CRC is computed over the tampered octets, so
 * the FPDU is CRC-valid and only the named field is unusual.
 */
public enum FpduTamper {
    /** A correct FPDU. */
    NONE,
    /** The CRC field has one bit flipped (RFC 5044 §4.4, §6: an invalid FPDU, error 0x02 when CRCs are on). */
    BAD_CRC,
    /**
     * The first marker of the FPDU points 4 octets too far back (RFC 5044 §4.3, §8: marker/ULPDU_Length
     * mismatch, error 0x03). Fails if the FPDU holds no marker.
     */
    BAD_MARKER_FPDUPTR,
    /** The two low bits of every FPDUPTR are 1 (RFC 5044 §4.2: treated as 0 on receipt). */
    MARKER_FPDUPTR_LOW_BITS,
    /** The RESERVED field of every marker is 0xA5A5 (RFC 5044 §4.2: ignored on receipt, CRC-covered). */
    MARKER_RESERVED_BITS,
    /** PAD octets are 0xFF instead of 0 (RFC 5044 §4.1: ignored by the receiver except for the CRC). */
    NONZERO_PAD,
    /**
     * PAD octets are 0xFF on the wire, but the CRC was computed as if they were 0: the receiver must see a
     * CRC error (RFC 5044 §4.4: PAD is CRC-covered).
     */
    NONZERO_PAD_UNCOVERED
}
