package org.iwarp4j.conformance.support;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * RDMAP messages (one DDP segment each, i.e. one ULPDU) built octet by octet from RFC 5040 §4 and
 * RFC 7306 §4–§6, independently of the rdmap module's flyweights: what a scripted peer sends, and the
 * exact octets it expects from the stack (Terminates built from the offending segment the peer itself
 * sent).
 *
 * <pre>
 * RDMAP control octet = RV(0xC0, 01b) | Rsv(0x30) | Opcode(0x0F)                       RFC 5040 §4.1
 * Terminate header    = Layer&lt;&lt;4|EType, Code, M&lt;&lt;7|D&lt;&lt;6|R&lt;&lt;5, 0 [, DDP Segment Length(2),
 *                       terminated DDP header][, terminated Read Request header(28)]    RFC 5040 §4.8
 * </pre>
 */
public final class RdmapUlpdus {

    public static final int WRITE = 0x0;
    public static final int READ_REQUEST = 0x1;
    public static final int READ_RESPONSE = 0x2;
    public static final int SEND = 0x3;
    public static final int SEND_INV = 0x4;
    public static final int SEND_SE = 0x5;
    public static final int SEND_SE_INV = 0x6;
    public static final int TERMINATE = 0x7;
    public static final int IMMEDIATE = 0x8;
    public static final int IMMEDIATE_SE = 0x9;
    public static final int ATOMIC_REQUEST = 0xA;
    public static final int ATOMIC_RESPONSE = 0xB;

    private RdmapUlpdus() {}

    /** RV = 01b, Rsv = 0. */
    public static int control(int opcode) {
        return 0x40 | opcode;
    }

    public static byte[] write(int stag, long to, byte[] payload) {
        return DdpSegments.tagged(true, control(WRITE), stag, to, payload);
    }

    public static byte[] readResponse(int stag, long to, byte[] payload) {
        return DdpSegments.tagged(true, control(READ_RESPONSE), stag, to, payload);
    }

    public static byte[] send(int msn, byte[] payload) {
        return DdpSegments.untagged(true, control(SEND), 0, msn, 0, payload);
    }

    /** A Send-family message ({@code opcode} 3–6, 8, 9) on QN 0 with the given Invalidate STag field. */
    public static byte[] untaggedQn0(int opcode, int invalidateStag, int msn, byte[] payload) {
        return DdpSegments.untagged(DdpSegments.control(false, true, 0, 1), control(opcode), invalidateStag, 0, msn, 0,
                payload);
    }

    public static byte[] immediate(int msn, long data) {
        return untaggedQn0(IMMEDIATE, 0, msn, ByteBuffer.allocate(8).putLong(data).array());
    }

    /** The 28-octet Read Request header (RFC 5040 §4.4). */
    public static byte[] readRequestHeader(int sinkStag, long sinkTo, int size, int srcStag, long srcTo) {
        return ByteBuffer.allocate(28).putInt(sinkStag).putLong(sinkTo).putInt(size).putInt(srcStag).putLong(srcTo)
                .array();
    }

    public static byte[] readRequest(int msn, int sinkStag, long sinkTo, int size, int srcStag, long srcTo) {
        return DdpSegments.untagged(true, control(READ_REQUEST), 1, msn, 0,
                readRequestHeader(sinkStag, sinkTo, size, srcStag, srcTo));
    }

    /** An Atomic Request (RFC 7306 §5.2.1, 52-octet header) on QN 1. */
    public static byte[] atomicRequest(int msn, int aopcode, int requestId, int stag, long to, long addOrSwap,
                                       long addOrSwapMask, long compare, long compareMask) {
        byte[] h = ByteBuffer.allocate(52).putInt(aopcode & 0xF).putInt(requestId).putInt(stag).putLong(to)
                .putLong(addOrSwap).putLong(addOrSwapMask).putLong(compare).putLong(compareMask).array();
        return DdpSegments.untagged(true, control(ATOMIC_REQUEST), 1, msn, 0, h);
    }

    public static byte[] fetchAdd(int msn, int requestId, int stag, long to, long add) {
        return atomicRequest(msn, 0, requestId, stag, to, add, 0, 0, -1L);
    }

    /** An Atomic Response (RFC 7306 §5.2.2, 12-octet header) on QN 3. */
    public static byte[] atomicResponse(int msn, int requestId, long original) {
        return DdpSegments.untagged(true, control(ATOMIC_RESPONSE), 3, msn, 0,
                ByteBuffer.allocate(12).putInt(requestId).putLong(original).array());
    }

    /** The DDP header of a segment: 14 octets if tagged, 18 if untagged. */
    public static byte[] ddpHeader(byte[] segment) {
        return Arrays.copyOf(segment, DdpSegments.isTagged(segment) ? 14 : 18);
    }

    /** A Terminate (QN 2, MSN 1) carrying no header: M=D=R=0 (RFC 5040 Fig 10: local and LLP errors). */
    public static byte[] terminate(int layer, int etype, int code) {
        return terminateMessage(new byte[] {(byte) (layer << 4 | etype), (byte) code, 0, 0});
    }

    /**
     * The Terminate the stack owes for an error in {@code offending} (the whole segment as the peer sent
     * it): M=D=1, DDP Segment Length = its ULPDU length (RFC 5040 §4.8: "the length DDP received"), its DDP
     * header; and R=1 with its Read Request header when {@code withRdmaHeader}.
     */
    public static byte[] terminateFor(int layer, int etype, int code, byte[] offending, boolean withRdmaHeader) {
        byte[] ddp = ddpHeader(offending);
        ByteBuffer b = ByteBuffer.allocate(4 + 2 + ddp.length + (withRdmaHeader ? 28 : 0));
        b.put((byte) (layer << 4 | etype)).put((byte) code).put((byte) (0xC0 | (withRdmaHeader ? 0x20 : 0)))
                .put((byte) 0);
        b.putShort((short) offending.length).put(ddp);
        if (withRdmaHeader) {
            b.put(offending, 18, 28);
        }
        return terminateMessage(b.array());
    }

    /** Wraps a Terminate header into its untagged QN 2, MSN 1, MO 0 message. */
    public static byte[] terminateMessage(byte[] terminateHeader) {
        return DdpSegments.untagged(true, control(TERMINATE), 2, 1, 0, terminateHeader);
    }

    /** A Terminate as Linux siw writes it: the control word bit-mirrored (interop/FINDINGS.md F1). */
    public static byte[] siwTerminate(int layer, int etype, int code, boolean m, boolean d, boolean r, byte[] rest) {
        ByteBuffer b = ByteBuffer.allocate(4 + rest.length);
        b.put((byte) (etype << 4 | layer)).put((byte) code).put((byte) ((r ? 4 : 0) | (d ? 2 : 0) | (m ? 1 : 0)))
                .put((byte) 0).put(rest);
        return terminateMessage(b.array());
    }

    public static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    public static byte[] unhex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }
}
