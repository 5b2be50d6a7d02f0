package org.iwarp4j.verbs;

/** What a completion completed ({@code enum ibv_wc_opcode}). */
public enum CompletionOpcode {
    /** A Send or Send with Solicited Event. */
    SEND,
    /** A Send with Invalidate (with or without Solicited Event). */
    SEND_WITH_INVALIDATE,
    /** An RDMA Write. */
    RDMA_WRITE,
    /** An RDMA Write with Immediate (RFC 7306 §6). */
    RDMA_WRITE_WITH_IMMEDIATE,
    /** An RDMA Read. */
    RDMA_READ,
    /** An Immediate Data message (RFC 7306 §6). */
    IMMEDIATE_DATA,
    /** A FetchAdd (RFC 7306 §5.1.1). */
    ATOMIC_FETCH_ADD,
    /** A CmpSwap (RFC 7306 §5.1.2). */
    ATOMIC_CMP_SWAP,
    /** A local invalidate of a region or window. */
    LOCAL_INVALIDATE,
    /** A fast registration. */
    FAST_REGISTER,
    /** A memory window bind ({@code IBV_WC_BIND_MW}). */
    BIND_MEMORY_WINDOW,
    /** A receive filled by a Send variant. */
    RECV,
    /** A receive consumed by an Immediate Data message (RFC 7306 §6, also "RDMA Write with Immediate"). */
    RECV_WITH_IMMEDIATE;

    /**
     * Whether this is a receive completion.
     *
     * @return true for {@link #RECV} and {@link #RECV_WITH_IMMEDIATE}
     */
    public boolean isReceive() {
        return this == RECV || this == RECV_WITH_IMMEDIATE;
    }
}
