package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.common.RtrType;

import java.util.EnumSet;
import java.util.Set;

/**
 * The RFC 6581 "Enhanced RDMA Connection Establishment Data": the first four octets of the private
 * data of an MPA Request or Reply with S=1 (RFC 6581 §9). Network byte order:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |A|B|         IRD (14)          |C|D|          ORD (14)         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * A = peer-to-peer (RTR) model; B = zero-length Send RTR; C = zero-length RDMA Write RTR;
 * D = zero-length RDMA Read RTR. In a Request the flags list the RTR types the Initiator supports
 * (RFC 6581 §9.2); in a Reply the types the Responder accepts. With A=0 the B/C/D flags are sent as
 * 0 and ignored on receipt. IRD/ORD {@value #NO_NEGOTIATION} (0x3FFF) means "no automatic
 * negotiation" (RFC 6581 §9.1).
 *
 * @param peerToPeer A flag
 * @param sendRtr    B flag
 * @param ird        inbound RDMA Read queue depth, 0…0x3FFF
 * @param writeRtr   C flag
 * @param readRtr    D flag
 * @param ord        outbound RDMA Read queue depth, 0…0x3FFF
 */
public record EnhancedConnectionData(boolean peerToPeer, boolean sendRtr, int ird,
                                     boolean writeRtr, boolean readRtr, int ord) {

    /** Length on the wire. */
    public static final int LENGTH = 4;
    /** IRD/ORD value meaning "no automatic negotiation" (RFC 6581 §9.1); also the largest value. */
    public static final int NO_NEGOTIATION = 0x3FFF;

    static final int A_MASK = 0x8000;
    static final int B_MASK = 0x4000;
    static final int C_MASK = 0x8000;
    static final int D_MASK = 0x4000;
    static final int VALUE_MASK = 0x3FFF;

    public EnhancedConnectionData {
        if (ird < 0 || ird > NO_NEGOTIATION) {
            throw new IllegalArgumentException("IRD must be 0..0x3FFF: " + ird);
        }
        if (ord < 0 || ord > NO_NEGOTIATION) {
            throw new IllegalArgumentException("ORD must be 0..0x3FFF: " + ord);
        }
    }

    /** Block with the given A flag, RTR flag set, IRD and ORD. */
    public static EnhancedConnectionData of(boolean peerToPeer, Set<RtrType> rtrTypes, int ird, int ord) {
        return new EnhancedConnectionData(peerToPeer, rtrTypes.contains(RtrType.SEND), ird,
                rtrTypes.contains(RtrType.WRITE), rtrTypes.contains(RtrType.READ), ord);
    }

    /** Decodes the two 16-bit words (first: A|B|IRD, second: C|D|ORD). */
    public static EnhancedConnectionData decode(int irdWord, int ordWord) {
        return new EnhancedConnectionData((irdWord & A_MASK) != 0, (irdWord & B_MASK) != 0, irdWord & VALUE_MASK,
                (ordWord & C_MASK) != 0, (ordWord & D_MASK) != 0, ordWord & VALUE_MASK);
    }

    /** The first 16-bit word: A|B|IRD. */
    public int irdWord() {
        return (peerToPeer ? A_MASK : 0) | (sendRtr ? B_MASK : 0) | ird;
    }

    /** The second 16-bit word: C|D|ORD. */
    public int ordWord() {
        return (writeRtr ? C_MASK : 0) | (readRtr ? D_MASK : 0) | ord;
    }

    /** Writes the four octets (big-endian). */
    public void encode(ByteBuf out) {
        out.writeShort(irdWord());
        out.writeShort(ordWord());
    }

    /** The RTR types whose flags are set (regardless of A). */
    public Set<RtrType> rtrFlags() {
        EnumSet<RtrType> set = EnumSet.noneOf(RtrType.class);
        if (sendRtr) {
            set.add(RtrType.SEND);
        }
        if (writeRtr) {
            set.add(RtrType.WRITE);
        }
        if (readRtr) {
            set.add(RtrType.READ);
        }
        return set;
    }

    /**
     * The RTR types this block offers or accepts: the set flags when A=1, the empty set when A=0
     * (RFC 6581 §9.2: with A=0 the flags MUST be ignored on receipt).
     */
    public Set<RtrType> rtrTypes() {
        return peerToPeer ? rtrFlags() : EnumSet.noneOf(RtrType.class);
    }

    @Override
    public String toString() {
        return "A=" + bit(peerToPeer) + " B=" + bit(sendRtr) + " IRD=" + value(ird)
                + " C=" + bit(writeRtr) + " D=" + bit(readRtr) + " ORD=" + value(ord);
    }

    private static String value(int v) {
        return v == NO_NEGOTIATION ? "0x3fff(no negotiation)" : Integer.toString(v);
    }

    private static int bit(boolean b) {
        return b ? 1 : 0;
    }
}
