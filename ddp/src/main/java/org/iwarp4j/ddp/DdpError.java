package org.iwarp4j.ddp;

/**
 * Every error DDP reports, with the Terminate Control values RFC 5041 §7.2 assigns to it
 * (IANA "DDP Errors" registry, RFC 6580): Layer 0x1, the error type and the error code.
 */
public enum DdpError {
    /** 0x1/0x0/0x00: a local failure, or a segment too short to hold its own DDP header. */
    LOCAL_CATASTROPHIC(DdpErrorType.LOCAL_CATASTROPHIC, 0x00, "Local catastrophic error"),

    /** 0x1/0x1/0x00: unknown or invalidated STag, or a region that does not allow this placement. */
    INVALID_STAG(DdpErrorType.TAGGED_BUFFER, 0x00, "Invalid STag"),
    /** 0x1/0x1/0x01: TO or TO + payload length outside the region registered for the STag. */
    BASE_OR_BOUNDS_VIOLATION(DdpErrorType.TAGGED_BUFFER, 0x01, "Base or bounds violation"),
    /** 0x1/0x1/0x02: the STag belongs to another protection domain or DDP stream (RFC 5041 §8.2). */
    STAG_NOT_ASSOCIATED(DdpErrorType.TAGGED_BUFFER, 0x02, "STag not associated with DDP Stream"),
    /** 0x1/0x1/0x03: the 64-bit unsigned sum TO + payload length wraps. */
    TO_WRAP(DdpErrorType.TAGGED_BUFFER, 0x03, "TO wrap"),
    /** 0x1/0x1/0x04: DV ≠ 1 on a tagged segment. */
    TAGGED_INVALID_DDP_VERSION(DdpErrorType.TAGGED_BUFFER, 0x04, "Invalid DDP version"),

    /** 0x1/0x2/0x01: the QN is not valid for this stream. */
    INVALID_QN(DdpErrorType.UNTAGGED_BUFFER, 0x01, "Invalid QN"),
    /** 0x1/0x2/0x02: no buffer is posted for this (QN, MSN). */
    INVALID_MSN_NO_BUFFER(DdpErrorType.UNTAGGED_BUFFER, 0x02, "Invalid MSN - no buffer available"),
    /** 0x1/0x2/0x03: the MSN is outside the range of MSNs of the posted buffers. */
    INVALID_MSN_RANGE(DdpErrorType.UNTAGGED_BUFFER, 0x03, "Invalid MSN - MSN range is not valid"),
    /** 0x1/0x2/0x04: the MO lies outside the posted buffer. */
    INVALID_MO(DdpErrorType.UNTAGGED_BUFFER, 0x04, "Invalid MO"),
    /** 0x1/0x2/0x05: MO + payload length goes beyond the posted buffer. */
    MESSAGE_TOO_LONG(DdpErrorType.UNTAGGED_BUFFER, 0x05, "DDP Message too long for available buffer"),
    /** 0x1/0x2/0x06: DV ≠ 1 on an untagged segment. */
    UNTAGGED_INVALID_DDP_VERSION(DdpErrorType.UNTAGGED_BUFFER, 0x06, "Invalid DDP version");

    /** The Terminate Layer value of every DDP error: 1 (RFC 5040 §4.8). */
    public static final int LAYER = 0x1;

    private final DdpErrorType type;
    private final int code;
    private final String meaning;

    DdpError(DdpErrorType type, int code, String meaning) {
        this.type = type;
        this.code = code;
        this.meaning = meaning;
    }

    public int layer() {
        return LAYER;
    }

    public DdpErrorType type() {
        return type;
    }

    /** The 8-bit Error Code value. */
    public int code() {
        return code;
    }

    /** The RFC's wording for the code. */
    public String meaning() {
        return meaning;
    }

    private String notation;

    /** {@code 0x1/0xE/0xCC}, the notation of the IANA registry. */
    public String notation() {
        String n = notation;
        if (n == null) { // built once: every rejected segment names its error, and String.format is slow
            n = String.format("0x%x/0x%x/0x%02x", LAYER, type.value(), code);
            notation = n;
        }
        return n;
    }
}
