package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An MPA Request or Reply frame (RFC 5044 §7.1.1, RFC 6581 §6), immutable.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |  0
 * +         Key: "MPA ID Req Frame" or "MPA ID Rep Frame"         +
 * |                        (16 ASCII octets)                      |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |M|C|R|S| Res   |     Rev       |          PD_Length            | 16
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * ~   Private Data (PD_Length octets, 0…512; with S=1 and Rev ≥ 2  ~ 20
 * ~   it begins with the 4-octet {@link EnhancedConnectionData})    ~
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>{@code reservedBits} keeps the four low bits of octet 16 as received, for display only: they
 * are sent as 0 and not checked (RFC 5044 §7.1.1). Linux siw uses 0x08 as a private flag and copies
 * the Initiator's bits back into its Reply. In Rev 1 frames the S bit is one of RFC 5044's reserved
 * bits: it is kept in {@code enhanced} for display but has no meaning, and {@code enhancedData} is
 * then {@code null}.
 *
 * @param type          Request or Reply (from the key)
 * @param markers       M: the sender of this frame wants markers in what it receives
 * @param crc           C: the sender wants CRCs
 * @param rejected      R: in a Reply, 1 = connection rejected; in a Request sent as 0 and ignored
 * @param enhanced      S: RFC 6581 enhanced data present (meaningful only with Rev ≥ 2)
 * @param reservedBits  the four Res bits (0…15) as received
 * @param revision      Rev (0…255)
 * @param enhancedData  the RFC 6581 block, non-null exactly when {@code enhanced && revision >= 2}
 * @param privateData   the ULP private data (after the enhanced block, if any); never null
 */
public record MpaFrame(MpaFrameType type, boolean markers, boolean crc, boolean rejected, boolean enhanced,
                       int reservedBits, int revision, EnhancedConnectionData enhancedData, byte[] privateData) {

    /** RFC 5044 §7.1.1: Private Data (including RFC 6581's four octets) is at most 512 octets. */
    public static final int MAX_PRIVATE_DATA_LENGTH = 512;
    /** Length of the fixed part (key, flags, Rev, PD_Length). */
    public static final int HEADER_LENGTH = 20;

    public MpaFrame {
        if (type == null) {
            throw new NullPointerException("type");
        }
        if (reservedBits < 0 || reservedBits > 0x0F) {
            throw new IllegalArgumentException("reservedBits must be 0..15: " + reservedBits);
        }
        if (revision < 0 || revision > 0xFF) {
            throw new IllegalArgumentException("revision must be 0..255: " + revision);
        }
        boolean carriesBlock = enhanced && revision >= 2;
        if (carriesBlock != (enhancedData != null)) {
            throw new IllegalArgumentException(carriesBlock
                    ? "S=1 with Rev >= 2 requires the enhanced connection data (RFC 6581 §6)"
                    : "enhanced connection data needs S=1 and Rev >= 2 (RFC 6581 §6)");
        }
        privateData = privateData == null ? new byte[0] : privateData.clone();
        int pdLength = privateData.length + (carriesBlock ? EnhancedConnectionData.LENGTH : 0);
        if (pdLength > MAX_PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("private data of " + pdLength
                    + " octets (incl. enhanced data) exceeds 512 (RFC 5044 §7.1.1, RFC 6581 §7)");
        }
    }

    /** An RFC 5044 (unenhanced) frame with reserved bits 0. */
    public static MpaFrame rev1(MpaFrameType type, boolean markers, boolean crc, boolean rejected, byte[] privateData) {
        return new MpaFrame(type, markers, crc, rejected, false, 0, 1, null, privateData);
    }

    /** An RFC 6581 frame (Rev 2, S=1) carrying {@code data}, reserved bits 0. */
    public static MpaFrame enhanced(MpaFrameType type, boolean markers, boolean crc, boolean rejected,
                                    EnhancedConnectionData data, byte[] privateData) {
        return new MpaFrame(type, markers, crc, rejected, true, 0, 2, data, privateData);
    }

    /** The ULP private data (a copy). */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** PD_Length as on the wire: ULP private data plus 4 when the enhanced block is present. */
    public int privateDataLength() {
        return privateData.length + (enhancedData != null ? EnhancedConnectionData.LENGTH : 0);
    }

    /** Total frame length on the wire: 20 + PD_Length. */
    public int length() {
        return HEADER_LENGTH + privateDataLength();
    }

    /** Octet 16 as sent: M|C|R|S|Res. */
    public int flagsOctet() {
        return (markers ? MpaFrameCodec.M_MASK : 0) | (crc ? MpaFrameCodec.C_MASK : 0)
                | (rejected ? MpaFrameCodec.R_MASK : 0) | (enhanced ? MpaFrameCodec.S_MASK : 0) | reservedBits;
    }

    /** Writes the frame to {@code out}; see {@link MpaFrameCodec#encode}. */
    public void encode(ByteBuf out) {
        MpaFrameCodec.encode(this, out);
    }

    /** The frame's exact octets. */
    public byte[] toByteArray() {
        ByteBuf buf = Unpooled.buffer(length());
        encode(buf);
        return ByteBufUtil.getBytes(buf);
    }

    /** Same frame with {@code rejected} set as given. */
    public MpaFrame withRejected(boolean r) {
        return new MpaFrame(type, markers, crc, r, enhanced, reservedBits, revision, enhancedData, privateData);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaFrame f && type == f.type && markers == f.markers && crc == f.crc
                && rejected == f.rejected && enhanced == f.enhanced && reservedBits == f.reservedBits
                && revision == f.revision && Objects.equals(enhancedData, f.enhancedData)
                && Arrays.equals(privateData, f.privateData);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, markers, crc, rejected, enhanced, reservedBits, revision, enhancedData)
                * 31 + Arrays.hashCode(privateData);
    }

    /**
     * One line, e.g. {@code MPA Request Rev=2 M=0 C=1 R=0 S=1 Res=0x0 PD_Length=13 [A=1 B=1 IRD=16 ...] pd=7032...}.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("MPA ").append(type == MpaFrameType.REQUEST ? "Request" : "Reply")
                .append(" Rev=").append(revision)
                .append(" M=").append(markers ? 1 : 0).append(" C=").append(crc ? 1 : 0)
                .append(" R=").append(rejected ? 1 : 0).append(" S=").append(enhanced ? 1 : 0)
                .append(" Res=0x").append(Integer.toHexString(reservedBits))
                .append(" PD_Length=").append(privateDataLength());
        if (enhancedData != null) {
            sb.append(" [").append(enhancedData).append(']');
        }
        if (privateData.length > 0) {
            sb.append(" pd=").append(HexFormat.of().formatHex(privateData));
        }
        return sb.toString();
    }
}
