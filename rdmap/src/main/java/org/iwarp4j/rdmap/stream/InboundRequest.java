package org.iwarp4j.rdmap.stream;

import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.rdmap.wire.AtomicOpcode;

/**
 * An inbound Read or Atomic Request waiting for (or being served by) its response: an entry of the
 * responder's inbound request queue. Holds the QN 1 slot it arrived in, which is re-posted only when
 * the response has been written — so at most IRD requests are ever accepted (RFC 5040 §6.1).
 */
final class InboundRequest {

    ControlSlot slot;
    int msn;
    boolean atomic;

    // Read Request (RFC 5040 §4.4)
    int sinkStag;
    long sinkTaggedOffset;
    long size;
    int sourceStag;
    long sourceTaggedOffset;
    /** The validated source region; {@code null} for a zero-size Read (nothing is validated, RFC 5040 §5.2.1). */
    TaggedBuffer source;

    // Atomic Request (RFC 7306 §5.2.1)
    AtomicOpcode atomicOpcode;
    int requestId;
    int remoteStag;
    long remoteTaggedOffset;
    long addOrSwapData;
    long addOrSwapMask;
    long compareData;
    long compareMask;
    TaggedBuffer target;

    void reset() {
        slot = null;
        source = null;
        target = null;
        atomicOpcode = null;
        atomic = false;
    }
}
