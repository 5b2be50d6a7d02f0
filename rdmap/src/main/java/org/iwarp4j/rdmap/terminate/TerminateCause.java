package org.iwarp4j.rdmap.terminate;

import java.util.Locale;

/**
 * Every Terminate Control value (Layer / EType / Error Code) defined by RFC 5040 §4.8 (RDMAP),
 * RFC 5041 §7.2 (DDP), RFC 5044 §8 and RFC 6581 §8 (MPA), as registered by IANA (RFC 6580). Terminate
 * messages carry only these values [RDMAP-07]. Names follow the registry; {@code L/E/C} in hex as IANA
 * writes them.
 *
 * <p>For the two Local Catastrophic error types the code is "any value" (IANA {@code 0x0/0x0/ALL});
 * we send 0x00 and {@link #of} maps every code of those types to the one constant.
 */
public enum TerminateCause {
    // RDMAP, RFC 5040 §4.8
    RDMAP_LOCAL_CATASTROPHIC(TerminateErrorType.RDMAP_LOCAL_CATASTROPHIC, 0x00, "Local Catastrophic Error"),
    RDMAP_INVALID_STAG(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x00, "Invalid STag"),
    RDMAP_BASE_OR_BOUNDS_VIOLATION(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x01, "Base or bounds violation"),
    RDMAP_ACCESS_RIGHTS_VIOLATION(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x02, "Access rights violation"),
    RDMAP_STAG_NOT_ASSOCIATED(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x03,
            "STag not associated with RDMAP Stream"),
    RDMAP_TO_WRAP(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x04, "TO wrap"),
    RDMAP_STAG_CANNOT_BE_INVALIDATED(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0x09,
            "STag cannot be Invalidated"),
    RDMAP_REMOTE_PROTECTION_UNSPECIFIED(TerminateErrorType.RDMAP_REMOTE_PROTECTION, 0xFF, "Unspecified Error"),
    RDMAP_INVALID_VERSION(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0x05, "Invalid RDMAP version"),
    RDMAP_UNEXPECTED_OPCODE(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0x06, "Unexpected OpCode"),
    RDMAP_CATASTROPHIC_LOCALIZED(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0x07,
            "Catastrophic error, localized to RDMAP Stream"),
    RDMAP_CATASTROPHIC_GLOBAL(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0x08, "Catastrophic error, global"),
    RDMAP_REMOTE_OPERATION_STAG_CANNOT_BE_INVALIDATED(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0x09,
            "STag cannot be Invalidated"),
    RDMAP_REMOTE_OPERATION_UNSPECIFIED(TerminateErrorType.RDMAP_REMOTE_OPERATION, 0xFF, "Unspecified Error"),

    // DDP, RFC 5041 §7.2
    DDP_LOCAL_CATASTROPHIC(TerminateErrorType.DDP_LOCAL_CATASTROPHIC, 0x00, "Local Catastrophic"),
    DDP_INVALID_STAG(TerminateErrorType.DDP_TAGGED_BUFFER, 0x00, "Invalid STag"),
    DDP_BASE_OR_BOUNDS_VIOLATION(TerminateErrorType.DDP_TAGGED_BUFFER, 0x01, "Base or bounds violation"),
    DDP_STAG_NOT_ASSOCIATED(TerminateErrorType.DDP_TAGGED_BUFFER, 0x02, "STag not associated with DDP Stream"),
    DDP_TO_WRAP(TerminateErrorType.DDP_TAGGED_BUFFER, 0x03, "TO wrap"),
    DDP_TAGGED_INVALID_VERSION(TerminateErrorType.DDP_TAGGED_BUFFER, 0x04, "Invalid DDP version"),
    DDP_INVALID_QN(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x01, "Invalid QN"),
    DDP_INVALID_MSN_NO_BUFFER(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x02, "Invalid MSN - no buffer available"),
    DDP_INVALID_MSN_RANGE(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x03, "Invalid MSN - MSN range is not valid"),
    DDP_INVALID_MO(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x04, "Invalid MO"),
    DDP_MESSAGE_TOO_LONG(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x05,
            "DDP Message too long for available buffer"),
    DDP_UNTAGGED_INVALID_VERSION(TerminateErrorType.DDP_UNTAGGED_BUFFER, 0x06, "Invalid DDP version"),

