package org.iwarp4j.rdmap.wire;

import org.iwarp4j.ddp.header.HeaderFlyweight;

/**
 * Flyweight of the Terminate header, RFC 5040 §4.8 (Fig 8), in the RFC layout. It follows the untagged
 * DDP header (QN 2, MSN 1, MO 0) of the Terminate message.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Layer | EType |  Error Code   |M|D|R|      Reserved           |  0  Terminate Control
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     DDP Segment Length        |                               |  4  (present iff D=1)
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
 * |              Terminated DDP Header (14 or 18 octets)          |  6  (present iff D=1)
 * ~                                                               ~
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |              Terminated RDMA Header (28 octets)               |     (present iff R=1)
 * ~                                                               ~
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <ul>
 *   <li>M: the DDP Segment Length is valid; D: the Terminated DDP Header (and the length) is present;
 *       R: the Terminated RDMA Header (a Read Request header) is present [RDMAP-09..11].</li>
 *   <li>The copied DDP header is 14 octets if its own T bit is 1, else 18 (RFC 5040 §4.8).</li>
 *   <li>The 13 reserved bits are 0 on send and ignored on receipt [RDMAP-08].</li>
 *   <li>As in the vectors, the length field is written iff D=1 (RFC 5040 §4.8 leaves M=1, D=0 open: we set
 *       M and D together).</li>
 * </ul>
 *
 * This flyweight reads and writes the RFC layout only; received Terminates are parsed by
 * {@code org.iwarp4j.rdmap.terminate.TerminateDecoder}, which also understands Linux siw's bit-mirrored
 * control word.
 */
public final class TerminateHeader extends HeaderFlyweight<TerminateHeader> {

    public static final int CONTROL_OFFSET = 0;
    public static final int LAYER_ETYPE_OFFSET = 0;
    public static final int ERROR_CODE_OFFSET = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int CONTROL_LENGTH = 4;
    public static final int DDP_SEGMENT_LENGTH_OFFSET = 4;
    public static final int TERMINATED_DDP_HEADER_OFFSET = 6;

    public static final int FLAG_M = 0x80;
    public static final int FLAG_D = 0x40;
    public static final int FLAG_R = 0x20;
    /** Reserved bits of octet 2 (octet 3 is reserved entirely). */
    public static final int FLAGS_RESERVED_MASK = 0x1F;

    public static final int TAGGED_DDP_HEADER_LENGTH = 14;
    public static final int UNTAGGED_DDP_HEADER_LENGTH = 18;
    /** Control + length + untagged DDP header + Read Request header. */
    public static final int MAX_LENGTH = CONTROL_LENGTH + 2 + UNTAGGED_DDP_HEADER_LENGTH + ReadRequestHeader.LENGTH;

    public int layer() {
        return (buffer.getUnsignedByte(index + LAYER_ETYPE_OFFSET) >>> 4) & 0x0F;
    }

    public int errorType() {
        return buffer.getUnsignedByte(index + LAYER_ETYPE_OFFSET) & 0x0F;
    }

    public int errorCode() {
        return buffer.getUnsignedByte(index + ERROR_CODE_OFFSET);
    }

    public boolean m() {
        return (buffer.getUnsignedByte(index + FLAGS_OFFSET) & FLAG_M) != 0;
    }

    public boolean d() {
        return (buffer.getUnsignedByte(index + FLAGS_OFFSET) & FLAG_D) != 0;
    }

    public boolean r() {
        return (buffer.getUnsignedByte(index + FLAGS_OFFSET) & FLAG_R) != 0;
    }

    /** Writes the whole Terminate Control word (reserved bits zero). */
    public TerminateHeader control(int layer, int errorType, int errorCode, boolean m, boolean d, boolean r) {
        buffer.setByte(index + LAYER_ETYPE_OFFSET, ((layer & 0x0F) << 4) | (errorType & 0x0F));
        buffer.setByte(index + ERROR_CODE_OFFSET, errorCode);
        buffer.setByte(index + FLAGS_OFFSET, (m ? FLAG_M : 0) | (d ? FLAG_D : 0) | (r ? FLAG_R : 0));
        buffer.setByte(index + FLAGS_OFFSET + 1, 0);
        return this;
    }

    /** The DDP Segment Length (only meaningful when D=1; the field is absent otherwise). */
    public int ddpSegmentLength() {
        return buffer.getUnsignedShort(index + DDP_SEGMENT_LENGTH_OFFSET);
    }

    public TerminateHeader ddpSegmentLength(int length) {
        buffer.setShort(index + DDP_SEGMENT_LENGTH_OFFSET, length);
        return this;
    }

    /** Length of the copied DDP header, from its own T bit: 14 (tagged) or 18 (untagged). Needs D=1. */
    public int terminatedDdpHeaderLength() {
        return ddpHeaderLength(buffer.getUnsignedByte(index + TERMINATED_DDP_HEADER_OFFSET));
    }

    /** Offset (relative to the header) of the Terminated RDMA Header, given the D flag. */
    public int terminatedRdmaHeaderOffset() {
        return d() ? TERMINATED_DDP_HEADER_OFFSET + terminatedDdpHeaderLength() : CONTROL_LENGTH;
    }

    /** Total length of this header as described by its D and R flags. */
    public int length() {
        return terminatedRdmaHeaderOffset() + (r() ? ReadRequestHeader.LENGTH : 0);
    }

    /** 14 if the DDP control octet has T=1, else 18 (RFC 5041 §4.2/§4.3). */
    public static int ddpHeaderLength(int ddpControlOctet) {
        return (ddpControlOctet & 0x80) != 0 ? TAGGED_DDP_HEADER_LENGTH : UNTAGGED_DDP_HEADER_LENGTH;
    }
}
