package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.ReferenceCountUtil;

import java.util.zip.CRC32C;

/**
 * The send side of FPDU framing for one half connection, as a pure state machine over
 * {@link ByteBuf} (RFC 5044 §4): it turns a ULPDU into the parts of one FPDU without copying the
 * ULPDU. {@code FpduEncoder} adapts it to a Netty pipeline (one gathered write per FPDU).
 *
 * <p>The ULPDU is given as a header and an optional payload (for example a DDP header and the user's
 * data), so the caller never builds a {@code CompositeByteBuf}. The parts handed to the
 * {@link PartSink}, in wire order, are:
 * <ol>
 *   <li>a small buffer with the leading FPDUPTR-0 marker (when the FPDU starts on a 512 boundary)
 *       and ULPDU_Length;</li>
 *   <li>the header and payload themselves, or, when markers fall inside the ULPDU, retained slices
 *       of them with 4-octet marker buffers between them;</li>
 *   <li>a small buffer with PAD (zeros), a marker that falls between PAD and CRC, and the CRC (CRC32c
 *       of everything before it, least-significant octet first; zeros when CRCs are off, RFC 5044
 *       §4.1 — the field is always present).</li>
 * </ol>
 * All the small buffers are slices of one pooled allocation per FPDU. When the caller leaves room around
 * the header ({@link #write(ByteBuf, ByteBuf, ByteBufAllocator, PartSink, boolean)}, DDP does when MPA asks
 * for it), ULPDU_Length goes in front of the header and, without payload, PAD and CRC behind it: a small
 * FPDU is then one buffer. The octets are the same either way.
 */
public final class FpduWriter {

    /** Receives the parts of one FPDU in wire order; ownership of each part passes to the sink. */
    @FunctionalInterface
    public interface PartSink {
        /**
         * @param part the next octets of the FPDU (the sink must release it)
         * @param last whether this is the final part (the trailer with the CRC)
         */
        void part(ByteBuf part, boolean last);

        /**
         * A buffer for an FPDU's last part (PAD, a marker between PAD and CRC, the CRC) of at most {@code length}
         * octets, which the writer appends from its writer index and then hands to {@link #part} as the last part.
         * A sink that copies small parts anyway may return the buffer it copies them into (the octets then land
         * there directly and are not copied again); by default a new buffer.
         */
        default ByteBuf trailer(ByteBufAllocator alloc, int length) {
            return alloc.ioBuffer(length);
        }

        /**
         * The next octets of the FPDU, lent ({@link #writeLent}): {@code length} octets of {@code source} from
         * absolute {@code index}, which the sink copies during this call or takes a retained slice of; it neither
         * keeps {@code source} nor releases it. By default a retained slice goes to {@link #part}.
         */
        default void lentPart(ByteBuf source, int index, int length) {
            part(source.retainedSlice(index, length), false);
        }
    }

    private final boolean crcEnabled;
    private final boolean markersEnabled;
    private final int maxUlpduLength;
    private final CRC32C crc = new CRC32C();
    private final CrcFeed crcFeed = new CrcFeed();
    private int streamOffset;
    private long fpdusWritten;

    private int lastStreamOffset;
    private int lastUlpduLength;
    private int lastWireLength;
    private long lastCrc;
    private int lastMarkerCount;

    /**
     * @param crcEnabled     whether CRCs were negotiated (else the CRC field is sent as zeros)
     * @param markersEnabled whether the peer asked for markers in this half connection (RFC 5044 §7.1.1 M bit)
     * @param maxUlpduLength largest ULPDU accepted (the MULPDU reported to the user; at most 64768, RFC 5044 §3)
     * @param streamOffset   stream offset (from SeqStart) of the first octet this writer produces; normally 0
     */
    public FpduWriter(boolean crcEnabled, boolean markersEnabled, int maxUlpduLength, int streamOffset) {
        if (maxUlpduLength < 0 || maxUlpduLength > FpduLayout.MAX_ULPDU_LENGTH_FIELD) {
            throw new IllegalArgumentException("max ULPDU length must be 0..65535: " + maxUlpduLength);
        }
        if ((streamOffset & 3) != 0) {
            throw new IllegalArgumentException("FPDUs start 4-aligned relative to SeqStart: " + streamOffset);
        }
        this.crcEnabled = crcEnabled;
        this.markersEnabled = markersEnabled;
        this.maxUlpduLength = maxUlpduLength;
        this.streamOffset = streamOffset;
    }

