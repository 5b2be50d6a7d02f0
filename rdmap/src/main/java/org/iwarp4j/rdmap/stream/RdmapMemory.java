package org.iwarp4j.rdmap.stream;

import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;

/**
 * The registered memory an RDMAP stream may touch, implemented by the verbs layer (its table of memory
 * regions and windows). It is DDP's {@link TaggedBufferRegistry} (lookup by the full 32-bit STag) plus
 * the one action RDMAP performs on behalf of the peer: remote invalidation.
 *
 * <p>RDMAP uses it for: incoming RDMA Write / Read Response placement (through DDP), Read Request
 * sources (RFC 5040 §5.2: remote-read right, bounds, stream association), Atomic Request targets
 * (RFC 7306 §5: remote-atomic right, 8 octets in bounds) and Send with Invalidate (RFC 5040 §5.3).
 * Called on the stream's event loop; must not block.
 */
public interface RdmapMemory extends TaggedBufferRegistry {

    /**
     * Invalidates {@code buffer} because a Send with Invalidate named it (RFC 5040 §5.3). RDMAP has
     * already checked that it is valid and associated with this stream's protection domain / stream.
     * Return {@code false} if this STag may not be invalidated remotely (e.g. a memory region that is
     * not a window or fast-registered region, or one shared by several streams — RFC 5040 §8.1.1
     * [RDMAP-32]); RDMAP then terminates the stream with "STag cannot be Invalidated".
     */
    boolean invalidate(TaggedBuffer buffer);
}
