package org.iwarp4j.ddp.send;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.header.DdpControl;

/**
 * One DDP message being segmented (RFC 5041 §5.2), created by {@link DdpSender#tagged} or
 * {@link DdpSender#untagged}. Each {@link #writeNextSegment()} hands exactly one segment to the lower
 * layer:
 *
 * <ul>
 *   <li>header + payload ≤ the MULPDU the lower layer reports at that moment;</li>
 *   <li>L = 1 on the last segment only; a zero-length message is exactly one segment (L = 1, no payload);</li>
 *   <li>tagged: every segment carries the same STag and TO = start TO + offset of its payload in the message;</li>
 *   <li>untagged: every segment carries the same QN and MSN and MO = offset of its payload in the message;</li>
 *   <li>RsvdULP is the same on every segment; Rsvd = 0, DV = 1.</li>
 * </ul>
 *
 * <p>Zero-copy: a segment's payload is a retained slice of the message, or lent to the lower layer when it
 * copies payloads of that length anyway ({@link LlpSegmentWriter#lendLimit()}); its header is a small buffer from
 * the sender's allocator. Payload pieces of at most {@link #INLINE_PAYLOAD_LIMIT} octets (an RDMAP Read
 * Request, Terminate, Atomic or Immediate Data header, a small message) are copied into the header buffer
 * instead, so such segments take one small buffer and no slice (a derived buffer is a heap object each). A segment
 * whose payload is inline or lent is first offered to the lower layer to be written in place
 * ({@link LlpSegmentWriter#writeSegmentInPlace}: MPA writes it straight into the buffer it gathers small FPDUs in),
 * which takes no buffer of ours at all.
 */
public final class OutboundMessage {

    /** Payload pieces up to this many octets are copied next to the header instead of sliced. */
    public static final int INLINE_PAYLOAD_LIMIT = 512;

    private final DdpSender sender;
    private boolean tagged;
    private int rsvdUlp;
    private int stag;
    private long startTo;
    private int qn;
    private int rsvdUlpWord;
    private int length;
    private ByteBuf message;
    /** Index in {@link #message} of the message's first octet. */
    private int start;
    private int msn;
    private int sent;
    private int segments;
    private boolean started;
    private boolean done;
    /** The octets of the segment being written, made by the first one (null while one is being written). */
    private SegmentOctets segmentOctets;

    OutboundMessage(DdpSender sender, boolean tagged, int rsvdUlp, int stag, long startTo, int qn,
                    int rsvdUlpWord, ByteBuf message, int start, int length) {
        this.sender = sender;
        init(tagged, rsvdUlp, stag, startTo, qn, rsvdUlpWord, message, start, length);
    }

    /**
     * Makes this (new or done) object the message described, from its first segment: {@code length} octets of
     * {@code message} from absolute index {@code start}.
     */
    void init(boolean tagged, int rsvdUlp, int stag, long startTo, int qn, int rsvdUlpWord, ByteBuf message, int start,
              int length) {
        this.tagged = tagged;
        this.rsvdUlp = rsvdUlp;
        this.stag = stag;
        this.startTo = startTo;
        this.qn = qn;
        this.rsvdUlpWord = rsvdUlpWord;
        this.message = message;
        this.start = start;
        this.length = length;
        this.msn = 0;
        this.sent = 0;
        this.segments = 0;
        this.started = false;
        this.done = false;
    }

    /** Whether {@link DdpSender} may make this object its next message: the same sender's, and done. */
    boolean reusableBy(DdpSender s) {
        return sender == s && done;
    }

    public boolean isTagged() {
        return tagged;
    }

    public int queueNumber() {
        return qn;
    }

    /** The MSN of an untagged message; assigned when its first segment is written (0 before, and for tagged). */
    public int msn() {
        return msn;
    }

    /** The message length (octets of DDP payload). */
    public int length() {
        return length;
    }

    /** Payload octets already handed to the lower layer. */
    public int sentOctets() {
        return sent;
    }

