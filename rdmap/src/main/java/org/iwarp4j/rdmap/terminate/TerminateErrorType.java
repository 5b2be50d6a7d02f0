package org.iwarp4j.rdmap.terminate;

/**
 * The error types (EType) of each Terminate layer, with the headers a Terminate of that type carries
 * according to RFC 5040 §4.8 Figure 10 (SHOULD, [RDMAP-12]):
 *
 * <pre>
 * Layer / EType                        DDP header + length     RDMA (Read Request) header
 * RDMA  0x0 Local Catastrophic         no                      no
 * RDMA  0x1 Remote Protection          yes, if possible        yes, if the message was a Read Request
 * RDMA  0x2 Remote Operation           yes, if possible        no
 * DDP   any                            yes                     no
 * LLP   any                            no                      no
 * </pre>
 *
 * ("If possible": only an error caused by an incoming message has a header to copy; an error while
 * building an outbound message or a local failure has none — RFC 5040 §7.1.)
 */
public enum TerminateErrorType {
    RDMAP_LOCAL_CATASTROPHIC(TerminateLayer.RDMAP, 0x0, "Local Catastrophic Error", false, false),
    RDMAP_REMOTE_PROTECTION(TerminateLayer.RDMAP, 0x1, "Remote Protection Error", true, true),
    RDMAP_REMOTE_OPERATION(TerminateLayer.RDMAP, 0x2, "Remote Operation Error", true, false),
    DDP_LOCAL_CATASTROPHIC(TerminateLayer.DDP, 0x0, "Local Catastrophic", true, false),
    DDP_TAGGED_BUFFER(TerminateLayer.DDP, 0x1, "Tagged Buffer Error", true, false),
    DDP_UNTAGGED_BUFFER(TerminateLayer.DDP, 0x2, "Untagged Buffer Error", true, false),
    MPA(TerminateLayer.LLP, 0x0, "MPA Error", false, false);

    private final TerminateLayer layer;
    private final int value;
    private final String displayName;
    private final boolean copiesDdpHeader;
    private final boolean copiesReadRequestHeader;

    TerminateErrorType(TerminateLayer layer, int value, String displayName, boolean copiesDdpHeader,
                       boolean copiesReadRequestHeader) {
        this.layer = layer;
        this.value = value;
        this.displayName = displayName;
        this.copiesDdpHeader = copiesDdpHeader;
        this.copiesReadRequestHeader = copiesReadRequestHeader;
    }

    public TerminateLayer layer() {
        return layer;
    }

    /** The 4-bit EType value. */
    public int value() {
        return value;
    }

    public String displayName() {
        return displayName;
    }

    /** Fig 10: the Terminate carries the DDP Segment Length and Terminated DDP Header when available. */
    public boolean copiesDdpHeader() {
        return copiesDdpHeader;
    }

    /** Fig 10: the Terminate carries the Terminated RDMA Header when the message was a Read Request. */
    public boolean copiesReadRequestHeader() {
        return copiesReadRequestHeader;
    }

    /** The error type for a layer and EType value, or {@code null} if not defined. */
    public static TerminateErrorType of(int layer, int errorType) {
        for (TerminateErrorType t : values()) {
            if (t.layer.value() == layer && t.value == errorType) {
                return t;
            }
        }
        return null;
    }
}