    /**
     * Frames one ULPDU ({@code header} followed by {@code payload}) and hands its parts to {@code sink}.
     * Takes ownership of {@code header} and {@code payload} on every path.
     *
     * @param payload may be {@code null}
     * @throws IllegalArgumentException if the ULPDU is longer than the maximum (RFC 5044 §3, MPA-04);
     *                                  nothing was written and both buffers were released
     */
    public void write(ByteBuf header, ByteBuf payload, ByteBufAllocator alloc, PartSink sink) {
        write(header, payload, alloc, sink, false);
    }

    /**
     * {@link #write(ByteBuf, ByteBuf, ByteBufAllocator, PartSink)}, where with {@code headerRoom} the octets of
     * {@code header} before its reader index and after its writer index (up to its capacity) belong to the
     * framing: when no marker falls inside the ULPDU and the header (held once) has {@link #maxPrefixLength()}
     * octets in front, ULPDU_Length (and a leading marker) are written there; when there is no payload
     * either and {@link #maxTrailerLength()} octets behind, PAD and CRC too. A small ULPDU is then one buffer,
     * one part, with nothing allocated; the octets on the wire are the same.
     */
    public void write(ByteBuf header, ByteBuf payload, ByteBufAllocator alloc, PartSink sink, boolean headerRoom) {
        write(header, payload, null, 0, 0, alloc, sink, headerRoom);
    }

    /**
     * {@link #write(ByteBuf, ByteBuf, ByteBufAllocator, PartSink, boolean)} with header room and a lent payload:
     * {@code length} octets of {@code source} from absolute {@code index}, read during this call and never kept
     * or released (the header is taken as by {@code write}). When no marker falls inside the ULPDU the payload
     * goes to {@link PartSink#lentPart}, which copies it where the sink copies small FPDUs anyway: no slice, no
     * object per FPDU. Otherwise a retained slice of it is written as a payload would be.
     *
     * @throws IllegalArgumentException as {@code write}; the header was released, {@code source} is untouched
     */
    public void writeLent(ByteBuf header, ByteBuf source, int index, int length, ByteBufAllocator alloc,
                          PartSink sink) {
        write(header, null, source, index, length, alloc, sink, true);
    }

