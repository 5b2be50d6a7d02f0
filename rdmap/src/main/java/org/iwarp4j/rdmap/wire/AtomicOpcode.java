package org.iwarp4j.rdmap.wire;

/**
 * The Atomic Operation Subcodes (AOpCode) of an Atomic Request, RFC 7306 §5.2.1 (Fig 5) and the IANA
 * "RDMAP Message Atomic Operation Subcodes" registry: 0x0 FetchAdd, 0x1 reserved, 0x2 CmpSwap,
 * 0x3–0xF unassigned. An RNIC that offers atomics implements both [EXT-03].
 */
public enum AtomicOpcode {
    FETCH_ADD(0x0, "FetchAdd"),
    CMP_SWAP(0x2, "CmpSwap");

    private final int code;
    private final String displayName;

    AtomicOpcode(int code, String displayName) {
        this.code = code;
        this.displayName = displayName;
    }

    public int code() {
        return code;
    }

    public String displayName() {
        return displayName;
    }

    /** The subcode with this 4-bit value, or {@code null} for reserved/unassigned values. */
    public static AtomicOpcode fromCode(int code) {
        return switch (code) {
            case 0x0 -> FETCH_ADD;
            case 0x2 -> CMP_SWAP;
            default -> null;
        };
    }
}
