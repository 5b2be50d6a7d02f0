package org.iwarp4j.rdmap.wire;

/**
 * The RDMAP Control Field: octet 1 of every DDP header (the first RsvdULP octet), RFC 5040 §4.1,
 * RFC 7306 §4.1. Network bit order, bit 0 = most significant:
 *
 * <pre>
 *  ULPDU octet 0 (DDP control)      octet 1 (RDMAP control)
 * +---+---+---+---+---+---+---+---+---+---+---+---+---+---+---+---+
 * | T | L |     Rsvd      |  DV   |  RV   |  Rsv  |    Opcode     |
 * +---+---+---+---+---+---+---+---+---+---+---+---+---+---+---+---+
 * </pre>
 *
 * (RFC 5040 Fig 3 numbers these bits 16–31 because it draws the MPA ULPDU_Length in front.)
 *
 * <ul>
 *   <li>RV (mask 0xC0): RDMA version, 01b for RFC 5040 and RFC 7306 [RDMAP-01, EXT-01];</li>
 *   <li>Rsv (mask 0x30): sent as 0, ignored on receipt [RDMAP-02];</li>
 *   <li>Opcode (mask 0x0F): {@link RdmapOpcode}.</li>
 * </ul>
 *
 * Static helpers over the octet value rather than a flyweight: the field is one octet.
 */
public final class RdmapControl {

    /** Octet of the DDP header (tagged or untagged) that holds the RDMAP control field. */
    public static final int OFFSET = 1;

    /** Octets 2..5 of an untagged DDP header: the Invalidate STag (RFC 5040 §4.1). */
    public static final int INVALIDATE_STAG_OFFSET = 2;

    public static final int VERSION_MASK = 0xC0;
    public static final int VERSION_SHIFT = 6;
    public static final int RESERVED_MASK = 0x30;
    public static final int OPCODE_MASK = 0x0F;

    /** RFC 5040 §4.1: RDMA Version 01b (00b was the RDMA Consortium's pre-IETF version). */
    public static final int RDMAP_VERSION = 1;

    private RdmapControl() {
    }

    /** The control octet for {@code opcode} with RV=1 and Rsv=0, e.g. 0x40 for an RDMA Write. */
    public static byte encode(RdmapOpcode opcode) {
        return (byte) ((RDMAP_VERSION << VERSION_SHIFT) | opcode.code());
    }

    /** The RV field of a control octet. */
    public static int version(int controlOctet) {
        return (controlOctet & VERSION_MASK) >>> VERSION_SHIFT;
    }

    /** The (ignored) Rsv field of a control octet. */
    public static int reserved(int controlOctet) {
        return (controlOctet & RESERVED_MASK) >>> 4;
    }

    /** The 4-bit opcode of a control octet (which may be unassigned). */
    public static int opcodeCode(int controlOctet) {
        return controlOctet & OPCODE_MASK;
    }

    /** The opcode of a control octet, or {@code null} if it is unassigned/reserved. */
    public static RdmapOpcode opcode(int controlOctet) {
        return RdmapOpcode.fromCode(controlOctet & OPCODE_MASK);
    }
}
