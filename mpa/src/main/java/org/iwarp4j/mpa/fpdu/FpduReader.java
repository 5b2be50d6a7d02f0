package org.iwarp4j.mpa.fpdu;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;

import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * The receive side of FPDU framing for one half connection, as a pure state machine over
 * {@link ByteBuf} (RFC 5044 §4, §5.2, §6). No Netty channel code: {@code FpduDecoder} adapts it.
 *
 * <p>{@link #read} locates the next FPDU from ULPDU_Length (RFC 5044 §6: receivers delimit FPDUs by
 * length, markers are only a cross-check), checks ULPDU_Length against the receive limit before
 * waiting for the rest (a bogus length fails at once, it never makes the reader wait for 64 KiB),
 * waits until the whole FPDU is present (§6: passed up only when complete and verified), verifies the
 * CRC when CRCs are on, checks every marker's FPDUPTR (low two bits ignored, §4.2) and returns the
 * ULPDU with ULPDU_Length, markers, PAD and CRC removed (§4.3: DDP gets the ULPDU only).
 *
 * <p>After an error the reader is <em>failed</em>: RFC 5044 §8 forbids delivering any further FPDU
 * of that half connection, so every later {@link #read} throws {@link IllegalStateException}.
 *
 * <p><b>Error for an over-long ULPDU_Length.</b> RFC 5044 names no code for a ULPDU_Length above
 * what the receiver accepts (a conforming sender never exceeds 64768, §3). The reader reports
 * {@link MpaError#CRC_ERROR} (0x02): the FPDU cannot be validated, a corrupted length field is by far
 * the most likely cause, and a CRC check over the octets the bogus length claims would fail anyway;
 * it also yields the Terminate a peer expects for a damaged FPDU (0x2/0x0/0x02). 0x03 would claim a
 * marker disagreement that was never observed, and 0x01/0x04 describe other conditions.
 */
public final class FpduReader {

    /**
     * ULPDUs up to this many octets (without markers inside) are returned as a pooled copy, longer ones as a
     * retained slice of the input (zero-copy, one derived buffer per FPDU).
     */
    public static final int COPY_LIMIT = 512;

    private final boolean crcEnabled;
    private final boolean markersEnabled;
    private final int ulpduLimit;
    private final CRC32C crc = new CRC32C();
    private final byte[] crcScratch = new byte[Crc32c.SCRATCH_LENGTH];
    private int streamOffset;
    private long fpdusRead;
    private boolean failed;

    // Details of the last FPDU read, for the frame log (no allocation).
    private int lastUlpduLength;
    private int lastWireLength;
    private long lastCrcField;
    private int lastMarkerCount;

    /** Largest ULPDU of a CRC-failed FPDU that is copied into the exception (a Terminate needs at most 70). */
    static final int UNVERIFIED_ULPDU_LIMIT = 256;

    /**
     * @param crcEnabled     whether CRCs were negotiated (RFC 5044 §4.4); when off the CRC field is not checked
     * @param markersEnabled whether the peer inserts markers into this half connection
     * @param ulpduLimit     largest ULPDU_Length accepted (0…65535)
     * @param streamOffset   stream offset (from SeqStart, mod 2^32) of the first octet the reader will see
     */
    public FpduReader(boolean crcEnabled, boolean markersEnabled, int ulpduLimit, int streamOffset) {
        if (ulpduLimit < 0 || ulpduLimit > FpduLayout.MAX_ULPDU_LENGTH_FIELD) {
            throw new IllegalArgumentException("ULPDU limit must be 0..65535: " + ulpduLimit);
        }
        if ((streamOffset & 3) != 0) {
            throw new IllegalArgumentException("FPDUs start 4-aligned relative to SeqStart: " + streamOffset);
        }
        this.crcEnabled = crcEnabled;
        this.markersEnabled = markersEnabled;
        this.ulpduLimit = ulpduLimit;
        this.streamOffset = streamOffset;
    }

    /**
     * Reads one FPDU starting at {@code in.readerIndex()}.
     *
     * @return the ULPDU (a retained slice of {@code in}, or a composite of retained slices when a
     *         marker falls inside it; the caller owns and releases it), with {@code in}'s reader index
     *         moved past the FPDU; or {@code null} when the FPDU is not complete yet ({@code in} untouched)
     * @throws MpaException  0x02 (CRC mismatch, or ULPDU_Length above the limit) or 0x03 (marker
     *                       mismatch); the reader is then failed and {@code in} untouched
     * @throws IllegalStateException if called after a failure
     */
    public ByteBuf read(ByteBuf in, ByteBufAllocator alloc) {
        return read(in, alloc, false);
    }

    /**
     * {@link #read(ByteBuf, ByteBufAllocator)}, except that a ULPDU no marker falls inside is lent rather than
     * sliced or copied: the result is {@code in} itself, retained once, with its reader and writer index around
     * the ULPDU. The borrower reads it during one call and releases it, as it would a slice; then the caller
     * moves {@code in}'s reader index past the FPDU ({@code start + }{@link #lastWireLength()}) and puts back its
     * writer index. A ULPDU split by markers comes as {@link #read(ByteBuf, ByteBufAllocator)} returns it, never
     * {@code in}. No object per FPDU: a slice is one (the adaptive allocator does not recycle them), a copy costs
     * a pass over the ULPDU.
     */
    public ByteBuf lend(ByteBuf in, ByteBufAllocator alloc) {
        return read(in, alloc, true);
    }

    private ByteBuf read(ByteBuf in, ByteBufAllocator alloc, boolean lend) {
        if (failed) {
            throw new IllegalStateException("FPDU reader failed earlier: no FPDU may be delivered (RFC 5044 §8)");
        }
        int start = in.readerIndex();
        int off = streamOffset;
        int hdr = FpduLayout.headerPosition(off, markersEnabled);
        int wire = nextFrameLength(in);
        if (wire == 0) {
            throw fail(MpaError.CRC_ERROR, "ULPDU_Length " + in.getUnsignedShort(start + hdr) + " exceeds the receive "
                    + "limit of " + ulpduLimit + " octets: the FPDU cannot be valid");
        }
        if (in.readableBytes() < wire) {
            return null; // the length field or the rest of the FPDU is still to come
        }
        int ulpduLength = in.getUnsignedShort(start + hdr);
        long crcField = in.getUnsignedIntLE(start + wire - Crc32c.LENGTH);
        if (crcEnabled) {
            crc.reset();
            Crc32c.update(crc, in, start, FpduLayout.crcCoveredLength(wire), crcScratch);
            long computed = crc.getValue();
            if (computed != crcField) {
                MpaException.UnverifiedFpdu unverified = null;
                if (!markersEnabled && ulpduLength <= UNVERIFIED_ULPDU_LIMIT) {
                    byte[] ulpdu = new byte[ulpduLength];
                    in.getBytes(start + FpduLayout.LENGTH_FIELD, ulpdu);
                    unverified = new MpaException.UnverifiedFpdu(ulpdu, crcField);
                }
                // Concatenated, not String.format: a peer can make us build this once per connection.
                HexFormat hex = HexFormat.of();
                throw fail(MpaError.CRC_ERROR, "CRC field 0x" + hex.toHexDigits((int) crcField) + ", computed 0x"
                        + hex.toHexDigits((int) computed) + " over " + FpduLayout.crcCoveredLength(wire)
                        + " octets (ULPDU_Length " + ulpduLength + ")", unverified);
            }
        }
        int inner = 0;
        if (markersEnabled) {
            if (hdr != 0) {
                checkMarker(in, start, 0, 0);
            }
            inner = FpduLayout.innerMarkerCount(off, ulpduLength);
            for (int k = 0; k < inner; k++) {
                checkMarker(in, start, FpduLayout.innerMarkerPosition(off, k), FpduLayout.innerMarkerFpduptr(off, k));
            }
        }
        ByteBuf ulpdu = extractUlpdu(in, start, off, hdr, ulpduLength, inner, alloc, lend);
        if (ulpdu != in) {
            in.readerIndex(start + wire);
        }
        streamOffset = off + wire;
        fpdusRead++;
        lastUlpduLength = ulpduLength;
        lastWireLength = wire;
        lastCrcField = crcField;
        lastMarkerCount = inner + (hdr != 0 ? 1 : 0);
        return ulpdu;
    }

    private void checkMarker(ByteBuf in, int start, int position, int expectedFpduptr) {
        int fpduptr = in.getUnsignedShort(start + position + FpduLayout.FPDUPTR_OFFSET);
        // RFC 5044 §4.2: low two bits treated as 0; RESERVED ignored. FPDUPTR is 16 bits on the wire.
        if ((fpduptr & FpduLayout.FPDUPTR_MASK) != (expectedFpduptr & 0xFFFF)) {
            throw fail(MpaError.MARKER_MISMATCH, "marker at FPDU offset " + position + " has FPDUPTR "
                    + fpduptr + ", but ULPDU_Length places the FPDU start " + expectedFpduptr + " octets back");
        }
    }

    private static ByteBuf extractUlpdu(ByteBuf in, int start, int off, int hdr, int ulpduLength, int inner,
                                        ByteBufAllocator alloc, boolean lend) {
        int ulpduEnd = FpduLayout.LENGTH_FIELD + ulpduLength; // content index just past the ULPDU
        int splitting = 0;
        int first = FpduLayout.firstInnerMarkerIndex(off);
        // count markers whose content index lies strictly inside the ULPDU
        for (int k = 0; k < inner; k++) {
            if (first + k * FpduLayout.CONTENT_PER_MARKER < ulpduEnd) {
                splitting++;
            }
        }
        int dataStart = start + hdr + FpduLayout.LENGTH_FIELD;
        if (splitting == 0) {
            if (lend) {
                return in.retain().setIndex(dataStart, dataStart + ulpduLength);
            }
            if (ulpduLength <= COPY_LIMIT) {
                // A small ULPDU is copied into a pooled buffer: a derived buffer is a heap object per FPDU
                // (the adaptive allocator recycles its buffers, not their slices), and the copy lets the
                // read's buffer (or the decoder's carry) go at once instead of waiting for the last slice of it.
                ByteBuf copy = alloc.directBuffer(ulpduLength);
                in.getBytes(dataStart, copy, 0, ulpduLength);
                copy.writerIndex(ulpduLength);
                return copy;
            }
            return in.retainedSlice(dataStart, ulpduLength);
        }
        // The runs between markers become components that reference {@code in} itself (retained once per
        // component) rather than slices of it: a composite records each component's index and length when it
        // is added, so moving in's indexes over each run in turn saves one derived buffer per marker (an
        // allocation per marker with the adaptive allocator, and a leak-tracked object when in is sampled).
        CompositeByteBuf composite = alloc.compositeBuffer(splitting + 1);
        int savedReader = in.readerIndex();
        int savedWriter = in.writerIndex();
        try {
            int from = FpduLayout.LENGTH_FIELD; // content index
            for (int k = 0; k < splitting; k++) {
                int at = first + k * FpduLayout.CONTENT_PER_MARKER;
                addRun(composite, in, start + hdr + from + k * FpduLayout.MARKER_LENGTH, at - from);
                from = at;
            }
            addRun(composite, in, start + hdr + from + splitting * FpduLayout.MARKER_LENGTH, ulpduEnd - from);
            return composite;
        } catch (RuntimeException e) {
            composite.release();
            throw e;
        } finally {
            in.setIndex(savedReader, savedWriter);
        }
    }

    /**
     * How many octets, from {@code in}'s reader index, the next FPDU occupies on the wire: its whole length
     * once its ULPDU_Length field is in {@code in}, else the octets up to the end of that field (call again
     * with more). Zero when the field announces more than the limit: {@link #read} then reports that error
     * on whatever it is given. Never more than {@link #maxFpduWireLength()}, so a caller may buffer this much.
     */
    public int nextFrameLength(ByteBuf in) {
        int hdr = FpduLayout.headerPosition(streamOffset, markersEnabled);
        if (in.readableBytes() < hdr + FpduLayout.LENGTH_FIELD) {
            return hdr + FpduLayout.LENGTH_FIELD;
        }
        int ulpduLength = in.getUnsignedShort(in.readerIndex() + hdr);
        if (ulpduLength > ulpduLimit) {
            return 0;
        }
        return FpduLayout.wireLength(streamOffset, ulpduLength, markersEnabled);
    }

    /** Adds {@code length} octets of {@code in} at {@code index} as one component holding one reference. */
    private static void addRun(CompositeByteBuf composite, ByteBuf in, int index, int length) {
        in.setIndex(index, index + length);
        composite.addComponent(true, in.retain()); // on failure the composite releases that reference
    }

    private MpaException fail(MpaError error, String message) {
        return fail(error, message, null);
    }

    /** Marks the reader failed; {@code unverified} is the FPDU that failed its CRC check, or null. */
    private MpaException fail(MpaError error, String message, MpaException.UnverifiedFpdu unverified) {
        failed = true;
        return new MpaException(error, message, Integer.toUnsignedLong(streamOffset), unverified);
    }

    /** Stream offset (from SeqStart, mod 2^32) of the next octet the reader expects. */
    public int streamOffset() {
        return streamOffset;
    }

    /** FPDUs delivered so far. */
    public long fpdusRead() {
        return fpdusRead;
    }

    /** Whether an error was reported (nothing more will be delivered). */
    public boolean failed() {
        return failed;
    }

    public boolean crcEnabled() {
        return crcEnabled;
    }

    public boolean markersEnabled() {
        return markersEnabled;
    }

    public int ulpduLimit() {
        return ulpduLimit;
    }

    /** ULPDU_Length of the last FPDU read. */
    public int lastUlpduLength() {
        return lastUlpduLength;
    }

    /** Wire length of the last FPDU read. */
    public int lastWireLength() {
        return lastWireLength;
    }

    /** CRC field of the last FPDU read, as {@code CRC32C.getValue()} would give it. */
    public long lastCrcField() {
        return lastCrcField;
    }

    /** Markers (leading one included) of the last FPDU read. */
    public int lastMarkerCount() {
        return lastMarkerCount;
    }

    /** Most octets the reader ever needs buffered for one FPDU: the limit plus the MPA overhead. */
    public int maxFpduWireLength() {
        return FpduLayout.maxWireLength(ulpduLimit, markersEnabled);
    }
}