    /** Segments already handed to the lower layer. */
    public int segmentsWritten() {
        return segments;
    }

    /** True once the first segment was written. */
    public boolean isStarted() {
        return started;
    }

    /** True once the last segment was written or the message was abandoned. */
    public boolean isDone() {
        return done;
    }

    /**
     * Writes the next segment to the lower layer.
     *
     * @return true if more segments remain
     * @throws IllegalStateException if the message is done, the sender is shut down, another message of the
     *                               same model is partly written, or the MULPDU cannot hold a header
     */
    public boolean writeNextSegment() {
        if (done) {
            throw new IllegalStateException("message already done: " + this);
        }
        int headerLength = DdpSender.headerLength(tagged);
        LlpSegmentWriter llp = sender.llp();
        int mulpdu = llp.mulpdu();
        if (mulpdu <= headerLength && length > 0) {
            throw new IllegalStateException("MULPDU " + mulpdu + " leaves no room for payload after the "
                    + headerLength + "-octet header");
        }
        if (mulpdu < headerLength) {
            throw new IllegalStateException("MULPDU " + mulpdu + " is smaller than the " + headerLength
                    + "-octet header");
        }
        if (!started) {
            msn = sender.begin(this);
            started = true;
        } else {
            sender.checkOpen();
        }
        // RFC 5041 §5.2: header + payload ≤ MULPDU.
        int chunk = Math.min(length - sent, mulpdu - headerLength);
        boolean last = sent + chunk == length; // RFC 5041 §4.1: L = 1 only on the last segment
        boolean inline = chunk <= INLINE_PAYLOAD_LIMIT;
        if (inline || chunk <= llp.lendLimit()) {
            writeCopied(headerLength, chunk, last, inline);
            return !last;
        }
        int headroom = llp.headroom();
        ByteBuf header = sender.allocator().buffer(headroom + headerLength + llp.tailroom());
        ByteBuf payload;
        SegmentOctets octets = fix(headerLength, chunk, last);
        try {
            header.setIndex(headroom, headroom + headerLength); // the octets around it are the LLP's
            octets.writeHeader(header, headroom);
            payload = message.retainedSlice(start + sent, chunk);
        } catch (RuntimeException | Error e) {
            header.release();
            throw e;
        } finally {
            segmentOctets = octets;
        }
        sent += chunk;
        segments++;
        if (last) {
            finish();
        }
        llp.writeSegment(header, payload);
        return !last;
    }

    /**
     * A segment whose payload is copied, by us or by the lower layer: written by the lower layer straight into its
     * own buffer when it can ({@link LlpSegmentWriter#writeSegmentInPlace}); else an {@code inline} payload is copied
     * behind the header into one small buffer (one buffer, no slice: a derived buffer is a heap object each) and a
     * longer one is lent. The segment's header is fixed before the lower layer is called, and the message is
     * finished first, with its memory held until the call returns: whatever the lower layer does meanwhile (a failed
     * write may abandon the stream's messages, and a Terminate may then recycle this one), the octets written are
     * this segment's.
     */
    private void writeCopied(int headerLength, int chunk, boolean last, boolean inline) {
        SegmentOctets content = fix(headerLength, chunk, last);
        int from = content.from;
        ByteBuf source = message.retain();     // finish() lets the message go: its octets must outlive the call
        content.source = source;
        try {
            sent += chunk;
            segments++;
            if (last) {
                finish();
            }
            LlpSegmentWriter llp = sender.llp();
            if (llp.writeSegmentInPlace(headerLength + chunk, content)) {
                return;
            }
            int headroom = llp.headroom();
            int copied = inline ? chunk : 0;
            ByteBuf header = sender.allocator().buffer(headroom + headerLength + copied + llp.tailroom());
            try {
                content.writeHeader(header, headroom);
                if (inline) {
                    content.writePayload(header, headroom);
                }
                header.setIndex(headroom, headroom + headerLength + copied); // the octets around it are the LLP's
            } catch (RuntimeException | Error e) {
                header.release();
                throw e;
            }
            if (inline) {
                llp.writeSegment(header, Unpooled.EMPTY_BUFFER);
            } else {
                llp.writeSegment(header, source, from, chunk);
            }
        } finally {
            content.source = null;
            segmentOctets = content;
            source.release();
        }
    }

