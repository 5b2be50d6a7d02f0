package org.iwarp4j.ddp.memory;

import io.netty.buffer.ByteBuf;

/**
 * A posted untagged buffer (RFC 5041 §3, §4.3): the anonymous buffer that receives the untagged message
 * with a given (QN, MSN). Posted with {@link org.iwarp4j.ddp.receive.DdpReceiver#post(int, UntaggedBuffer)};
 * the n-th buffer posted on a queue receives the message with the n-th MSN of that queue (MSN 1 first).
 *
 * <p>Implemented above DDP: for QN 0 by the verbs layer (a receive work request, i.e. a scatter/gather list
 * over registered memory, placing at a message offset into the right element); for QN 1, 2 and 3 by RDMAP
 * (slots for inbound Read/Atomic Requests, the one Terminate, Atomic Responses) — usually a
 * {@link ByteBufUntaggedBuffer} just large enough for the RDMAP header.
 *
 * <p>DDP calls {@link #place} only after every RFC 5041 §7.1 check passed, so
 * {@code messageOffset + length <= capacity()} always holds; a message may be placed in several pieces
 * (one per segment) and — on an out-of-order lower layer — more than once (RFC 5041 §5.3).
 */
public interface UntaggedBuffer {

    /** How many octets this buffer can take (the legal Message Offsets are 0…capacity). */
    int capacity();

    /**
     * Copies {@code length} octets of {@code source}, starting at {@code sourceIndex}, into this buffer at
     * {@code messageOffset}. Must not modify or release {@code source} or move its indexes.
     */
    void place(int messageOffset, ByteBuf source, int sourceIndex, int length);
}
