package org.iwarp4j.rdmap.stream;

import org.iwarp4j.ddp.send.OutboundMessage;

/**
 * A producer of outbound RDMA messages for the {@link Transmitter}: the send queue ({@link Requester})
 * or the response queue ({@link Responder}). Messages are written one segment at a time and never
 * interleaved with another message of the same source.
 */
interface TransmitSource {

    /** A message of this source has segments on the wire and more to write. */
    boolean hasMessageInProgress();

    /** A segment can be written now (a message in progress, or one that may start). */
    boolean canWrite();

    /** Writes exactly one segment (or fails the stream). Only called when {@link #canWrite()}. */
    void writeSegment();

    /** The message in progress, or {@code null}. */
    OutboundMessage inProgressMessage();

    /** Forgets the message in progress: the transmitter finishes or abandons it. */
    void detachInProgress();
}
