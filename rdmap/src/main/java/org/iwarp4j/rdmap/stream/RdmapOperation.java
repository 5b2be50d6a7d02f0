package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;

/**
 * One operation submitted to an {@link RdmapStream}'s send queue ({@link RdmapStream#submit}). Each
 * becomes one RDMA message (two for {@link RdmaWriteWithImmediate}) sent in submission order
 * [RDMAP-20], and ends with exactly one {@link RdmapListener#onSendComplete} carrying
 * {@link #workRequestId()}, in submission order [RDMAP-22].
 *
 * <p>Operations that carry data take ownership of their {@link ByteBuf}: RDMAP releases it once the data
 * has been handed to the lower layer, or when the operation is flushed. The buffer is read in place
 * (retained slices), never copied; the caller must not change its contents until completion
 * (RFC 5040 §5.5: a buffer modified during an operation has undefined contents at the peer).
 *
 * <p>{@code fence}: the operation is not started before every earlier RDMA Read and Atomic operation
 * of this stream has completed (the verbs {@code IBV_SEND_FENCE} / iWARP "Read Fence").
 */
public sealed interface RdmapOperation permits RdmapOperation.RdmaWrite, RdmapOperation.RdmaRead,
        RdmapOperation.Send, RdmapOperation.ImmediateData, RdmapOperation.RdmaWriteWithImmediate,
        RdmapOperation.AtomicFetchAdd, RdmapOperation.AtomicCompareSwap {

    /** The caller's identity for this operation, echoed in its completion. */
    long workRequestId();

    boolean fence();

    OperationType type();

    /** The data an RDMA Write / Send carries (owned by RDMAP once submitted); {@code null} for the others. */
    default ByteBuf data() {
        return null;
    }

    /** RFC 5040 §5.1: write {@code data} to the peer's buffer {@code sinkStag} at {@code sinkTaggedOffset}. */
    record RdmaWrite(long workRequestId, int sinkStag, long sinkTaggedOffset, ByteBuf data, boolean fence)
            implements RdmapOperation {
        @Override
        public OperationType type() {
            return OperationType.RDMA_WRITE;
        }
    }

    /**
     * RFC 5040 §5.2: read {@code length} octets (0 … 2^32−1) of the peer's buffer {@code sourceStag} at
     * {@code sourceTaggedOffset} into the local buffer {@code sinkStag} at {@code sinkTaggedOffset} (which
     * must be registered with local-write access in this stream's {@link RdmapMemory}).
     */
    record RdmaRead(long workRequestId, int sinkStag, long sinkTaggedOffset, long length, int sourceStag,
                    long sourceTaggedOffset, boolean fence) implements RdmapOperation {
        @Override
        public OperationType type() {
            return OperationType.RDMA_READ;
        }
    }

    /**
     * RFC 5040 §5.3: Send, Send with SE, Send with Invalidate, Send with SE and Invalidate. The peer
     * must have a receive posted that is large enough (iWARP has no RNR).
     *
     * @param invalidate     whether this is a "with Invalidate" variant
     * @param invalidateStag the peer's STag to invalidate (only with {@code invalidate})
     */
    record Send(long workRequestId, ByteBuf data, boolean solicitedEvent, boolean invalidate, int invalidateStag,
                boolean fence) implements RdmapOperation {

        public static Send of(long workRequestId, ByteBuf data) {
            return new Send(workRequestId, data, false, false, 0, false);
        }

        public static Send withInvalidate(long workRequestId, ByteBuf data, int invalidateStag) {
            return new Send(workRequestId, data, false, true, invalidateStag, false);
        }

        @Override
        public OperationType type() {
            if (invalidate) {
                return solicitedEvent ? OperationType.SEND_WITH_SE_AND_INVALIDATE : OperationType.SEND_WITH_INVALIDATE;
            }
            return solicitedEvent ? OperationType.SEND_WITH_SE : OperationType.SEND;
        }
    }

    /** RFC 7306 §6: 8 octets delivered in the peer's next receive completion (consumes a receive). */
    record ImmediateData(long workRequestId, long immediateData, boolean solicitedEvent, boolean fence)
            implements RdmapOperation {
        @Override
        public OperationType type() {
            return solicitedEvent ? OperationType.IMMEDIATE_DATA_WITH_SE : OperationType.IMMEDIATE_DATA;
        }
    }

    /**
     * RFC 7306 §6: an RDMA Write immediately followed by an Immediate Data message; the peer's receive
     * completion for the Immediate Data guarantees the Write was placed (RFC 5040 §5.5, Write → Send).
     */
    record RdmaWriteWithImmediate(long workRequestId, int sinkStag, long sinkTaggedOffset, ByteBuf data,
                                  long immediateData, boolean solicitedEvent, boolean fence)
            implements RdmapOperation {
        @Override
        public OperationType type() {
            return OperationType.RDMA_WRITE_WITH_IMMEDIATE;
        }
    }

    /**
     * RFC 7306 §5.1.1: atomically add {@code addData} (masked by {@code addMask}, 0 = plain 64-bit add)
     * to the peer's 8-octet-aligned word at ({@code remoteStag}, {@code remoteTaggedOffset}); the
     * completion carries the original value.
     */
    record AtomicFetchAdd(long workRequestId, int remoteStag, long remoteTaggedOffset, long addData, long addMask,
                          boolean fence) implements RdmapOperation {
        @Override
        public OperationType type() {
            return OperationType.ATOMIC_FETCH_ADD;
        }
    }

    /**
     * RFC 7306 §5.1.2: if the peer's word equals {@code compareData} on the bits of {@code compareMask},
     * replace the bits of {@code swapMask} by {@code swapData} (all-ones masks = plain compare-and-swap);
     * the completion carries the original value.
     */
    record AtomicCompareSwap(long workRequestId, int remoteStag, long remoteTaggedOffset, long compareData,
                             long compareMask, long swapData, long swapMask, boolean fence)
            implements RdmapOperation {
        @Override
        public OperationType type() {
            return OperationType.ATOMIC_COMPARE_SWAP;
        }
    }
}
