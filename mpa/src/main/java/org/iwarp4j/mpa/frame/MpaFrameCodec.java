package org.iwarp4j.mpa.frame;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;

/**
 * Wire layout, parser and encoder of the MPA Request/Reply frame (RFC 5044 §7.1.1, RFC 6581 §6);
 * the bit diagram is on {@link MpaFrame}. All multi-octet fields are big-endian.
 *
 * <p>The parser works on partial input: {@link #parse} never consumes octets and returns
 * {@code null} while the frame is incomplete, but rejects at once (error 0x04,
 * {@link MpaError#INVALID_STARTUP_FRAME}) as soon as the octets present prove the frame invalid:
 * <ul>
 *   <li>a key octet that matches neither key, checked octet by octet as it arrives;</li>
 *   <li>Rev 0 (pre-IETF RDMAC, RFC 5044 App. C, not supported) or Rev ≥ 3 (unknown);</li>
 *   <li>PD_Length &gt; 512, checked as soon as the 20-octet header is in (never waits for the PD);</li>
 *   <li>S=1 with Rev 2 and PD_Length &lt; 4 (no room for the enhanced data, RFC 6581 §6).</li>
 * </ul>
 */
public final class MpaFrameCodec {

    /** Offset of the 16-octet key. */
    public static final int KEY_OFFSET = 0;
    /** Offset of the M|C|R|S|Res octet. */
    public static final int FLAGS_OFFSET = 16;
    /** Offset of Rev. */
    public static final int REV_OFFSET = 17;
    /** Offset of the 16-bit PD_Length. */
    public static final int PD_LENGTH_OFFSET = 18;
    /** Offset of the private data (and of the enhanced data when S=1). */
    public static final int PRIVATE_DATA_OFFSET = 20;

    /** M: markers wanted by the frame's sender in what it receives (RFC 5044 §7.1.1). */
    public static final int M_MASK = 0x80;
    /** C: CRC wanted (RFC 5044 §7.1.1). */
    public static final int C_MASK = 0x40;
    /** R: rejected (Reply only, RFC 5044 §7.1.1). */
    public static final int R_MASK = 0x20;
    /** S: enhanced connection data present (RFC 6581 §6). */
    public static final int S_MASK = 0x10;
    /** Res: the remaining four bits, sent 0, not checked. Linux siw uses 0x08 privately. */
    public static final int RES_MASK = 0x0F;

    /** Lowest revision handled: 1 (RFC 5044). */
    public static final int MIN_REVISION = 1;
    /** Highest revision handled: 2 (RFC 6581). */
    public static final int MAX_REVISION = 2;

    private MpaFrameCodec() {}

