package org.iwarp4j.conformance.support;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * DDP segments built octet by octet from RFC 5041 §4 (independently of the ddp module's flyweights), for
 * feeding the receiver, and the field reads used to check what the sender produced.
 *
 * <pre>
 * control = T(0x80) | L(0x40) | Rsvd(0x3C) | DV(0x03)
 * tagged   (14): control, RsvdULP, STag(4), TO(8), payload
 * untagged (18): control, RsvdULP[0:7], RsvdULP[8:39](4), QN(4), MSN(4), MO(4), payload
 * </pre>
 */
public final class DdpSegments {

    public static final int TAGGED_HEADER = 14;
    public static final int UNTAGGED_HEADER = 18;

    private DdpSegments() {}

    public static int control(boolean tagged, boolean last, int rsvd, int dv) {
        return (tagged ? 0x80 : 0) | (last ? 0x40 : 0) | ((rsvd & 0xF) << 2) | (dv & 3);
    }

    public static byte[] tagged(int control, int rsvdUlp, int stag, long to, byte[] payload) {
        return ByteBuffer.allocate(TAGGED_HEADER + payload.length).put((byte) control).put((byte) rsvdUlp)
                .putInt(stag).putLong(to).put(payload).array();
    }

    /** A tagged segment with DV 1 and Rsvd 0. */
    public static byte[] tagged(boolean last, int rsvdUlp, int stag, long to, byte[] payload) {
        return tagged(control(true, last, 0, 1), rsvdUlp, stag, to, payload);
    }

    public static byte[] untagged(int control, int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo, byte[] payload) {
        return ByteBuffer.allocate(UNTAGGED_HEADER + payload.length).put((byte) control).put((byte) rsvdUlp)
                .putInt(rsvdUlpWord).putInt(qn).putInt(msn).putInt(mo).put(payload).array();
    }

    /** An untagged segment with DV 1 and Rsvd 0. */
    public static byte[] untagged(boolean last, int rsvdUlp, int qn, int msn, int mo, byte[] payload) {
        return untagged(control(false, last, 0, 1), rsvdUlp, 0, qn, msn, mo, payload);
    }

    // ---- reads of a segment (header at index 0)

    public static int controlOf(byte[] s) {
        return s[0] & 0xFF;
    }

    public static boolean isTagged(byte[] s) {
        return (s[0] & 0x80) != 0;
    }

    public static boolean isLast(byte[] s) {
        return (s[0] & 0x40) != 0;
    }

    public static int rsvdOf(byte[] s) {
        return (s[0] >>> 2) & 0xF;
    }

    public static int dvOf(byte[] s) {
        return s[0] & 3;
    }

    public static int rsvdUlpOf(byte[] s) {
        return s[1] & 0xFF;
    }

    public static int stagOf(byte[] s) {
        return ByteBuffer.wrap(s).getInt(2);
    }

    public static long toOf(byte[] s) {
        return ByteBuffer.wrap(s).getLong(6);
    }

    public static int rsvdUlpWordOf(byte[] s) {
        return ByteBuffer.wrap(s).getInt(2);
    }

    public static int qnOf(byte[] s) {
        return ByteBuffer.wrap(s).getInt(6);
    }

    public static int msnOf(byte[] s) {
        return ByteBuffer.wrap(s).getInt(10);
    }

    public static int moOf(byte[] s) {
        return ByteBuffer.wrap(s).getInt(14);
    }

    public static byte[] payloadOf(byte[] s) {
        int h = isTagged(s) ? TAGGED_HEADER : UNTAGGED_HEADER;
        return Arrays.copyOfRange(s, h, s.length);
    }
}
