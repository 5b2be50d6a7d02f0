package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.UntaggedBuffer;

/**
 * An untagged buffer RDMAP posts to DDP (QN 0 receive wrappers, QN 1/2/3 control slots), which also
 * remembers the DDP header and length of the L=1 segment that filled it. DDP delivers a message
 * without its header; when the message later turns out to be erroneous (an invalid Read Request source,
 * a Send with Invalidate naming a foreign STag) the Terminate must copy that header exactly as received
 * (RFC 5040 §4.8, Fig 10), so it is captured at admission time.
 */
abstract class PostedSlot implements UntaggedBuffer {

    /** The MSN DDP assigned when this slot was posted (RFC 5041 §4.3). */
    int msn;
    private final byte[] ddpHeader = new byte[UntaggedHeaderFlyweight.HEADER_LENGTH];
    private int segmentLength = -1;

    /** Copies the DDP header of {@code segment} (at its reader index) and its length. */
    final void captureHeader(ByteBuf segment) {
        segment.getBytes(segment.readerIndex(), ddpHeader);
        segmentLength = segment.readableBytes();
    }

    /** The captured header (a copy), or {@code null} if none was captured. */
    final byte[] capturedHeader() {
        return segmentLength < 0 ? null : ddpHeader.clone();
    }

    /** The captured segment (ULPDU) length, or 0 if none was captured. */
    final int capturedSegmentLength() {
        return Math.max(segmentLength, 0);
    }

    final void clearCapture() {
        segmentLength = -1;
    }
}
