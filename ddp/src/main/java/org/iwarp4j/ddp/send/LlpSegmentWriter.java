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