    private void write(ByteBuf header, ByteBuf payload, ByteBuf source, int index, int lent, ByteBufAllocator alloc,
                       PartSink sink, boolean headerRoom) {
        int hl = header.readableBytes();
        int pl = payload == null ? lent : payload.readableBytes();
        int ulpduLength = hl + pl;
        if (ulpduLength > maxUlpduLength) {
            ReferenceCountUtil.safeRelease(header);
            if (payload != null) {
                ReferenceCountUtil.safeRelease(payload);
            }
            throw new IllegalArgumentException("ULPDU of " + ulpduLength + " octets exceeds MULPDU "
                    + maxUlpduLength + " (RFC 5044 §3: DDP must not hand MPA a larger ULPDU)");
        }
        if (payload != null && pl == 0) {
            payload.release(); // an empty payload is no part of its own
            payload = null;
        }
        if (lent == 0) {
            source = null;
        }
        int off = streamOffset;
        int hdr = FpduLayout.headerPosition(off, markersEnabled);
        int inner = markersEnabled ? FpduLayout.innerMarkerCount(off, ulpduLength) : 0;
        int pad = FpduLayout.padLength(ulpduLength);
        int first = FpduLayout.firstInnerMarkerIndex(off);
        int splitting = splittingMarkers(off, ulpduLength, inner);
        int beforeCrc = inner - splitting; // 0 or 1: a marker between PAD and CRC
        int prefix = hdr + FpduLayout.LENGTH_FIELD;
        int trailer = pad + FpduLayout.MARKER_LENGTH * beforeCrc + Crc32c.LENGTH;
        crc.reset();
        if (headerRoom && splitting == 0 && header.readerIndex() >= prefix && header.refCnt() == 1) {
            writeInPlace(header, payload, source, index, lent, alloc, sink, off, hdr, ulpduLength, inner, pad,
                    trailer);
            return;
        }
        if (source != null) {
            payload = source.retainedSlice(index, lent); // framed around markers, or without header room: sliced
        }
        int overhead = prefix + FpduLayout.MARKER_LENGTH * splitting + trailer;
        ByteBuf ovh = alloc.ioBuffer(overhead);
        try {
            if (hdr != 0) {
                ovh.writeInt(0); // RFC 5044 §4.3: marker between FPDUs: RESERVED 0, FPDUPTR 0, covered by this CRC
            }
            ovh.writeShort(ulpduLength);
            crcUpdate(ovh, 0, prefix);
            sink.part(ovh.retainedSlice(0, prefix), false);
            if (splitting == 0) {
                crcUpdate(header, header.readerIndex(), hl);
                ByteBuf h = header;
                header = null;
                sink.part(h, false);
                if (payload != null) {
                    crcUpdate(payload, payload.readerIndex(), pl);
                    ByteBuf p = payload;
                    payload = null;
                    sink.part(p, false);
                }
            } else {
                int from = FpduLayout.LENGTH_FIELD;
                for (int k = 0; k < splitting; k++) {
                    int at = first + k * FpduLayout.CONTENT_PER_MARKER;
                    emitRange(header, hl, payload, from - FpduLayout.LENGTH_FIELD, at - FpduLayout.LENGTH_FIELD, sink);
                    int m = ovh.writerIndex();
                    ovh.writeShort(0).writeShort(FpduLayout.innerMarkerFpduptr(off, k));
                    crcUpdate(ovh, m, FpduLayout.MARKER_LENGTH);
                    sink.part(ovh.retainedSlice(m, FpduLayout.MARKER_LENGTH), false);
                    from = at;
                }
                emitRange(header, hl, payload, from - FpduLayout.LENGTH_FIELD, ulpduLength, sink);
            }
            ovh.readerIndex(ovh.writerIndex());
            ByteBuf t = ovh;
            ovh = null;
            finish(t, off, ulpduLength, inner, hdr, pad, beforeCrc, sink);
        } finally {
            releaseUnsent(ovh, header, payload);
        }
    }

    /**
     * The in-place framing of {@link #write(ByteBuf, ByteBuf, ByteBufAllocator, PartSink, boolean)}: no marker
     * splits the ULPDU, so every inner marker (at most one) falls between PAD and CRC.
     */
    private void writeInPlace(ByteBuf header, ByteBuf payload, ByteBuf source, int index, int lent,
                              ByteBufAllocator alloc, PartSink sink, int off, int hdr, int ulpduLength, int inner,
                              int pad, int trailer) {
        ByteBuf t = null;
        try {
            int start = header.readerIndex() - hdr - FpduLayout.LENGTH_FIELD;
            if (hdr != 0) {
                header.setInt(start, 0); // RFC 5044 §4.3: marker between FPDUs, FPDUPTR 0
            }
            header.setShort(start + hdr, ulpduLength);
            header.readerIndex(start);
            crcUpdate(header, start, header.readableBytes());
            if (payload == null && source == null && header.writableBytes() >= trailer) {
                t = header; // PAD, a marker after it and the CRC follow the ULPDU in the same buffer
                header = null;
            } else {
                ByteBuf h = header;
                header = null;
                sink.part(h, false);
                if (payload != null) {
                    crcUpdate(payload, payload.readerIndex(), payload.readableBytes());
                    ByteBuf p = payload;
                    payload = null;
                    sink.part(p, false);
                } else if (source != null) {
                    crcUpdate(source, index, lent);
                    sink.lentPart(source, index, lent);
                }
                t = sink.trailer(alloc, trailer);
            }
            ByteBuf last = t;
            t = null;
            finish(last, off, ulpduLength, inner, hdr, pad, inner, sink);
        } finally {
            releaseUnsent(t, header, payload);
        }
    }

    /** Releases what was not handed to the sink (null: handed over, or none) when framing failed. */
    private static void releaseUnsent(ByteBuf overhead, ByteBuf header, ByteBuf payload) {
        ReferenceCountUtil.release(overhead); // null-safe
        ReferenceCountUtil.release(header);
        ReferenceCountUtil.release(payload);
    }