    // LLP = MPA, RFC 5044 §8 and RFC 6581 §8
    MPA_CONNECTION_LOST(TerminateErrorType.MPA, 0x01, "TCP connection closed, terminated or lost"),
    MPA_CRC_ERROR(TerminateErrorType.MPA, 0x02, "MPA CRC Error"),
    MPA_MARKER_MISMATCH(TerminateErrorType.MPA, 0x03, "MPA Marker and ULPDU Length field mismatch"),
    MPA_INVALID_FRAME(TerminateErrorType.MPA, 0x04, "Invalid MPA Request or Reply Frame"),
    MPA_LOCAL_CATASTROPHIC(TerminateErrorType.MPA, 0x05, "Local Catastrophic Error"),
    MPA_INSUFFICIENT_IRD(TerminateErrorType.MPA, 0x06, "Insufficient IRD Resources"),
    MPA_NO_MATCHING_RTR(TerminateErrorType.MPA, 0x07, "No Matching RTR Option");

    private static final TerminateCause[] VALUES = values();

    private final TerminateErrorType errorType;
    private final int code;
    private final String description;
    /** {@link #toString()}, built once: error paths call it per Terminate, and String.format is slow. */
    private String text;
    /** {@link #triple()}, built once for the same reason. */
    private String triple;

    TerminateCause(TerminateErrorType errorType, int code, String description) {
        this.errorType = errorType;
        this.code = code;
        this.description = description;
    }

    public TerminateLayer layer() {
        return errorType.layer();
    }

    public TerminateErrorType errorType() {
        return errorType;
    }

    /** The 8-bit Error Code. */
    public int code() {
        return code;
    }

    /** The registry's meaning of the code, e.g. "Invalid STag". */
    public String description() {
        return description;
    }

    /** {@code layer/etype/code} as IANA writes it, e.g. {@code 0x0/0x1/0x00}. */
    public String triple() {
        if (triple == null) {
            triple = triple(layer().value(), errorType.value(), code);
        }
        return triple;
    }

    /**
     * Any Layer/EType/Code as {@link #triple()} writes a cause's ({@code %X/%X/%02X}), an undefined one too;
     * not {@code String.format}: a fuzzed or hostile peer's Terminates are mostly undefined triples.
     */
    public static String triple(int layer, int errorType, int code) {
        String c = upperHex(code);
        return "0x" + upperHex(layer) + "/0x" + upperHex(errorType) + "/0x" + (c.length() < 2 ? "0" + c : c);
    }

    private static String upperHex(int value) {
        return Integer.toHexString(value).toUpperCase(Locale.ROOT);
    }

    /** E.g. {@code 0x0/0x1/0x00 RDMA Remote Protection Error: Invalid STag}. */
    @Override
    public String toString() {
        if (text == null) {
            text = triple() + " " + layer().displayName() + " " + errorType.displayName() + ": " + description;
        }
        return text;
    }

    /**
     * The cause for a Layer/EType/Code triple, or {@code null} if the triple is not defined. Every code
     * of a Local Catastrophic error type maps to that type's constant ("any value", RFC 5040 §4.8).
     */
    public static TerminateCause of(int layer, int errorType, int code) {
        if (errorType == 0 && layer == TerminateLayer.RDMAP.value()) {
            return RDMAP_LOCAL_CATASTROPHIC;
        }
        if (errorType == 0 && layer == TerminateLayer.DDP.value()) {
            return DDP_LOCAL_CATASTROPHIC;
        }
        for (TerminateCause c : VALUES) {
            if (c.code == code && c.errorType.value() == errorType && c.layer().value() == layer) {
                return c;
            }
        }
        return null;
    }
}
