package org.iwarp4j.ddp.memory;

/**
 * The access rights of a registered tagged buffer, named as in verbs ({@code IBV_ACCESS_*}).
 *
 * <p>DDP itself only ever requires one of the two write rights (which one is the ULP's decision, see
 * {@link org.iwarp4j.ddp.receive.TaggedAdmission}); the read and atomic rights are here so that RDMAP can
 * validate a Read Request's source or an Atomic Request's target with the same
 * {@link TaggedAccessCheck}.
 */
public enum TaggedBufferAccess {
    /** The local side may write the buffer; an incoming RDMA Read Response places into such a sink buffer. */
    LOCAL_WRITE,
    /** The peer may write the buffer (incoming RDMA Write). */
    REMOTE_WRITE,
    /** The peer may read the buffer (incoming RDMA Read Request, RFC 5040 §5.2). */
    REMOTE_READ,
    /** The peer may run atomic operations on the buffer (RFC 7306 §5). */
    REMOTE_ATOMIC
}
