package org.iwarp4j.verbs;

/** What a completion completed ({@code enum ibv_wc_opcode}). */
public enum CompletionOpcode {
    SEND,
    SEND_WITH_INVALIDATE,
    RDMA_WRITE,
    RDMA_WRITE_WITH_IMMEDIATE,
    RDMA_READ,
    IMMEDIATE_DATA,
    ATOMIC_FETCH_ADD,
    ATOMIC_CMP_SWAP,
    LOCAL_INVALIDATE,
    FAST_REGISTER,
    /** A receive filled by a Send variant. */
    RECV,
    /** A receive consumed by an Immediate Data message (RFC 7306 §6, also "RDMA Write with Immediate"). */
    RECV_WITH_IMMEDIATE;

    public boolean isReceive() {
        return this == RECV || this == RECV_WITH_IMMEDIATE;
    }
}
