package org.iwarp4j.rdmap.stream;

/**
 * What a completed send-queue operation was, as reported in
 * {@link RdmapListener#onSendComplete}. One value per {@link RdmapOperation} flavour.
 */
public enum OperationType {
    RDMA_WRITE,
    RDMA_READ,
    SEND,
    SEND_WITH_INVALIDATE,
    SEND_WITH_SE,
    SEND_WITH_SE_AND_INVALIDATE,
    IMMEDIATE_DATA,
    IMMEDIATE_DATA_WITH_SE,
    /** RDMA Write followed by Immediate Data (RFC 7306 §6): one operation, one completion. */
    RDMA_WRITE_WITH_IMMEDIATE,
    ATOMIC_FETCH_ADD,
    ATOMIC_COMPARE_SWAP;

    /** Operations that occupy an ORD slot until their response arrives (RFC 5040 §6.1, RFC 7306 §5.2). */
    public boolean awaitsResponse() {
        return this == RDMA_READ || this == ATOMIC_FETCH_ADD || this == ATOMIC_COMPARE_SWAP;
    }

    public boolean isAtomic() {
        return this == ATOMIC_FETCH_ADD || this == ATOMIC_COMPARE_SWAP;
    }

    /** RFC 7306 operations, refused when the stream runs plain RFC 5040. */
    public boolean isRfc7306() {
        return this == IMMEDIATE_DATA || this == IMMEDIATE_DATA_WITH_SE || this == RDMA_WRITE_WITH_IMMEDIATE
                || this == ATOMIC_FETCH_ADD || this == ATOMIC_COMPARE_SWAP;
    }
}
