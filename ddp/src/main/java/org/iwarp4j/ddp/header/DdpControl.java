package org.iwarp4j.ddp.header;

/**
 * The DDP Control Field: octet 0 of every DDP header (RFC 5041 §4.1).
 *
 * <pre>
 *    0   1   2   3   4   5   6   7
 *  +---+---+---+---+---+---+---+---+
 *  | T | L |     Rsvd      |  DV   |
 *  +---+---+---+---+---+---+---+---+
 * </pre>
 *
 * <ul>
 *   <li>T (Tagged flag): 1 = the payload is placed into a tagged buffer, 0 = into an untagged buffer.</li>
 *   <li>L (Last flag): 1 on the last segment of a DDP message, 0 on every other segment.</li>
 *   <li>Rsvd: sent as 0, not checked on receive.</li>
 *   <li>DV (DDP version): 1 for RFC 5041 (0 was the RDMA Consortium's version).</li>
 * </ul>
 *
 * <p>RFC 5041 draws this octet as bits 16–23 because its figures put MPA's 16-bit ULPDU_Length in front.
 */
public final class DdpControl {

    /** T, the Tagged flag (RFC 5041 §4.1). */
    public static final int TAGGED_MASK = 0x80;
    /** L, the Last flag (RFC 5041 §4.1). */
    public static final int LAST_MASK = 0x40;
    /** The four reserved bits: 0 on send, ignored on receive (RFC 5041 §4.1). */
    public static final int RSVD_MASK = 0x3C;
    /** DV, the two-bit DDP version field (RFC 5041 §4.1). */
    public static final int DV_MASK = 0x03;
    /** The only DDP version this implementation speaks: 1 = RFC 5041 (RFC 5041 §4.1). */
    public static final int DDP_VERSION = 1;

    private DdpControl() {}

    /** The control octet a sender emits: the given T and L flags, Rsvd 0, DV 1. */
    public static int encode(boolean tagged, boolean last) {
        return (tagged ? TAGGED_MASK : 0) | (last ? LAST_MASK : 0) | DDP_VERSION;
    }

    public static boolean isTagged(int control) {
        return (control & TAGGED_MASK) != 0;
    }

    public static boolean isLast(int control) {
        return (control & LAST_MASK) != 0;
    }

    /** The reserved bits, shifted down (0…15). */
    public static int reserved(int control) {
        return (control & RSVD_MASK) >>> 2;
    }

    public static int version(int control) {
        return control & DV_MASK;
    }

    /** A short human-readable form, e.g. {@code T L DV=1}. */
    public static String describe(int control) {
        return (isTagged(control) ? "T" : "-") + ' ' + (isLast(control) ? "L" : "-")
                + (reserved(control) != 0 ? " Rsvd=" + reserved(control) : "") + " DV=" + version(control);
    }
}
