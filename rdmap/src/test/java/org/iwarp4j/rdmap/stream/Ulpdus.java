package org.iwarp4j.rdmap.stream;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Hand-built ULPDUs for a raw test peer (independent of the production encoders). */
final class Ulpdus {

    private Ulpdus() {
    }

    /** Tagged DDP header (T=1, DV=1, L as given) + payload. */
    static byte[] tagged(boolean last, int rdmapControl, int stag, long to, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(14 + payload.length);
        b.put((byte) (0x80 | (last ? 0x40 : 0) | 1)).put((byte) rdmapControl).putInt(stag).putLong(to).put(payload);
        return b.array();
    }

    /** Untagged DDP header (T=0, DV=1, L as given) + payload. */
    static byte[] untagged(boolean last, int rdmapControl, int invalidateStag, int qn, int msn, int mo,
            byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(18 + payload.length);
        b.put((byte) ((last ? 0x40 : 0) | 1)).put((byte) rdmapControl).putInt(invalidateStag).putInt(qn).putInt(msn)
                .putInt(mo).put(payload);
        return b.array();
    }

    static byte[] readRequest(int msn, int sinkStag, long sinkTo, int size, int srcStag, long srcTo) {
        ByteBuffer h =
                ByteBuffer.allocate(28).putInt(sinkStag).putLong(sinkTo).putInt(size).putInt(srcStag).putLong(srcTo);
        return untagged(true, 0x41, 0, 1, msn, 0, h.array());
    }

    static byte[] fetchAdd(int msn, int requestId, int stag, long to, long add, long mask) {
        ByteBuffer h = ByteBuffer.allocate(52).putInt(0).putInt(requestId).putInt(stag).putLong(to).putLong(add)
                .putLong(mask).putLong(0).putLong(-1L);
        return untagged(true, 0x4A, 0, 1, msn, 0, h.array());
    }

    /** The ULPDU of a Terminate we expect: untagged QN 2 MSN 1 header + the given Terminate header hex. */
    static String terminate(String terminateHeaderHex) {
        return "4147" + "00000000" + "00000002" + "00000001" + "00000000" + terminateHeaderHex;
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static String hex(byte[] b, int from, int to) {
        return HexFormat.of().formatHex(b, from, to);
    }
}
