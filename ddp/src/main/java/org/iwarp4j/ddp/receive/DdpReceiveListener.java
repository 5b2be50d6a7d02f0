package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.UntaggedBuffer;

/**
 * What DDP tells the ULP (RDMAP) about received segments, in the style of Netty's
 * {@code Http2FrameListener}: one typed call per event, header fields as primitives, no per-segment
 * objects. All calls happen on the stream's event loop, synchronously inside
 * {@link DdpReceiver#receive(io.netty.buffer.ByteBuf)}.
 *
 * <h2>Order of calls for one segment</h2>
 * <ol>
 *   <li>DDP checks that the segment holds a complete header and that DV = 1 (else
 *       {@link #onSegmentRejected}).</li>
 *   <li>Untagged only: DDP checks the QN (RFC 5041 §7.1 check 1, else {@link #onSegmentRejected}).</li>
 *   <li>{@link #admitTaggedSegment} / {@link #admitUntaggedSegment}: the ULP validates what is its to
 *       validate (RDMAP: RV, opcode, opcode vs T flag and QN, its own header in the payload) <em>before
 *       anything is placed</em>, and for a tagged segment says which access right the region needs.
 *       Returning REJECT drops the segment unplaced and stops the stream's placement; the ULP reports
 *       its own error.</li>
 *   <li>DDP runs the remaining RFC 5041 §7.1 checks; on failure {@link #onSegmentRejected} and the
 *       segment's target memory is not touched.</li>
 *   <li>DDP places the payload (one copy, from the segment into the target memory), then calls
 *       {@link #onTaggedSegmentPlaced} / {@link #onUntaggedSegmentPlaced}.</li>
 *   <li>If the segment completes a message (L = 1): {@link #onTaggedMessageDelivered} at once;
 *       {@link #onUntaggedMessageDelivered} for it and every later complete message of its queue, in MSN
 *       order, once all earlier messages of that queue are delivered (RFC 5041 §5.3, §5.4).</li>
 * </ol>
 *
 * <p>After the first rejection (by DDP or by the ULP) no method is called again: later segments are
 * dropped silently (RFC 5041 §7.1). The ULP may still send — typically one Terminate.
 *
 * <p>An exception thrown by a callback propagates out of {@code receive} (after the segment is released);
 * it is a bug in the ULP, not a protocol error.
 */
public interface DdpReceiveListener {

    /**
     * A tagged segment passed DDP's header checks and nothing has been placed yet.
     *
     * @param rsvdUlp       header octet 1 (RDMAP control field), unsigned
     * @param stag          the STag (unsigned 32 bits)
     * @param to            the Tagged Offset of the first payload octet (unsigned 64 bits)
     * @param payloadLength octets after the 14-octet header
     * @param last          the L flag
     * @param segment       the whole segment, DDP header at its reader index; borrowed for the duration of
     *                      the call: read with absolute gets, do not release, retain or move its indexes
     * @return the access right the target region must grant, or {@link TaggedAdmission#REJECT}
     */
    TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                       ByteBuf segment);

    /**
     * An untagged segment passed DDP's header and QN checks and nothing has been placed yet. The ULP's own
     * header (e.g. an RDMAP Read Request) is in {@code segment} at
     * {@code readerIndex() + UntaggedHeaderFlyweight.HEADER_LENGTH}.
     *
     * @param rsvdUlp       header octet 1 (RDMAP control field), unsigned
     * @param rsvdUlpWord   header octets 2–5 (RDMAP Invalidate STag)
     * @param qn            the Queue Number (already known valid)
     * @param msn           the Message Sequence Number (unsigned 32 bits), not yet checked
     * @param mo            the Message Offset (unsigned 32 bits), not yet checked
     * @param payloadLength octets after the 18-octet header
     * @param last          the L flag
     * @param segment       the whole segment, borrowed as for {@link #admitTaggedSegment}
     */
    UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                           int payloadLength, boolean last, ByteBuf segment);

    /** A tagged segment was placed ({@code payloadLength} may be 0; then nothing was checked or written). */
    default void onTaggedSegmentPlaced(int rsvdUlp, int stag, long to, int payloadLength, boolean last) {}

    /**
     * A tagged message is complete: its L = 1 segment was placed (RFC 5041 §5.4). For RDMAP: the end of an
     * RDMA Write (not delivered to its ULP, RFC 5040 §5.1) or of a Read Response (completes the Read).
     *
     * @param rsvdUlp       octet 1 of the last segment
     * @param stag          the STag of the last segment
     * @param firstTo       the TO of the message's first segment, i.e. the first tagged segment received
     *                      after the previous tagged L = 1 segment (tagged messages do not interleave on
     *                      one stream; RFC 5041 §5.3, and Linux siw drops a connection that interleaves them)
     * @param messageLength the payload octets of all segments of the message
     */
    void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength);

    /** An untagged segment was placed into the buffer of (qn, msn) at message offset {@code mo}. */
    default void onUntaggedSegmentPlaced(int qn, int msn, int mo, int payloadLength, boolean last) {}

    /**
     * An untagged message is delivered (RFC 5041 §5.4): its buffer is consumed and handed back to the ULP.
     *
     * @param qn            the queue
     * @param msn           its Message Sequence Number
     * @param rsvdUlp       octet 1 of its last segment (RDMAP control field)
     * @param rsvdUlpWord   octets 2–5 of its last segment (RDMAP Invalidate STag)
     * @param messageLength MO + payload length of the L = 1 segment (RFC 5041 §5.4)
     * @param buffer        the posted buffer that now holds the message; DDP forgets it
     */
    void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                    UntaggedBuffer buffer);

    /**
     * DDP rejected a segment (RFC 5041 §7.1): nothing of it was placed, and the stream places nothing
     * more. The exception carries what the Terminate needs (layer 1, EType, code, the offending DDP
     * header as received, the segment length).
     */
    void onSegmentRejected(DdpException error);

    /**
     * The lower layer reported a fatal error (RFC 5041 §7: LLP errors SHOULD be passed up to the ULP);
     * DDP has stopped placement. Reported through {@link DdpReceiver#lowerLayerFailed(Throwable)}.
     */
    default void onLowerLayerFailure(Throwable cause) {}
}