    /**
     * The octets the next FPDU takes on the wire when its ULPDU of {@code ulpduLength} octets is framed in place
     * ({@link #frameInPlace}), or -1 when it cannot be: a marker would fall inside the ULPDU, or the ULPDU is longer
     * than the maximum (then {@link #write} reports it).
     */
    public int inPlaceWireLength(int ulpduLength) {
        if (ulpduLength < 0 || ulpduLength > maxUlpduLength) {
            return -1;
        }
        int off = streamOffset;
        if (markersEnabled
                && splittingMarkers(off, ulpduLength, FpduLayout.innerMarkerCount(off, ulpduLength)) != 0) {
            return -1;
        }
        return FpduLayout.wireLength(off, ulpduLength, markersEnabled);
    }

    /**
     * Where the next FPDU's ULPDU starts, counted from the FPDU's first octet: after a leading marker (when the
     * FPDU starts on a 512-octet boundary of the stream with markers on) and ULPDU_Length.
     */
    public int inPlacePrefixLength() {
        return FpduLayout.headerPosition(streamOffset, markersEnabled) + FpduLayout.LENGTH_FIELD;
    }

    /**
     * Frames the next FPDU around a ULPDU the caller already wrote into {@code out}: its {@code ulpduLength} octets
     * lie at {@code start + }{@link #inPlacePrefixLength()}. Writes the leading marker and ULPDU_Length in front of
     * them and PAD, a marker between PAD and CRC and the CRC behind them, and moves {@code out}'s writer index to the
     * FPDU's end ({@code start + }{@link #inPlaceWireLength}). The octets are those of {@link #write}; nothing is
     * allocated and no part is handed anywhere: the FPDU is written where it lies.
     *
     * @throws IllegalStateException when {@link #inPlaceWireLength} is -1 for this ULPDU (nothing written)
     */
    public void frameInPlace(ByteBuf out, int start, int ulpduLength) {
        int wire = inPlaceWireLength(ulpduLength);
        if (wire < 0) {
            throw new IllegalStateException("a ULPDU of " + ulpduLength + " octets at stream offset "
                    + Integer.toUnsignedString(streamOffset) + " cannot be framed in place");
        }
        int off = streamOffset;
        int hdr = FpduLayout.headerPosition(off, markersEnabled);
        int inner = markersEnabled ? FpduLayout.innerMarkerCount(off, ulpduLength) : 0;
        if (hdr != 0) {
            out.setInt(start, 0); // RFC 5044 §4.3: marker between FPDUs, FPDUPTR 0
        }
        out.setShort(start + hdr, ulpduLength);
        int end = start + hdr + FpduLayout.LENGTH_FIELD + ulpduLength;
        crc.reset();
        crcUpdate(out, start, end - start);
        out.writerIndex(end);
        trail(out, off, ulpduLength, inner, hdr, FpduLayout.padLength(ulpduLength), inner);
    }

    /**
     * Appends PAD, a marker that falls between PAD and CRC, and the CRC to {@code out} (from its writer index),
     * records the FPDU and hands {@code out} to the sink as the last part. What {@code out} holds before its
     * writer index is either the rest of this FPDU, which the CRC has already seen, or (a buffer of
     * {@link PartSink#trailer}) the sink's own. {@code pad}
     * and {@code beforeCrc} (0 or 1 markers between PAD and CRC) are the caller's, computed once per FPDU.
     */
    private void finish(ByteBuf out, int off, int ulpduLength, int inner, int hdr, int pad, int beforeCrc,
                        PartSink sink) {
        trail(out, off, ulpduLength, inner, hdr, pad, beforeCrc);
        sink.part(out, true);
    }

