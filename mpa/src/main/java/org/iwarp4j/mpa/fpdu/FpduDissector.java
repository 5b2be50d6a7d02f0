package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.mpa.MpaError;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Decodes a byte stream of one half connection into detailed {@link DissectedFpdu} records, for
 * tools ({@code iwarp explain}) and tests. Same framing rules as {@link FpduReader} (both use
 * {@link FpduLayout}), but it never throws for bad input and, unlike the reader, continues after a
 * CRC or marker error (the FPDU boundary is still given by ULPDU_Length, RFC 5044 §6), so a whole
 * capture can be explained. It stops at a ULPDU_Length above the limit or at input that ends inside
 * an FPDU.
 *
 * @param crcEnabled     whether CRCs were negotiated (when off, {@code crcValid} is {@code null})
 * @param markersEnabled whether the sender of this half connection inserts markers
 * @param streamOffset   stream offset from SeqStart of the first input octet (must be 4-aligned)
 * @param ulpduLimit     largest ULPDU_Length accepted (default {@value #DEFAULT_LIMIT})
 */
public record FpduDissector(boolean crcEnabled, boolean markersEnabled, int streamOffset, int ulpduLimit) {

    /** Accept any ULPDU_Length the 16-bit field can hold. */
    public static final int DEFAULT_LIMIT = FpduLayout.MAX_ULPDU_LENGTH_FIELD;

    public FpduDissector {
        if ((streamOffset & 3) != 0) {
            throw new IllegalArgumentException("FPDUs start 4-aligned relative to SeqStart: " + streamOffset);
        }
        if (ulpduLimit < 0 || ulpduLimit > FpduLayout.MAX_ULPDU_LENGTH_FIELD) {
            throw new IllegalArgumentException("ULPDU limit must be 0..65535: " + ulpduLimit);
        }
    }

    /** Dissector with the default limit (65535). */
    public FpduDissector(boolean crcEnabled, boolean markersEnabled, int streamOffset) {
        this(crcEnabled, markersEnabled, streamOffset, DEFAULT_LIMIT);
    }

    /** Dissects {@code bytes}. */
    public FpduDissection dissect(byte[] bytes) {
        return dissect(Unpooled.wrappedBuffer(bytes));
    }

    /** Dissects the readable octets of {@code in} (not consumed, not released). */
    public FpduDissection dissect(ByteBuf in) {
        List<DissectedFpdu> out = new ArrayList<>();
        Cursor cursor = cursor(in);
        for (DissectedFpdu f = cursor.next(); f != null; f = cursor.next()) {
            out.add(f);
        }
        return new FpduDissection(out, cursor.consumed(), cursor.error());
    }

    /**
     * Dissects the readable octets of {@code in} (not consumed, not released) one FPDU at a time, as the caller
     * asks for them: nothing is kept of an FPDU once it is handed out, so a stream of any length is dissected in
     * the memory of one FPDU. {@code in} must stay unchanged while the cursor is used.
     */
    public Cursor cursor(ByteBuf in) {
        return new Cursor(in);
    }

    /** The FPDUs of one input, one at a time: {@link #dissect(ByteBuf)} without the list. */
    public final class Cursor {

        private final ByteBuf in;
        private final ByteBuf crcIn;
        private final int base;
        private final int length;
        private int pos;
        private int off;
        private DissectionError error;
        private boolean done;

        private Cursor(ByteBuf in) {
            this.in = in;
            // A read-only view of a heap buffer has no array; its CRC is read from the buffer it views (same
            // indices), not through a ByteBuffer that CRC32C copies in chunks.
            ByteBuf viewed = in.unwrap();
            this.crcIn = !in.hasArray() && in.isReadOnly() && viewed != null && viewed.hasArray() ? viewed : in;
            this.base = in.readerIndex();
            this.length = in.readableBytes();
            this.off = streamOffset;
        }

        /** The next complete FPDU (one with a CRC or marker error included), or {@code null} at the end. */
        public DissectedFpdu next() {
            if (done || pos >= length) {
                done = true;
                return null;
            }
            int start = base + pos;
            int hdr = FpduLayout.headerPosition(off, markersEnabled);
            if (length - pos < hdr + FpduLayout.LENGTH_FIELD) {
                return stop(truncated(pos, off, length - pos, -1));
            }
            int ulpduLength = in.getUnsignedShort(start + hdr);
            if (ulpduLength > ulpduLimit) {
                return stop(new DissectionError(MpaError.CRC_ERROR, pos, Integer.toUnsignedLong(off),
                        "ULPDU_Length " + ulpduLength + " exceeds the limit of " + ulpduLimit
                                + " octets: the FPDU cannot be valid"));
            }
            int wire = FpduLayout.wireLength(off, ulpduLength, markersEnabled);
            if (length - pos < wire) {
                return stop(truncated(pos, off, length - pos, wire));
            }
            DissectedFpdu f = dissectOne(in, crcIn, start, pos, off, hdr, ulpduLength, wire);
            pos += wire;
            off += wire;
            return f;
        }

        /** Octets of the input covered by the FPDUs handed out so far. */
        public int consumed() {
            return pos;
        }

        /**
         * {@code null}, or the error that stopped dissection (as {@link FpduDissection#error()}); known once
         * {@link #next()} returned {@code null}.
         */
        public DissectionError error() {
            return error;
        }

        private DissectedFpdu stop(DissectionError e) {
            error = e;
            done = true;
            return null;
        }
    }

    private DissectedFpdu dissectOne(ByteBuf in, ByteBuf crcIn, int start, int pos, int off, int hdr, int ulpduLength,
                                     int wire) {
        long crcField = in.getUnsignedIntLE(start + wire - Crc32c.LENGTH);
        long computed = Crc32c.compute(crcIn, start, FpduLayout.crcCoveredLength(wire));
        List<DissectedMarker> markers = new ArrayList<>();
        if (markersEnabled) {
            if (hdr != 0) {
                markers.add(marker(in, start, 0, 0));
            }
            int inner = FpduLayout.innerMarkerCount(off, ulpduLength);
            for (int k = 0; k < inner; k++) {
                markers.add(marker(in, start, FpduLayout.innerMarkerPosition(off, k),
                        FpduLayout.innerMarkerFpduptr(off, k) & 0xFFFF));
            }
        }
        // ULPDU without markers: copy the content run by run, skipping every marker position.
        byte[] ulpdu = new byte[ulpduLength];
        int contentIndex = 0;
        int p = hdr;
        int contentEnd = FpduLayout.LENGTH_FIELD + ulpduLength;
        int nextMarker = markersEnabled ? hdr + FpduLayout.firstInnerMarkerIndex(off) : Integer.MAX_VALUE;
        while (contentIndex < contentEnd) {
            if (p == nextMarker) {
                p += FpduLayout.MARKER_LENGTH;
                nextMarker += FpduLayout.MARKER_INTERVAL;
                continue;
            }
            int run = Math.min(contentEnd - contentIndex, nextMarker - p);
            int lengthField = Math.max(0, Math.min(run, FpduLayout.LENGTH_FIELD - contentIndex));
            if (run > lengthField) {
                in.getBytes(start + p + lengthField, ulpdu, contentIndex + lengthField - FpduLayout.LENGTH_FIELD,
                        run - lengthField);
            }
            contentIndex += run;
            p += run;
        }
        Boolean crcValid = crcEnabled ? computed == crcField : null;
        DissectionError error = null;
        long so = Integer.toUnsignedLong(off);
        if (Boolean.FALSE.equals(crcValid)) {
            error = new DissectionError(MpaError.CRC_ERROR, pos, so,
                    "CRC field 0x" + HexFormat.of().toHexDigits((int) crcField) + ", computed 0x"
                            + HexFormat.of().toHexDigits((int) computed));
        } else {
            for (DissectedMarker m : markers) {
                if (!m.valid()) {
                    error = new DissectionError(MpaError.MARKER_MISMATCH, pos + m.fpduOffset(), so,
                            "marker at FPDU offset " + m.fpduOffset() + " has FPDUPTR " + m.fpduptr()
                                    + ", expected " + m.expectedFpduptr());
                    break;
                }
            }
        }
        return DissectedFpdu.owning(pos, so, wire, ulpduLength, FpduLayout.padLength(ulpduLength), crcField, computed,
                crcValid, markers, ulpdu, error);
    }

    private static DissectedMarker marker(ByteBuf in, int start, int position, int expected) {
        return new DissectedMarker(position, in.getUnsignedShort(start + position + FpduLayout.FPDUPTR_OFFSET),
                in.getUnsignedShort(start + position), expected);
    }

    private static DissectionError truncated(int pos, int off, int have, int need) {
        return new DissectionError(MpaError.TCP_CONNECTION_LOST, pos, Integer.toUnsignedLong(off),
                "input ends inside an FPDU: " + have + " octets present"
                        + (need < 0 ? ", ULPDU_Length not yet complete" : " of " + need));
    }
}
