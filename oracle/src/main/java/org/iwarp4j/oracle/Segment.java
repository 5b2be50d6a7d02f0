package org.iwarp4j.oracle;

import java.nio.ByteBuffer;

/**
 * Builds DDP segments carrying RDMAP messages (the ULPDU of one FPDU), field by field as RFC 5041 §4 and
 * RFC 5040 §4 draw them, including wrong ones: every field may be set to any value.
 *
 * <pre>
 * octet 0: T(1) L(1) Rsvd(4) DV(2)                 RFC 5041 §4.1 (DDP control)
 * octet 1: RV(2) Rsvd(2) Opcode(4)                 RFC 5040 §4.2 (RDMAP control, DDP's "reserved for the ULP")
 * tagged:   STag(4) TO(8)                          RFC 5041 §4.2, 14 octets in all
 * untagged: RsvdULP(4) QN(4) MSN(4) MO(4)          RFC 5041 §4.3, 18 octets in all
 * </pre>
 */
public final class Segment {

    /** RFC 5040 §4.3 and RFC 7306 §4.1: the RDMAP opcodes. */
    public static final int WRITE = 0x0;
    public static final int READ_REQUEST = 0x1;
    public static final int READ_RESPONSE = 0x2;
    public static final int SEND = 0x3;
    public static final int SEND_INVALIDATE = 0x4;
    public static final int SEND_SE = 0x5;
    public static final int SEND_SE_INVALIDATE = 0x6;
    public static final int TERMINATE = 0x7;
    public static final int IMMEDIATE_DATA = 0x8;
    public static final int IMMEDIATE_DATA_SE = 0x9;
    public static final int ATOMIC_REQUEST = 0xA;
    public static final int ATOMIC_RESPONSE = 0xB;

    /** RFC 5040 §5.1 and RFC 7306 §4.2: the untagged queues. */
    public static final int QN_SEND = 0;
    public static final int QN_READ_REQUEST = 1;
    public static final int QN_TERMINATE = 2;
    public static final int QN_ATOMIC_RESPONSE = 3;

    public static final int TAGGED_HEADER = 14;
    public static final int UNTAGGED_HEADER = 18;
    /** RFC 5040 §4.4: the RDMA Read Request header after the untagged DDP header. */
    public static final int READ_REQUEST_HEADER = 28;

    private final boolean tagged;
    private int opcode;
    private boolean last = true;
    private int ddpVersion = 1;
    private int rdmapVersion = 1;
    private int ddpReserved;
    private int rdmapReserved;
    private int stag;
    private long to;
    private int reservedUlp;
    private int qn;
    private int msn;
    private int mo;
    private byte[] payload = new byte[0];

    private Segment(boolean tagged, int opcode) {
        this.tagged = tagged;
        this.opcode = opcode;
    }

    /** A tagged segment (RDMA Write, Read Response, …) into {@code stag} at {@code to}. */
    public static Segment tagged(int opcode, int stag, long to) {
        Segment s = new Segment(true, opcode);
        s.stag = stag;
        s.to = to;
        return s;
    }

    /** An untagged segment on queue {@code qn} with message sequence number {@code msn}, offset 0. */
    public static Segment untagged(int opcode, int qn, int msn) {
        Segment s = new Segment(false, opcode);
        s.qn = qn;
        s.msn = msn;
        return s;
    }

    /** A whole Send (QN 0, L=1, MO 0) carrying {@code payload}. */
    public static Segment send(int msn, byte[] payload) {
        return untagged(SEND, QN_SEND, msn).payload(payload);
    }

    /** An RDMA Read Request (QN 1) with its 28-octet header (RFC 5040 §4.4). */
    public static Segment readRequest(int msn, int sinkStag, long sinkTo, int size, int sourceStag, long sourceTo) {
        ByteBuffer h = ByteBuffer.allocate(READ_REQUEST_HEADER);
        h.putInt(sinkStag).putLong(sinkTo).putInt(size).putInt(sourceStag).putLong(sourceTo);
        return untagged(READ_REQUEST, QN_READ_REQUEST, msn).payload(h.array());
    }

    /**
     * A Terminate (QN 2, MSN 1, RFC 5040 §4.8) in the RFC's layout: {@code headers} are the DDP Segment Length
     * and the copied headers that follow the control word (empty when D=0).
     */
    public static Segment terminate(int layer, int etype, int code, boolean m, boolean d, boolean r, byte[] headers) {
        ByteBuffer b = ByteBuffer.allocate(4 + headers.length);
        b.put((byte) ((layer & 0xF) << 4 | (etype & 0xF))).put((byte) code)
                .put((byte) ((m ? 0x80 : 0) | (d ? 0x40 : 0) | (r ? 0x20 : 0))).put((byte) 0).put(headers);
        return untagged(TERMINATE, QN_TERMINATE, 1).payload(b.array());
    }

    public Segment last(boolean v) {
        last = v;
        return this;
    }

    public Segment opcode(int v) {
        opcode = v;
        return this;
    }

    /** DV, 2 bits (RFC 5041 §4.1: 1). */
    public Segment ddpVersion(int v) {
        ddpVersion = v;
        return this;
    }

    /** RV, 2 bits (RFC 5040 §4.2: 1). */
    public Segment rdmapVersion(int v) {
        rdmapVersion = v;
        return this;
    }

    /** The four reserved bits of the DDP control octet. */
    public Segment ddpReserved(int v) {
        ddpReserved = v;
        return this;
    }

    /** The two reserved bits of the RDMAP control octet. */
    public Segment rdmapReserved(int v) {
        rdmapReserved = v;
        return this;
    }

    /** Untagged: the 32-bit field reserved for the ULP (the Invalidate STag of Send with Invalidate). */
    public Segment reservedUlp(int v) {
        reservedUlp = v;
        return this;
    }

    public Segment qn(int v) {
        qn = v;
        return this;
    }

    public Segment msn(int v) {
        msn = v;
        return this;
    }

    public Segment mo(int v) {
        mo = v;
        return this;
    }

    public Segment payload(byte[] v) {
        payload = v.clone();
        return this;
    }

    public Segment payload(int length) {
        payload = new byte[length];
        return this;
    }

    /** The octets after the DDP header. */
    public byte[] payloadOctets() {
        return payload.clone();
    }

    public boolean isTagged() {
        return tagged;
    }

    public int headerLength() {
        return tagged ? TAGGED_HEADER : UNTAGGED_HEADER;
    }

    /** The DDP header alone (as a Terminate copies it). */
    public byte[] header() {
        byte[] all = toBytes();
        byte[] h = new byte[headerLength()];
        System.arraycopy(all, 0, h, 0, h.length);
        return h;
    }

    /** The segment's octets: DDP header, then the payload (RDMAP header included for Read Requests). */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(headerLength() + payload.length);
        b.put((byte) ((tagged ? 0x80 : 0) | (last ? 0x40 : 0) | (ddpReserved & 0xF) << 2 | (ddpVersion & 3)));
        b.put((byte) ((rdmapVersion & 3) << 6 | (rdmapReserved & 3) << 4 | (opcode & 0xF)));
        if (tagged) {
            b.putInt(stag).putLong(to);
        } else {
            b.putInt(reservedUlp).putInt(qn).putInt(msn).putInt(mo);
        }
        return b.put(payload).array();
    }
}
