package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Stag;

import java.util.Set;

/**
 * A memory region: the verbs face ({@link MemoryRegion}) and, through {@link #tagged()}, DDP's tagged
 * buffer ({@link TaggedBuffer}; a separate view because both name their STag accessor {@code stag()}).
 *
 * <p>{@link #memory()} is a retained view of the registered memory with index 0 at the base TO; the
 * region holds one reference and releases it on close, transfers in flight hold their own (retained
 * slices), so deregistration never frees memory under a transfer. Fields DDP reads on other event loops
 * are volatile (a fast registration rebinds them on the loop that executes it).
 */
final class RegionImpl implements MemoryRegion {

    private final ProtectionDomainImpl pd;
    private final StagTable table;
    private final boolean fastRegistration;
    private final int maxLength;
    private final int index;
    private volatile int stag;
    private volatile boolean valid;
    private volatile boolean closed;
    private volatile ByteBuf memory;
    private volatile long base;
    private volatile Set<Access> access;
    private volatile int grants;

    private RegionImpl(ProtectionDomainImpl pd, StagTable table, boolean fastRegistration, int maxLength,
                       ByteBuf memory, long base, Set<Access> access) {
        this.pd = pd;
        this.table = table;
        this.fastRegistration = fastRegistration;
        this.maxLength = maxLength;
        this.memory = memory;
        this.base = base;
        this.access = access;
        this.grants = grantsOf(access);
        Stag s = table.allocate(this);
        if (s == null) {
            this.index = 0;
            return;
        }
        this.index = s.index();
        this.stag = s.value();
        this.valid = !fastRegistration;
    }

    /** A regular region over {@code memory} (the region owns one reference); {@code null} if the table is full. */
    static RegionImpl register(ProtectionDomainImpl pd, StagTable table, ByteBuf memory, long base, Set<Access> access) {
        RegionImpl r = new RegionImpl(pd, table, false, memory.capacity(), memory, base, access);
        return r.index == 0 ? null : r;
    }

    /** A fast-registration shell: an index, no memory, invalid until bound; {@code null} if the table is full. */
    static RegionImpl fastRegistration(ProtectionDomainImpl pd, StagTable table, int maxLength) {
        RegionImpl r = new RegionImpl(pd, table, true, maxLength, null, 0, Set.of());
        return r.index == 0 ? null : r;
    }

    int stagValue() {
        return stag;
    }

    int maxLength() {
        return maxLength;
    }

    ProtectionDomainImpl pd() {
        return pd;
    }

    // ------------------------------------------------------------------ MemoryRegion

    @Override
    public Stag stag() {
        return new Stag(stag);
    }

    @Override
    public long address() {
        return base;
    }

    @Override
    public long length() {
        ByteBuf m = memory;
        return m == null ? 0 : m.capacity();
    }

    @Override
    public Set<Access> access() {
        return access;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public boolean isFastRegistration() {
        return fastRegistration;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        valid = false;
        table.release(index, this);
        ByteBuf m = memory;
        memory = null;
        if (m != null) {
            m.release();
        }
        pd.regionClosed();
    }

    boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------ TaggedBuffer

    private final TaggedBuffer tagged = new TaggedBuffer() {
        @Override
        public int stag() {
            return stag;
        }

        @Override
        public long baseTaggedOffset() {
            return base;
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
        public boolean grants(TaggedBufferAccess right) {
            return (grants & (1 << right.ordinal())) != 0;
        }

        @Override
        public long protectionDomain() {
            return pd.number();
        }

        @Override
        public String toString() {
            return RegionImpl.this.toString();
        }
    };

    /** DDP's view of this region. */
    TaggedBuffer tagged() {
        return tagged;
    }

    /** The registered memory (index 0 = base TO), or {@code null} once closed / while unbound. */
    ByteBuf buffer() {
        return memory;
    }

    /** Whether the region grants {@code access}. */
    boolean allows(Access a) {
        return access.contains(a);
    }

    // ------------------------------------------------------------------ invalidation / fast registration

    /**
     * RFC 5040 §5.3 / local invalidate: only fast-registration regions may be invalidated (RFC 5040
     * §8.1.1: a region shared by several streams must not be invalidated by one peer).
     */
    synchronized boolean invalidate() {
        if (!fastRegistration || closed) {
            return false;
        }
        valid = false;
        return true;
    }

    /** Binds new memory under {@code newStag} (same index, new key); returns an error text or {@code null}. */
    synchronized String bind(ByteBuf newMemory, long newBase, Set<Access> newAccess, Stag newStag) {
        if (!fastRegistration) {
            newMemory.release();
            return "not a fast-registration region";
        }
        if (closed) {
            newMemory.release();
            return "region is deregistered";
        }
        if (newStag.index() != index || newStag.value() == stag) {
            newMemory.release();
            return "the new STag " + newStag + " must keep index " + index + " and change the key of " + stag();
        }
        if (newMemory.capacity() > maxLength) {
            int length = newMemory.capacity();
            newMemory.release();
            return "memory of " + length + " octets exceeds the region's maximum of " + maxLength;
        }
        ByteBuf old = memory;
        valid = false;
        memory = newMemory;
        base = newBase;
        access = newAccess;
        grants = grantsOf(newAccess);
        stag = newStag.value();
        valid = true;
        if (old != null) {
            old.release();
        }
        return null;
    }

    private static int grantsOf(Set<Access> access) {
        int g = 0;
        for (Access a : access) {
            TaggedBufferAccess t = switch (a) {
                case LOCAL_WRITE -> TaggedBufferAccess.LOCAL_WRITE;
                case REMOTE_WRITE -> TaggedBufferAccess.REMOTE_WRITE;
                case REMOTE_READ -> TaggedBufferAccess.REMOTE_READ;
                case REMOTE_ATOMIC -> TaggedBufferAccess.REMOTE_ATOMIC;
            };
            g |= 1 << t.ordinal();
        }
        return g;
    }

    @Override
    public String toString() {
        return "MemoryRegion[stag=" + stag() + String.format(" address=0x%x", base) + " length=" + length()
                + " access=" + access + (fastRegistration ? " fast" : "") + (valid ? "" : " invalid") + "]";
    }
}
