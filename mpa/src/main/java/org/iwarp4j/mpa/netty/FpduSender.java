package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;

/**
 * The allocation-free send path of the FPDU encoder, for the layer above (DDP): a ULPDU given as a
 * header and a payload, framed into one FPDU and written as one gathered write (the parts are written
 * to the channel without a flush in between; RFC 5044 §5.1, and what Linux siw expects: one FPDU per gathered
 * write). No {@code CompositeByteBuf} is built and the payload is never copied.
 *
 * <p>Obtain it from {@link MpaEstablishedEvent#sender()}. Call it on the channel's event loop (calls
 * from other threads are handed over to the loop, which costs an allocation).
 */
public interface FpduSender {

    /**
     * Frames and writes one ULPDU = {@code header || payload}. Takes ownership of both buffers on
     * every path. Does not flush.
     *
     * <p>The octets of {@code header} in front of its reader index and behind its writer index (up to its
     * capacity) are the sender's to frame in: a header with {@link #headroom()} octets in front, and for a
     * ULPDU without payload {@link #tailroom()} octets behind, goes out as one buffer with ULPDU_Length, PAD
     * and CRC written around it (nothing allocated, one part in the gathered write).
     *
     * @param payload may be {@code null}
     * @param promise completed when the whole FPDU was written; failed with
     *                {@link IllegalArgumentException} when the ULPDU exceeds {@link #mulpdu()} (RFC 5044 §3)
     */
    void send(ByteBuf header, ByteBuf payload, ChannelPromise promise);

    /**
     * {@link #send(ByteBuf, ByteBuf, ChannelPromise)} with the payload lent: {@code length} octets of
     * {@code source} from absolute {@code index}, read during this call only ({@code source} is neither kept nor
     * released; the header is taken as by {@code send}). A sender that copies small FPDUs copies a lent payload
     * straight from {@code source}, where a payload buffer would have been a slice made for it; otherwise it takes
     * a retained slice. Worth it for payloads up to {@link #lendLimit()}. By default: a retained slice.
     */
    default void send(ByteBuf header, ByteBuf source, int index, int length, ChannelPromise promise) {
        send(header, length == 0 ? null : source.retainedSlice(index, length), promise);
    }

    /** The longest payload worth lending ({@link #send(ByteBuf, ByteBuf, int, int, ChannelPromise)}); 0: none. */
    default int lendLimit() {
        return 0;
    }

    /** Writes a ULPDU's octets where {@link #sendInPlace} asks for them. */
    @FunctionalInterface
    interface UlpduContent {
        /**
         * Writes the whole ULPDU at {@code index} of {@code buffer} with its absolute {@code set} methods, leaving the
         * buffer's indexes as they are.
         */
        void writeUlpdu(ByteBuf buffer, int index);
    }

    /**
     * Frames and writes (with a void promise, without flushing) one ULPDU of {@code length} octets that {@code content}
     * writes straight into the sender's own buffer, where the sender copies small FPDUs anyway: the layer above then
     * needs no buffer of its own for it. Returns false, having called nothing, when the sender cannot take this ULPDU
     * so (not on the event loop, FPDUs held or not gathered, a marker inside the ULPDU, too long to gather): then use
     * {@link #send}. If {@code content} throws, nothing was sent. False by default.
     */
    default boolean sendInPlace(int length, UlpduContent content) {
        return false;
    }

    /** Flushes what was sent. */
    void flush();

    /** MULPDU: the largest ULPDU {@link #send} accepts (RFC 5044 §4.5). */
    int mulpdu();

    /** Octets in front of a header that framing in place uses (ULPDU_Length, a leading marker). */
    default int headroom() {
        return 0;
    }

    /** Octets behind a header without payload that framing in place uses (PAD, a marker, the CRC). */
    default int tailroom() {
        return 0;
    }
}
