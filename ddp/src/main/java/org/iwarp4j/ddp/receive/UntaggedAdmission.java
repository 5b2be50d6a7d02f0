package org.iwarp4j.ddp.receive;

/**
 * The ULP's answer when DDP asks whether it may place an untagged segment
 * ({@link DdpReceiveListener#admitUntaggedSegment}).
 */
public enum UntaggedAdmission {
    /** Go on with the RFC 5041 §7.1 buffer checks and place. */
    PLACE,
    /**
     * Do not place: the ULP found an error in its part of the header (e.g. RDMAP: invalid RDMAP version,
     * unknown opcode, opcode not allowed on this QN) and reports it itself. DDP drops the segment without
     * touching any buffer and, as after its own errors (RFC 5041 §7.1), every later segment.
     */
    REJECT
}
