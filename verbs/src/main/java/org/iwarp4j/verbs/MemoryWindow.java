package org.iwarp4j.verbs;

import java.util.Optional;
import java.util.Set;

/**
 * A memory window ({@code ibv_mw}, type 2): an STag that grants remote access to part of a memory region, to
 * the peer of one queue pair only. Allocated unbound ({@link ProtectionDomain#allocateMemoryWindow()}), bound
 * by a {@link SendWorkRequest.BindMemoryWindow} posted on the queue pair whose peer may use it, in send-queue
 * order; revoked by a {@link SendWorkRequest.LocalInvalidate} on that queue pair or by the peer's Send with
 * Invalidate naming it (RFC 5040 §5.3, §8.1.1: an STag bound to one stream may be invalidated by that
 * stream's peer). A peer of another queue pair using the window's STag gets a Terminate, as does a peer that
 * reaches outside the window or lacks a right.
 *
 * <p>Binding needs a region registered with {@link Access#MW_BIND}; the window's rights are at most what the
 * region allows locally (remote write and atomics need the region's {@link Access#LOCAL_WRITE}).
 */
public interface MemoryWindow extends AutoCloseable {

    /**
     * The window's current STag: same index for its whole life, a new key with every bind.
     *
     * @return the STag
     */
    Stag stag();

    /**
     * Whether the window is bound and its STag valid.
     *
     * @return true between a successful bind and an invalidation or {@link #close()}
     */
    boolean isBound();

    /**
     * The region the window is bound to.
     *
     * @return the region, or empty while unbound
     */
    Optional<MemoryRegion> region();

    /**
     * The Tagged Offset of the window's first octet (inside the region's range).
     *
     * @return the base Tagged Offset, 0 while unbound
     */
    long address();

    /**
     * The window's length.
     *
     * @return the octets it grants, 0 while unbound
     */
    long length();

    /**
     * The rights it grants the peer.
     *
     * @return an immutable set, empty while unbound
     */
    Set<Access> access();

    /**
     * The queue pair whose peer may use the window.
     *
     * @return the queue pair it was bound on, or empty while unbound
     */
    Optional<QueuePair> queuePair();

    /**
     * The advert of the bound window, to send to the peer.
     *
     * @return STag, base Tagged Offset and length
     * @throws IllegalStateException while unbound
     */
    RemoteBuffer remoteBuffer();

    /**
     * The protection domain of the window.
     *
     * @return the domain it was allocated in
     */
    ProtectionDomain protectionDomain();

    /** {@code ibv_dealloc_mw}: invalidates the STag if bound and frees its index. */
    @Override
    void close();
}
