package org.iwarp4j.ddp;

/** The DDP error types of RFC 5041 §7.2 (the EType field of a Terminate whose Layer is 1 = DDP). */
public enum DdpErrorType {
    /** EType 0x0: Local Catastrophic error. */
    LOCAL_CATASTROPHIC(0x0),
    /** EType 0x1: Tagged Buffer error. */
    TAGGED_BUFFER(0x1),
    /** EType 0x2: Untagged Buffer error. */
    UNTAGGED_BUFFER(0x2);
    // EType 0x3 is reserved for the LLP (RFC 5041 §7.2) and never produced by DDP itself.

    private final int value;

    DdpErrorType(int value) {
        this.value = value;
    }

    /** The 4-bit EType value as carried in a Terminate header. */
    public int value() {
        return value;
    }
}
