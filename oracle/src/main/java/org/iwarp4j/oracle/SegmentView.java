package org.iwarp4j.oracle;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One DDP segment taken apart (RFC 5041 §4, RFC 5040 §4): the fields of its DDP and RDMAP control octets and
 * header, whatever their values. {@link #parse} never throws; a segment shorter than its header is
 * {@link #complete() incomplete} and its missing fields read as zero.
 *
 * @param octets the whole segment (the ULPDU of an FPDU)
 */
public record SegmentView(byte[] octets, boolean tagged, boolean last, int ddpReserved, int ddpVersion,
                          int rdmapVersion, int rdmapReserved, int opcode, int stag, long to, int reservedUlp,
                          int qn, int msn, int mo, boolean complete) {

    public static SegmentView parse(byte[] octets) {
        byte[] o = octets.clone();
        ByteBuffer b = ByteBuffer.wrap(Arrays.copyOf(o, Math.max(o.length, Segment.UNTAGGED_HEADER)));
        int c0 = b.get(0) & 0xFF;
        int c1 = b.get(1) & 0xFF;
        boolean tagged = (c0 & 0x80) != 0;
        int need = tagged ? Segment.TAGGED_HEADER : Segment.UNTAGGED_HEADER;
        return new SegmentView(o, tagged, (c0 & 0x40) != 0, (c0 >> 2) & 0xF, c0 & 3, c1 >> 6, (c1 >> 4) & 3,
                c1 & 0xF, tagged ? b.getInt(2) : 0, tagged ? b.getLong(6) : 0, tagged ? 0 : b.getInt(2),
                tagged ? 0 : b.getInt(6), tagged ? 0 : b.getInt(10), tagged ? 0 : b.getInt(14), o.length >= need);
    }

    public int headerLength() {
        return tagged ? Segment.TAGGED_HEADER : Segment.UNTAGGED_HEADER;
    }

    /** The octets after the DDP header (for a Read Request: its 28-octet RDMAP header). */
    public byte[] payload() {
        return complete ? Arrays.copyOfRange(octets, headerLength(), octets.length) : new byte[0];
    }

    public boolean isTerminate() {
        return complete && !tagged && opcode == Segment.TERMINATE;
    }

    /** The RFC 5040 §4.4 fields of a Read Request, or null if this is not a whole one. */
    public ReadRequest readRequest() {
        byte[] p = payload();
        if (tagged || opcode != Segment.READ_REQUEST || p.length < Segment.READ_REQUEST_HEADER) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(p);
        return new ReadRequest(b.getInt(), b.getLong(), b.getInt(), b.getInt(), b.getLong());
    }

    /** An RDMA Read Request header (RFC 5040 §4.4). */
    public record ReadRequest(int sinkStag, long sinkTo, int size, int sourceStag, long sourceTo) {}

    /** The Terminate this segment carries (RFC 5040 §4.8), or null if it is none. */
    public Terminate terminate() {
        return isTerminate() ? Terminate.parse(payload()) : null;
    }

    public String describe() {
        if (!complete) {
            return String.format("a %d-octet segment, shorter than its %s DDP header", octets.length,
                    tagged ? "14-octet tagged" : "18-octet untagged");
        }
        String common = String.format("%s opcode 0x%x%s, DV %d, RV %d, %s, %d payload octets",
                tagged ? "tagged" : "untagged", opcode, opcodeName(opcode), ddpVersion, rdmapVersion,
                last ? "L=1" : "L=0", octets.length - headerLength());
        return tagged ? String.format("%s, STag 0x%08x, TO 0x%x", common, stag, to)
                : String.format("%s, QN %d, MSN %d, MO %d", common, Integer.toUnsignedLong(qn),
                Integer.toUnsignedLong(msn), Integer.toUnsignedLong(mo));
    }

    static String opcodeName(int opcode) {
        return switch (opcode) {
            case Segment.WRITE -> " (RDMA Write)";
            case Segment.READ_REQUEST -> " (RDMA Read Request)";
            case Segment.READ_RESPONSE -> " (RDMA Read Response)";
            case Segment.SEND -> " (Send)";
            case Segment.SEND_INVALIDATE -> " (Send with Invalidate)";
            case Segment.SEND_SE -> " (Send with Solicited Event)";
            case Segment.SEND_SE_INVALIDATE -> " (Send with SE and Invalidate)";
            case Segment.TERMINATE -> " (Terminate)";
            case Segment.IMMEDIATE_DATA -> " (Immediate Data)";
            case Segment.IMMEDIATE_DATA_SE -> " (Immediate Data with SE)";
            case Segment.ATOMIC_REQUEST -> " (Atomic Request)";
            case Segment.ATOMIC_RESPONSE -> " (Atomic Response)";
            default -> " (not assigned)";
        };
    }

    /**
     * A Terminate's body: its control word read both ways — as RFC 5040 §4.8 lays it out, and bit-mirrored as
     * Linux siw writes it on little-endian hosts (octet 0 = EType&lt;&lt;4 | Layer, flags M/D/R in 0x01/0x02/0x04
     * of octet 2) — and what follows it (DDP Segment Length, copied DDP header, copied Read Request header),
     * read with the flags of the {@link Layout layout} asked for.
     */
    public record Terminate(byte[] body) {

        /** How a Terminate control word is laid out. */
        public enum Layout { RFC, MIRRORED }

        /** One reading of the control word and what follows it. */
        public record Reading(Layout layout, int layer, int etype, int code, boolean m, boolean d, boolean r,
                              int reservedBits, int segmentLength, byte[] ddpHeader, byte[] rdmaHeader,
                              int trailing, boolean truncated) {

            /** "L/E/C" as IANA writes it, e.g. {@code 0x1/0x1/0x00}. */
            public String cause() {
                return String.format("0x%x/0x%x/0x%02x", layer, etype, code);
            }

            public boolean is(int l, int e, int c) {
                return layer == l && etype == e && code == c;
            }

            public String flags() {
                return (m ? "M" : "-") + (d ? "D" : "-") + (r ? "R" : "-");
            }
        }

        static Terminate parse(byte[] body) {
            return new Terminate(body.clone());
        }

        private int octet(int i) {
            return i < body.length ? body[i] & 0xFF : 0;
        }

        public Reading reading(Layout layout) {
            int o0 = octet(0);
            int o2 = octet(2);
            int o3 = octet(3);
            int layer;
            int etype;
            boolean m;
            boolean d;
            boolean r;
            int reserved;
            if (layout == Layout.RFC) {
                layer = o0 >> 4;
                etype = o0 & 0xF;
                m = (o2 & 0x80) != 0;
                d = (o2 & 0x40) != 0;
                r = (o2 & 0x20) != 0;
                reserved = (o2 & 0x1F) << 8 | o3;
            } else {
                layer = o0 & 0xF;
                etype = o0 >> 4;
                m = (o2 & 0x01) != 0;
                d = (o2 & 0x02) != 0;
                r = (o2 & 0x04) != 0;
                reserved = (o2 & 0xF8) << 8 | o3;
            }
            int at = 4;
            int segmentLength = -1;
            byte[] ddp = null;
            byte[] rdma = null;
            boolean truncated = body.length < 4;
            if (d) {
                if (body.length >= at + 2) {
                    segmentLength = octet(at) << 8 | octet(at + 1);
                    at += 2;
                    boolean taggedCopy = body.length > at && (body[at] & 0x80) != 0;
                    int len = taggedCopy ? Segment.TAGGED_HEADER : Segment.UNTAGGED_HEADER;
                    if (body.length >= at + len) {
                        ddp = Arrays.copyOfRange(body, at, at + len);
                        at += len;
                    } else {
                        truncated = true;
                    }
                } else {
                    truncated = true;
                }
            }
            if (r && !truncated) {
                if (body.length >= at + Segment.READ_REQUEST_HEADER) {
                    rdma = Arrays.copyOfRange(body, at, at + Segment.READ_REQUEST_HEADER);
                    at += Segment.READ_REQUEST_HEADER;
                } else {
                    truncated = true;
                }
            }
            return new Reading(layout, layer, etype, code(), m, d, r, reserved, segmentLength, ddp, rdma,
                    Math.max(0, body.length - at), truncated);
        }

        public int code() {
            return octet(1);
        }

        /**
         * The layout the flag bits point to: flags only in 0xE0 of octet 2 → RFC, only in 0x07 → mirrored;
         * null when no flag is set in either (then both readings fit and only the context decides).
         */
        public Layout evidentLayout() {
            int o2 = octet(2);
            if ((o2 & 0xE0) != 0 && (o2 & 0x1F) == 0) {
                return Layout.RFC;
            }
            if ((o2 & 0x07) != 0 && (o2 & 0xF8) == 0) {
                return Layout.MIRRORED;
            }
            return null;
        }
    }
}