    /**
     * The next segment's header fields and payload range, fixed in this message's {@link SegmentOctets} (taken
     * until the caller gives it back to {@link #segmentOctets}; a reentrant write of this object, recycled for a
     * Terminate meanwhile, makes its own).
     */
    private SegmentOctets fix(int headerLength, int chunk, boolean last) {
        SegmentOctets octets = segmentOctets;
        segmentOctets = null;
        if (octets == null) {
            octets = new SegmentOctets();
        }
        octets.from = start + sent;
        octets.payloadLength = chunk;
        octets.headerLength = headerLength;
        octets.tagged = tagged;
        octets.control = DdpControl.encode(tagged, last); // RFC 5041 §4.1: L = 1 only on the last segment
        octets.rsvdUlp = rsvdUlp;
        octets.stag = stag;
        octets.taggedOffset = startTo + sent; // RFC 5041 §5.2: TO = start TO + offset of the payload
        octets.qn = qn;
        octets.rsvdUlpWord = rsvdUlpWord;
        octets.msn = msn;
        octets.messageOffset = sent;          // RFC 5041 §5.2: MO = offset of the payload in the message
        return octets;
    }

    /**
     * The octets of one segment: its header, fixed before the segment goes to the lower layer, and its payload's
     * range (read from {@link #source} when copied).
     */
    private final class SegmentOctets implements LlpSegmentWriter.SegmentContent {
        ByteBuf source;
        int from;
        int payloadLength;
        int headerLength;
        boolean tagged;
        int control;
        int rsvdUlp;
        int stag;
        long taggedOffset;
        int qn;
        int rsvdUlpWord;
        int msn;
        int messageOffset;

        @Override
        public void writeSegment(ByteBuf buffer, int index) {
            writeHeader(buffer, index);
            writePayload(buffer, index);
        }

        /** The header at {@code index}. */
        void writeHeader(ByteBuf buffer, int index) {
            if (tagged) {
                sender.taggedHeader().wrap(buffer, index).control(control).rsvdUlp(rsvdUlp).stag(stag)
                        .taggedOffset(taggedOffset);
            } else {
                sender.untaggedHeader().wrap(buffer, index).control(control).rsvdUlp(rsvdUlp)
                        .rsvdUlpWord(rsvdUlpWord).queueNumber(qn).messageSequenceNumber(msn)
                        .messageOffset(messageOffset);
            }
        }

        /** The payload behind the header at {@code index}. */
        void writePayload(ByteBuf buffer, int index) {
            // a direct source copies by address (the buffer's setBytes would ask it for a ByteBuffer view)
            source.getBytes(from, buffer, index + headerLength, payloadLength);
        }
    }

    /** Writes every remaining segment. */
    public void writeAll() {
        while (writeNextSegment()) {
            // one segment per iteration
        }
    }

    /**
     * Ends the message without writing the rest (e.g. RDMAP is about to send a Terminate) and releases it.
     * A partly written message stays incomplete at the peer. No effect once done.
     */
    public void abandon() {
        if (!done) {
            finish();
        }
    }

    private void finish() {
        done = true;
        ByteBuf m = message;
        message = null;
        m.release();
        if (started) {
            sender.end(this);
        }
    }

    @Override
    public String toString() {
        return tagged
                ? String.format("OutboundMessage[tagged stag=0x%08x to=0x%016x length=%d sent=%d]", stag, startTo,
                        length, sent)
                : String.format("OutboundMessage[untagged qn=%d msn=%s length=%d sent=%d]", qn,
                        started ? Integer.toUnsignedString(msn) : "-", length, sent);
    }
}
