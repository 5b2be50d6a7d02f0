package org.iwarp4j.verbs;

/** Flags of a send work request ({@code IBV_SEND_*}). */
public enum SendFlag {
    /**
     * Report a completion on success too ({@code IBV_SEND_SIGNALED}). Without it (and without
     * {@link QueuePairConfig#signalAll()}) a successful work request completes silently; a failed or
     * flushed one always produces a completion. The factories of {@link SendWorkRequest} set it.
     */
    SIGNALED,
    /** Use the Solicited Event variant of a Send or Immediate Data (RFC 5040 §5.3, RFC 7306 §6). */
    SOLICITED,
    /** Do not start before every earlier RDMA Read and Atomic of this queue pair completed (Read fence). */
    FENCE,
    /**
     * Copy the data when the request is posted ({@code IBV_SEND_INLINE}): the memory may be reused as soon as
     * the post returns, and need not be registered — name it with {@link Sge#inline(java.nio.ByteBuffer)}
     * (registered SGEs work too); at most {@link QueuePairConfig#maxInlineData()} octets. Send and RDMA Write
     * variants only.
     */
    INLINE
}