    /** {@link #finish} without the sink: the trailer written and the FPDU recorded. */
    private void trail(ByteBuf out, int off, int ulpduLength, int inner, int hdr, int pad, int beforeCrc) {
        int t = out.writerIndex();
        out.writeZero(pad); // RFC 5044 §4.1: PAD sent as zeros
        if (beforeCrc != 0) {
            // RFC 5044 §4.4: a marker right after the PAD belongs to this FPDU and its CRC.
            out.writeShort(0).writeShort(FpduLayout.innerMarkerFpduptr(off, inner - 1));
        }
        crcUpdate(out, t, out.writerIndex() - t);
        long value = crcEnabled ? crc.getValue() : 0;
        out.writeIntLE((int) value); // RFC 5044 §4.4: least-significant octet first
        int wire = FpduLayout.wireLength(off, ulpduLength, markersEnabled);
        lastStreamOffset = off;
        lastUlpduLength = ulpduLength;
        lastWireLength = wire;
        lastCrc = value;
        lastMarkerCount = inner + (hdr != 0 ? 1 : 0);
        streamOffset = off + wire;
        fpdusWritten++;
    }

    /** Inner markers that fall inside the ULPDU (the others, at most one, fall between PAD and CRC). */
    private static int splittingMarkers(int off, int ulpduLength, int inner) {
        int ulpduEnd = FpduLayout.LENGTH_FIELD + ulpduLength;
        int first = FpduLayout.firstInnerMarkerIndex(off);
        int splitting = 0;
        for (int k = 0; k < inner; k++) {
            if (first + k * FpduLayout.CONTENT_PER_MARKER < ulpduEnd) {
                splitting++;
            }
        }
        return splitting;
    }

    /** Most octets in front of a header that {@code write(..., true)} uses: a leading marker and ULPDU_Length. */
    public int maxPrefixLength() {
        return (markersEnabled ? FpduLayout.MARKER_LENGTH : 0) + FpduLayout.LENGTH_FIELD;
    }

    /** Most octets behind a header (without payload) that {@code write(..., true)} uses: PAD, a marker, the CRC. */
    public int maxTrailerLength() {
        return 3 + (markersEnabled ? FpduLayout.MARKER_LENGTH : 0) + Crc32c.LENGTH;
    }

    /** Emits ULPDU octets [a, b) as retained slices of header/payload. */
    private void emitRange(ByteBuf header, int hl, ByteBuf payload, int a, int b, PartSink sink) {
        if (a < hl) {
            int e = Math.min(b, hl);
            if (e > a) {
                int idx = header.readerIndex() + a;
                crcUpdate(header, idx, e - a);
                sink.part(header.retainedSlice(idx, e - a), false);
            }
        }
        if (b > hl && payload != null) {
            int s = Math.max(a, hl) - hl;
            int e = b - hl;
            if (e > s) {
                int idx = payload.readerIndex() + s;
                crcUpdate(payload, idx, e - s);
                sink.part(payload.retainedSlice(idx, e - s), false);
            }
        }
    }

    private void crcUpdate(ByteBuf buf, int index, int length) {
        if (crcEnabled) {
            crcFeed.update(crc, buf, index, length);
        }
    }

    /** Views of payload memory made for CRCs so far (tests). */
    long crcViewsMade() {
        return crcFeed.viewsMade();
    }

    /**
     * Frames one ULPDU into a single (composite) buffer holding the whole FPDU: for tests, tools and
     * the dissector. Takes ownership of {@code ulpdu}.
     */
    public ByteBuf encode(ByteBuf ulpdu, ByteBufAllocator alloc) {
        CompositeByteBuf out = alloc.compositeBuffer(Integer.MAX_VALUE);
        try {
            write(ulpdu, null, alloc, (part, last) -> out.addComponent(true, part));
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Stream offset (from SeqStart, mod 2^32) of the next FPDU. */
    public int streamOffset() {
        return streamOffset;
    }

    public long fpdusWritten() {
        return fpdusWritten;
    }

    public boolean crcEnabled() {
        return crcEnabled;
    }

    public boolean markersEnabled() {
        return markersEnabled;
    }

    /** Largest ULPDU accepted (the MULPDU). */
    public int maxUlpduLength() {
        return maxUlpduLength;
    }

    /** Stream offset of the last FPDU written. */
    public int lastStreamOffset() {
        return lastStreamOffset;
    }

    public int lastUlpduLength() {
        return lastUlpduLength;
    }

    public int lastWireLength() {
        return lastWireLength;
    }

    /** CRC value sent in the last FPDU (0 when CRCs are off). */
    public long lastCrc() {
        return lastCrc;
    }

    /** Markers (leading one included) of the last FPDU. */
    public int lastMarkerCount() {
        return lastMarkerCount;
    }
}
