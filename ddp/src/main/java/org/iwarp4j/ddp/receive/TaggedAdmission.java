package org.iwarp4j.ddp.receive;

import org.iwarp4j.ddp.memory.TaggedBufferAccess;

/**
 * The ULP's answer when DDP asks whether it may place a tagged segment
 * ({@link DdpReceiveListener#admitTaggedSegment}): which right the target region must grant, or reject.
 *
 * <p>For RDMAP (RFC 5040): an RDMA Write needs the peer to be allowed to write the region
 * ({@link #REMOTE_WRITE}); an RDMA Read Response places into the requester's own sink buffer, named by the
 * Data Sink STag of its Read Request, which in verbs terms needs {@link #LOCAL_WRITE}. Any other opcode on
 * a tagged segment is RDMAP's error to report ({@link #REJECT}).
 */
public enum TaggedAdmission {
    /** Place if the region grants {@link TaggedBufferAccess#REMOTE_WRITE} (RDMA Write). */
    REMOTE_WRITE(TaggedBufferAccess.REMOTE_WRITE),
    /** Place if the region grants {@link TaggedBufferAccess#LOCAL_WRITE} (RDMA Read Response sink). */
    LOCAL_WRITE(TaggedBufferAccess.LOCAL_WRITE),
    /**
     * Do not place: the ULP found an error in its part of the header and reports it itself. DDP drops the
     * segment without touching memory and, as after its own errors (RFC 5041 §7.1), every later segment.
     */
    REJECT(null);

    private final TaggedBufferAccess requiredAccess;

    TaggedAdmission(TaggedBufferAccess requiredAccess) {
        this.requiredAccess = requiredAccess;
    }

    /** The right the region must grant; {@code null} for {@link #REJECT}. */
    public TaggedBufferAccess requiredAccess() {
        return requiredAccess;
    }
}
