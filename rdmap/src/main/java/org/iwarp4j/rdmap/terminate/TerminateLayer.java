package org.iwarp4j.rdmap.terminate;

/**
 * The Layer field of the Terminate Control (RFC 5040 §4.8): which layer detected the error.
 * 0x3–0xF are not assigned.
 */
public enum TerminateLayer {
    /** 0x0: RDMAP (RFC 5040 §4.8 calls it "RDMA"). */
    RDMAP(0x0, "RDMA"),
    /** 0x1: DDP (RFC 5041 §7.2). */
    DDP(0x1, "DDP"),
    /** 0x2: the lower layer protocol, for TCP: MPA (RFC 5044 §8, RFC 6581 §8). */
    LLP(0x2, "LLP");

    private final int value;
    private final String displayName;

    TerminateLayer(int value, String displayName) {
        this.value = value;
        this.displayName = displayName;
    }

    public int value() {
        return value;
    }

    public String displayName() {
        return displayName;
    }

    /** The layer with this 4-bit value, or {@code null} if unassigned. */
    public static TerminateLayer fromValue(int value) {
        return switch (value) {
            case 0x0 -> RDMAP;
            case 0x1 -> DDP;
            case 0x2 -> LLP;
            default -> null;
        };
    }
}
