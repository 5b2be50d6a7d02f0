package org.iwarp4j.ddp.memory;

import io.netty.buffer.ByteBuf;

/**
 * Registered memory named by an STag: the Data Sink's tagged buffer of RFC 5041 §3 and §4.2. The verbs
 * layer implements it (memory region, memory window); DDP reads these properties for every non-empty
 * tagged segment, so implementations should answer from fields.
 *
 * <p>Addressing: the octet at Tagged Offset {@code to} is {@code memory().getByte((int) (to - baseTaggedOffset()))}.
 * The buffer covers the TOs {@code [baseTaggedOffset(), baseTaggedOffset() + memory().capacity())}
 * (in unsigned 64-bit arithmetic). Linux siw uses the registered virtual address as base TO; a region may
 * as well start at TO 0.
 *
 * <p>Association (RFC 5041 §8.2): every STag is associated with a protection domain; if
 * {@link #associatedStream()} is non-null it is in addition bound to that one DDP stream (e.g. a memory
 * window bound to a queue pair), and usable only there.
 */
public interface TaggedBuffer {

    /** The STag naming this buffer (unsigned 32 bits in an {@code int}). */
    int stag();

    /** The Tagged Offset of the first octet of {@link #memory()} (unsigned 64 bits in a {@code long}). */
    long baseTaggedOffset();

    /**
     * The registered memory itself. DDP writes received payload with
     * {@link ByteBuf#setBytes(int, ByteBuf, int, int)} at index {@code to - baseTaggedOffset()}: one copy,
     * no intermediate buffer. Index 0 is the base TO; {@code capacity()} is the length of the region.
     * Reader and writer indexes are not used. Usually an off-heap (direct) buffer.
     */
    ByteBuf memory();

    /** True while the STag is valid; false once it was invalidated or deregistered (→ Invalid STag). */
    boolean isValid();

    /** Whether the buffer was registered with the given right. */
    boolean grants(TaggedBufferAccess access);

    /** The protection domain the STag was registered in. */
    long protectionDomain();

    /**
     * The one DDP stream the STag is bound to, or {@code null} if it is associated with its protection
     * domain only (RFC 5041 §8.2). Compared by identity with the stream identity the
     * {@link org.iwarp4j.ddp.receive.DdpReceiver} was created with.
     */
    default Object associatedStream() {
        return null;
    }
}
