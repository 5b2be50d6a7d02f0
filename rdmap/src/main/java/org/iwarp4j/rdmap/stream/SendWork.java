package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.send.OutboundMessage;

/**
 * One send-queue entry: a submitted {@link RdmapOperation} (or the internal RTR) and its progress.
 * Entries live in a ring, each made the first time the queue reaches its slot and recycled from then on, so
 * submitting allocates nothing here once the queue has been that deep.
 */
final class SendWork {

    RdmapOperation operation;
    /** Non-null for the internal RFC 6581 RTR message (never reported as a completion). */
    RtrType rtr;
    /**
     * The internal zero-length RDMA Write sent after Full Operation ({@link RdmapStream#sendZeroLengthWrite()}):
     * built like the Write RTR, never reported, and not an RTR.
     */
    boolean zeroLengthWrite;
    OperationType type;
    long workRequestId;
    boolean fence;
    /** Data not yet handed to DDP (released by RDMAP if the entry is flushed before that). */
    ByteBuf data;
    long byteLength;

    // transmission
    /** RDMA Write with Immediate: 0 = the Write, 1 = the Immediate Data. */
    int phase;
    OutboundMessage message;
    /**
     * The entry's last message once done, handed back to DDP for the entry's next message (kept across
     * {@link #reset()}: the ring's entries are reused, so after one round no message is allocated).
     */
    OutboundMessage spare;
    boolean transmitted;
    /**
     * Sequence number of the last segment of this entry's last message (see {@link RdmapStream#segmentsProduced()}).
     */
    long lastSegment;
    /** QN and MSN of this entry's untagged request message, to recognise it in a peer's Terminate; QN -1 if none. */
    int requestQueue;
    int requestMsn;

    // responses (Read / Atomic / Read RTR)
    boolean awaitsResponse;
    boolean responseDone;
    int sinkStag;
    long sinkTaggedOffset;
    long expectedTaggedOffset;
    long remaining;
    int atomicRequestId;
    long atomicOriginalValue;

    /** A status other than SUCCESS/FLUSHED that the stream attributed to this entry. */
    OperationStatus failure;

    void reset() {
        operation = null;
        rtr = null;
        zeroLengthWrite = false;
        type = null;
        workRequestId = 0;
        fence = false;
        data = null;
        byteLength = 0;
        phase = 0;
        message = null;
        transmitted = false;
        lastSegment = 0;
        requestQueue = -1;
        requestMsn = 0;
        awaitsResponse = false;
        responseDone = false;
        sinkStag = 0;
        sinkTaggedOffset = 0;
        expectedTaggedOffset = 0;
        remaining = 0;
        atomicRequestId = 0;
        atomicOriginalValue = 0;
        failure = null;
    }

    boolean isRead() {
        return type == OperationType.RDMA_READ || rtr == RtrType.READ;
    }

    boolean isAtomic() {
        return type == OperationType.ATOMIC_FETCH_ADD || type == OperationType.ATOMIC_COMPARE_SWAP;
    }

    boolean isWrite() {
        return type == OperationType.RDMA_WRITE || type == OperationType.RDMA_WRITE_WITH_IMMEDIATE;
    }

    /** The sink STag of an RDMA Write (with or without Immediate), else 0. */
    int sinkStagOf() {
        if (operation instanceof RdmapOperation.RdmaWrite w) {
            return w.sinkStag();
        }
        return operation instanceof RdmapOperation.RdmaWriteWithImmediate w ? w.sinkStag() : 0;
    }

    /** The first sink TO of an RDMA Write (with or without Immediate), else 0. */
    long sinkToOf() {
        if (operation instanceof RdmapOperation.RdmaWrite w) {
            return w.sinkTaggedOffset();
        }
        return operation instanceof RdmapOperation.RdmaWriteWithImmediate w ? w.sinkTaggedOffset() : 0;
    }

    /** Complete: handed to DDP, acknowledged by the lower layer, and (Read/Atomic) answered. */
    boolean isComplete(long segmentsAcknowledged) {
        return transmitted && segmentsAcknowledged >= lastSegment && (!awaitsResponse || responseDone);
    }
}
