package org.iwarp4j.ddp.send;

import io.netty.buffer.ByteBuf;

/**
 * The lower layer (LLP) as the DDP sender sees it (RFC 5041 §3): it reports the current MULPDU and takes
 * complete DDP segments. Implemented by the MPA adapter in the verbs module, which frames each segment as
 * one FPDU (ULPDU = header followed by payload).
 */
public interface LlpSegmentWriter {

    /**
     * The current Maximum ULPDU: the largest DDP segment (header + payload) the lower layer accepts now
     * (RFC 5041 §3 item 1). Read once per segment, so a change applies from the next segment on; segments
     * already written are never re-segmented (RFC 5041 §3 item 2).
     */
    int mulpdu();

    /**
     * Takes one DDP segment: {@code header} followed by {@code payload} (either may hold the other's
     * octets; only their concatenation counts, and its length never exceeds {@link #mulpdu()}). The
     * lower layer takes ownership of both buffers and releases them when written (or on failure); it
     * should write them without copying (e.g. MPA: gathered write of length, header, payload, pad, CRC).
     */
    void writeSegment(ByteBuf header, ByteBuf payload);

    /**
     * {@link #writeSegment(ByteBuf, ByteBuf)} with the payload lent: {@code length} octets of {@code source} from
     * absolute {@code index}, which the lower layer reads during this call only; it neither keeps {@code source}
     * nor releases it (the header is taken as by the two-argument form). The sender lends payloads of at most
     * {@link #lendLimit()} octets. By default a retained slice of them is written.
     */
    default void writeSegment(ByteBuf header, ByteBuf source, int index, int length) {
        writeSegment(header, source.retainedSlice(index, length));
    }

    /** Writes a whole segment (header, then payload) where {@link #writeSegmentInPlace} asks for it. */
    @FunctionalInterface
    interface SegmentContent {
        /**
         * Writes the segment's octets at {@code index} of {@code buffer} with its absolute {@code set} methods,
         * leaving the buffer's indexes as they are.
         */
        void writeSegment(ByteBuf buffer, int index);
    }

    /**
     * Takes one DDP segment of {@code length} octets (header and payload, at most {@link #mulpdu()}) that
     * {@code content} writes, during this call, straight into a buffer of the lower layer's, where it would have
     * copied the segment anyway (MPA: the buffer its small FPDUs are gathered in): the sender then needs no buffer
     * for it. Returns false, having called nothing, when the lower layer cannot take this segment so now; the
     * sender then uses {@link #writeSegment(ByteBuf, ByteBuf)}. If {@code content} throws, nothing was written.
     * False by default.
     */
    default boolean writeSegmentInPlace(int length, SegmentContent content) {
        return false;
    }

    /**
     * The longest payload the sender should lend ({@link #writeSegment(ByteBuf, ByteBuf, int, int)}) rather than
     * slice: one the lower layer copies anyway (MPA copies small FPDUs beside each other), so that a slice made
     * for it would be an object per segment for nothing. 0 by default: none.
     */
    default int lendLimit() {
        return 0;
    }

    /**
     * Octets the lower layer may write in front of each header buffer (its own framing, e.g. MPA's
     * ULPDU_Length): the sender allocates every header buffer with this many octets before its reader index,
     * which belong to the lower layer. 0 by default.
     */
    default int headroom() {
        return 0;
    }

    /**
     * Octets the lower layer may append behind a header buffer that carries a whole segment (e.g. MPA's PAD
     * and CRC): the sender allocates every header buffer with this many writable octets behind its writer
     * index, which belong to the lower layer. 0 by default.
     */
    default int tailroom() {
        return 0;
    }
}
