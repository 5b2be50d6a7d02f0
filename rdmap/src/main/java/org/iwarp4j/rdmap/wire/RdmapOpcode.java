package org.iwarp4j.rdmap.wire;

/**
 * The RDMAP message opcodes: RFC 5040 §4.2 (0x0–0x7) and RFC 7306 §4.1 (0x8–0xB), as registered in
 * the IANA "RDMAP Message Operation Codes" registry (RFC 6580). 0xC–0xE are unassigned and 0xF is
 * reserved for experimental use; {@link #fromCode(int)} returns {@code null} for those.
 *
 * <p>For every opcode the RFCs fix whether the DDP message is tagged, which untagged queue it uses,
 * which RDMAP header follows the DDP header, whether it carries ULP payload and whether the Invalidate
 * STag field (DDP RsvdULP octets 2–5) is meaningful (RFC 5040 Fig 4, RFC 7306 Fig 2/3):
 *
 * <pre>
 * opcode  message                       T  QN  RDMAP header         payload  Inval. STag
 *  0x0    RDMA Write                    1  -   -                    yes      -
 *  0x1    RDMA Read Request             0  1   Read Request (28)    no       0
 *  0x2    RDMA Read Response            1  -   -                    yes      -
 *  0x3    Send                          0  0   -                    yes      0
 *  0x4    Send with Invalidate          0  0   -                    yes      valid
 *  0x5    Send with SE                  0  0   -                    yes      0
 *  0x6    Send with SE and Invalidate   0  0   -                    yes      valid
 *  0x7    Terminate                     0  2   Terminate (4..52)    no       0
 *  0x8    Immediate Data                0  0   Immediate Data (8)   no       0
 *  0x9    Immediate Data with SE        0  0   Immediate Data (8)   no       0
 *  0xA    Atomic Request                0  1   Atomic Request (52)  no       0
 *  0xB    Atomic Response               0  3   Atomic Response (12) no       0
 * </pre>
 */
public enum RdmapOpcode {
    RDMA_WRITE(0x0, "RDMA Write", true, -1, 0, true),
    RDMA_READ_REQUEST(0x1, "RDMA Read Request", false, 1, ReadRequestHeader.LENGTH, false),
    RDMA_READ_RESPONSE(0x2, "RDMA Read Response", true, -1, 0, true),
    SEND(0x3, "Send", false, 0, 0, true),
    SEND_WITH_INVALIDATE(0x4, "Send with Invalidate", false, 0, 0, true),
    SEND_WITH_SE(0x5, "Send with SE", false, 0, 0, true),
    SEND_WITH_SE_AND_INVALIDATE(0x6, "Send with SE and Invalidate", false, 0, 0, true),
    TERMINATE(0x7, "Terminate", false, 2, TerminateHeader.CONTROL_LENGTH, false),
    IMMEDIATE_DATA(0x8, "Immediate Data", false, 0, ImmediateDataHeader.LENGTH, false),
    IMMEDIATE_DATA_WITH_SE(0x9, "Immediate Data with SE", false, 0, ImmediateDataHeader.LENGTH, false),
    ATOMIC_REQUEST(0xA, "Atomic Request", false, 1, AtomicRequestHeader.LENGTH, false),
    ATOMIC_RESPONSE(0xB, "Atomic Response", false, 3, AtomicResponseHeader.LENGTH, false);

    /** Queue number of the untagged queues (RFC 5040 §3.1, RFC 7306 §10 "Queue Numbers" registry). */
    public static final int QN_SEND = 0;
    public static final int QN_READ_REQUEST = 1;
    public static final int QN_TERMINATE = 2;
    public static final int QN_ATOMIC_RESPONSE = 3;

    private static final RdmapOpcode[] BY_CODE = values();

    private final int code;
    private final String displayName;
    private final boolean tagged;
    private final int queueNumber;
    private final int headerLength;
    private final boolean carriesPayload;

    RdmapOpcode(int code, String displayName, boolean tagged, int queueNumber, int headerLength,
                boolean carriesPayload) {
        this.code = code;
        this.displayName = displayName;
        this.tagged = tagged;
        this.queueNumber = queueNumber;
        this.headerLength = headerLength;
        this.carriesPayload = carriesPayload;
    }

    /** The 4-bit opcode value (low nibble of the RDMAP control field). */
    public int code() {
        return code;
    }

    /** The name the RFCs (and Wireshark) use, e.g. "RDMA Read Request". */
    public String displayName() {
        return displayName;
    }

    /** Whether the message uses the DDP tagged buffer model (T=1). */
    public boolean tagged() {
        return tagged;
    }

    /**
     * The untagged queue number the message uses (RFC 5040 §3.1, RFC 7306 §4.1).
     *
     * @throws IllegalStateException for the tagged opcodes, which have no queue
     */
    public int queueNumber() {
        if (tagged) {
            throw new IllegalStateException(this + " is tagged and has no queue number");
        }
        return queueNumber;
    }

    /**
     * Octets of RDMAP header that follow the DDP header; for {@link #TERMINATE} the minimum (the
     * 4-octet Terminate Control), the copied headers being optional.
     */
    public int headerLength() {
        return headerLength;
    }

    /** Whether the message carries ULP payload after its headers (Write, Read Response, the Sends). */
    public boolean carriesPayload() {
        return carriesPayload;
    }

    /** RFC 5040 §4.1: the Invalidate STag is meaningful only for the two "and Invalidate" Sends. */
    public boolean carriesInvalidateStag() {
        return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    /** Whether the message asks the receiver for a Solicited Event (RFC 5040 §5.3, RFC 7306 §6). */
    public boolean solicitedEvent() {
        return this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE || this == IMMEDIATE_DATA_WITH_SE;
    }

    /** Opcodes defined by RFC 7306 (only valid when the extensions are enabled on the stream). */
    public boolean isRfc7306() {
        return code >= IMMEDIATE_DATA.code;
    }

    /** The opcode with this 4-bit value, or {@code null} if unassigned (0xC–0xE) or reserved (0xF). */
    public static RdmapOpcode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