    /**
     * Parses one frame at {@code in.readerIndex()} without consuming anything.
     *
     * @return the frame, or {@code null} when more octets are needed (and nothing seen so far is invalid)
     * @throws MpaException with {@link MpaError#INVALID_STARTUP_FRAME} as soon as the frame is known to be invalid;
     *                      its stream offset is the offset within the frame of the offending field
     */
    public static MpaFrame parse(ByteBuf in) {
        int start = in.readerIndex();
        int available = in.readableBytes();
        MpaFrameType type = checkKey(in, start, Math.min(available, MpaFrameType.KEY_LENGTH));
        if (available < MpaFrame.HEADER_LENGTH) {
            return null;
        }
        int flags = in.getUnsignedByte(start + FLAGS_OFFSET);
        int rev = in.getUnsignedByte(start + REV_OFFSET);
        int pdLength = in.getUnsignedShort(start + PD_LENGTH_OFFSET);
        // RFC 5044 §7.1.1: the receiver checks Rev and closes if it cannot interoperate with it.
        if (rev < MIN_REVISION || rev > MAX_REVISION) {
            throw invalid(rev == 0
                    ? "Rev 0 (pre-IETF RDMAC MPA, RFC 5044 App. C) is not supported"
                    : "unsupported MPA revision " + rev + " (this implementation handles 1 and 2)", REV_OFFSET);
        }
        // RFC 5044 §7.1.1: PD_Length > 512 is an error; decided from the header alone.
        if (pdLength > MpaFrame.MAX_PRIVATE_DATA_LENGTH) {
            throw invalid("PD_Length " + pdLength + " exceeds 512", PD_LENGTH_OFFSET);
        }
        boolean s = (flags & S_MASK) != 0;
        boolean carriesBlock = s && rev >= 2;
        // RFC 6581 §6: with S=1 the private data starts with the 4-octet enhanced data.
        if (carriesBlock && pdLength < EnhancedConnectionData.LENGTH) {
            throw invalid("S=1 but PD_Length " + pdLength + " cannot hold the 4-octet enhanced data", PD_LENGTH_OFFSET);
        }
        if (available < MpaFrame.HEADER_LENGTH + pdLength) {
            return null;
        }
        int pd = start + PRIVATE_DATA_OFFSET;
        EnhancedConnectionData data = null;
        int ulpOffset = pd;
        if (carriesBlock) {
            data = EnhancedConnectionData.decode(in.getUnsignedShort(pd), in.getUnsignedShort(pd + 2));
            ulpOffset += EnhancedConnectionData.LENGTH;
        }
        byte[] ulp = new byte[pd + pdLength - ulpOffset];
        in.getBytes(ulpOffset, ulp);
        return new MpaFrame(type, (flags & M_MASK) != 0, (flags & C_MASK) != 0, (flags & R_MASK) != 0, s,
                flags & RES_MASK, rev, data, ulp);
    }

    /**
     * Checks the first {@code n} key octets present; returns the frame type once octet 11 is known
     * (otherwise null).
     */
    private static MpaFrameType checkKey(ByteBuf in, int start, int n) {
        MpaFrameType type = null;
        for (int i = 0; i < n; i++) {
            byte b = in.getByte(start + KEY_OFFSET + i);
            if (i == MpaFrameType.DISTINGUISHING_KEY_OCTET) {
                if (b == MpaFrameType.REQUEST.keyOctet(i)) {
                    type = MpaFrameType.REQUEST;
                } else if (b == MpaFrameType.REPLY.keyOctet(i)) {
                    type = MpaFrameType.REPLY;
                } else {
                    throw badKey(i, b);
                }
            } else if (b != MpaFrameType.REQUEST.keyOctet(i)) {
                throw badKey(i, b);
            }
        }
        return type;
    }

    private static MpaException badKey(int i, byte b) {
        // RFC 5044 §7.1.1, §7.1.2 rule 5: a wrong key closes the connection with a local error.
        // Concatenated, not String.format: a peer can make us build this once per connection attempt.
        int expected = MpaFrameType.REQUEST.keyOctet(i) & 0xFF;
        return invalid("key octet " + i + " is 0x" + hex2(b & 0xFF) + ", expected 0x" + hex2(expected)
                + " ('" + (char) expected + "')"
                + (i == MpaFrameType.DISTINGUISHING_KEY_OCTET ? " or 0x70 ('p')" : ""), KEY_OFFSET + i);
    }

    private static String hex2(int octet) {
        return new String(new char[] {Character.forDigit(octet >> 4, 16), Character.forDigit(octet & 0xF, 16)});
    }

    private static MpaException invalid(String message, int offset) {
        return new MpaException(MpaError.INVALID_STARTUP_FRAME, message, offset);
    }

    /** Writes {@code frame} to {@code out} exactly as it goes on the wire. */
    public static void encode(MpaFrame frame, ByteBuf out) {
        for (int i = 0; i < MpaFrameType.KEY_LENGTH; i++) {
            out.writeByte(frame.type().keyOctet(i));
        }
        out.writeByte(frame.flagsOctet());
        out.writeByte(frame.revision());
        out.writeShort(frame.privateDataLength());
        if (frame.enhancedData() != null) {
            frame.enhancedData().encode(out);
        }
        out.writeBytes(frame.privateData());
    }
}
