package org.iwarp4j.ddp.memory;

import io.netty.buffer.ByteBuf;

import java.util.Objects;
import java.util.Set;

/**
 * A {@link TaggedBuffer} over one {@link ByteBuf}: Tagged Offset {@code to} is index
 * {@code to - baseTaggedOffset()} of the buffer, the buffer's capacity is the length of the tagged buffer
 * (RFC 5041 §3, §4.2). The owner of the {@code ByteBuf} releases it; this object never does.
 *
 * <p>Every property DDP reads is a field, and every field is volatile: a receiver on any event loop sees an
 * {@link #invalidate()} or a {@link #rebind} (a fast registration, which gives the buffer new memory under
 * a new STag) made on another thread. A rebind makes the buffer invalid first and valid last, so a segment
 * checked against it is placed into either the old or the new memory, never a mix of the two.
 *
 * <p>Not final: a memory region or a test double can add what it needs (its own {@code toString}, a
 * pattern check of the memory).
 */
public class ByteBufTaggedBuffer implements TaggedBuffer {

    private final long protectionDomain;
    private volatile Object associatedStream;
    private volatile int stag;
    private volatile long baseTaggedOffset;
    private volatile ByteBuf memory;
    private volatile int rights;
    private volatile boolean valid;

    /**
     * A valid tagged buffer.
     *
     * @param stag             the STag naming it (unsigned 32 bits)
     * @param baseTaggedOffset the TO of the first octet of {@code memory} (unsigned 64 bits)
     * @param memory           the registered memory (may be {@code null} for a buffer not bound yet)
     * @param access           the rights it was registered with
     * @param protectionDomain the protection domain of the STag (RFC 5041 §8.2)
     * @param associatedStream the one DDP stream it is bound to, or {@code null} for its protection domain only
     */
    public ByteBufTaggedBuffer(int stag, long baseTaggedOffset, ByteBuf memory, Set<TaggedBufferAccess> access,
                               long protectionDomain, Object associatedStream) {
        this(stag, baseTaggedOffset, memory, access, protectionDomain, associatedStream, true);
    }

    /**
     * A tagged buffer that is valid or not from the start (e.g. a fast-registration region before its first
     * binding); otherwise as {@link #ByteBufTaggedBuffer(int, long, ByteBuf, Set, long, Object)}.
     */
    public ByteBufTaggedBuffer(int stag, long baseTaggedOffset, ByteBuf memory, Set<TaggedBufferAccess> access,
                               long protectionDomain, Object associatedStream, boolean valid) {
        this.protectionDomain = protectionDomain;
        this.associatedStream = associatedStream;
        this.stag = stag;
        this.baseTaggedOffset = baseTaggedOffset;
        this.memory = memory;
        this.rights = rightsOf(access);
        this.valid = valid;
    }

    /** Writable by the peer (RDMA Write) and locally (a Read Response's sink), for its protection domain only. */
    public static ByteBufTaggedBuffer writable(int stag, long baseTaggedOffset, ByteBuf memory, long protectionDomain) {
        return new ByteBufTaggedBuffer(stag, baseTaggedOffset, memory,
                Set.of(TaggedBufferAccess.LOCAL_WRITE, TaggedBufferAccess.REMOTE_WRITE), protectionDomain, null);
    }

    /** Makes the STag invalid (invalidation, deregistration): DDP answers its segments with Invalid STag. */
    public ByteBufTaggedBuffer invalidate() {
        valid = false;
        return this;
    }

    /**
     * Binds new memory, base TO, rights and STag (a fast registration) and makes the buffer valid. The
     * caller releases the memory it had bound before, if it owns it.
     */
    public void rebind(int newStag, long newBaseTaggedOffset, ByteBuf newMemory, Set<TaggedBufferAccess> access) {
        rebind(newStag, newBaseTaggedOffset, newMemory, access, associatedStream);
    }

    /**
     * As {@link #rebind(int, long, ByteBuf, Set)}, binding the buffer to another stream too (a memory window
     * bound anew, RFC 5041 §8.2), or to none ({@code null}).
     */
    public void rebind(int newStag, long newBaseTaggedOffset, ByteBuf newMemory, Set<TaggedBufferAccess> access,
                       Object newAssociatedStream) {
        valid = false;
        associatedStream = newAssociatedStream;
        memory = newMemory;
        baseTaggedOffset = newBaseTaggedOffset;
        rights = rightsOf(access);
        stag = newStag;
        valid = true;
    }

    /**
     * Drops the memory (a deregistered buffer has none); the buffer is invalid from then on. Returns the
     * memory it had, for the owner to release, or {@code null}.
     */
    public ByteBuf unbind() {
        valid = false;
        ByteBuf m = memory;
        memory = null;
        return m;
    }

    @Override
    public int stag() {
        return stag;
    }

    @Override
    public long baseTaggedOffset() {
        return baseTaggedOffset;
    }

    @Override
    public ByteBuf memory() {
        return memory;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public boolean grants(TaggedBufferAccess access) {
        return (rights & (1 << access.ordinal())) != 0;
    }

    @Override
    public long protectionDomain() {
        return protectionDomain;
    }

    @Override
    public Object associatedStream() {
        return associatedStream;
    }

    private static int rightsOf(Set<TaggedBufferAccess> access) {
        int r = 0;
        for (TaggedBufferAccess a : Objects.requireNonNull(access, "access")) {
            r |= 1 << a.ordinal();
        }
        return r;
    }

    @Override
    public String toString() {
        ByteBuf m = memory;
        return String.format("TaggedBuffer[stag=0x%08x base=0x%x length=%d pd=%d%s]", stag, baseTaggedOffset,
                m == null ? 0 : m.capacity(), protectionDomain, valid ? "" : " invalid");
    }
}
