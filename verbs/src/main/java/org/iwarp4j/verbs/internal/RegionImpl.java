package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Stag;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * A memory region: the verbs face ({@link MemoryRegion}) and, through {@link #tagged()}, DDP's tagged
 * buffer ({@link TaggedBuffer}; a separate view because both name their STag accessor {@code stag()}).
 *
 * <p>{@link #buffer()} is a retained view of the registered memory with index 0 at the base TO; the
 * region holds one reference and releases it on close, transfers in flight hold their own (retained
 * slices), so deregistration never frees memory under a transfer. Fields DDP reads on other event loops
 * are volatile: they live in DDP's view, a {@link ByteBufTaggedBuffer} (a fast registration rebinds them on the loop
 * that executes it).
 */
final class RegionImpl implements MemoryRegion, StagOwner {

    private final ProtectionDomainImpl pd;
    private final StagTable table;
    private final boolean fastRegistration;
    private final int maxLength;
    private final int index;
    private volatile boolean closed;
    /** Memory windows bound to this region (guarded by this). */
    private int boundWindows;
    private volatile Set<Access> access;
    /**
     * DDP's view, which holds what DDP reads on every event loop (STag, base TO, memory, rights, validity) in
     * volatile fields; {@code null} until the constructor is done, so a lookup never finds a half-built region.
     */
    private volatile ByteBufTaggedBuffer tagged;

    private RegionImpl(ProtectionDomainImpl pd, StagTable table, boolean fastRegistration, int maxLength,
                       ByteBuf memory, long base, Set<Access> access) {
        this.pd = pd;
        this.table = table;
        this.fastRegistration = fastRegistration;
        this.maxLength = maxLength;
        this.access = access;
        Stag s = table.allocate(this);
        if (s == null) {
            this.index = 0;
            return;
        }
        this.index = s.index();
        this.tagged = new View(s.value(), base, memory, rightsOf(access), pd.number(), !fastRegistration);
    }

    /** A regular region over {@code memory} (the region owns one reference); {@code null} if the table is full. */
    static RegionImpl register(ProtectionDomainImpl pd, StagTable table, ByteBuf memory, long base,
            Set<Access> access) {
        RegionImpl r = new RegionImpl(pd, table, false, memory.capacity(), memory, base, access);
        return r.index == 0 ? null : r;
    }

    /** A fast-registration shell: an index, no memory, invalid until bound; {@code null} if the table is full. */
    static RegionImpl fastRegistration(ProtectionDomainImpl pd, StagTable table, int maxLength) {
        RegionImpl r = new RegionImpl(pd, table, true, maxLength, null, 0, Set.of());
        return r.index == 0 ? null : r;
    }

    @Override
    public int stagValue() {
        ByteBufTaggedBuffer t = tagged;
        return t == null ? 0 : t.stag(); // no STag is 0 (StagTable never uses index 0)
    }

    int maxLength() {
        return maxLength;
    }

    ProtectionDomainImpl pd() {
        return pd;
    }

    @Override
    public boolean invalidateRemotely() {
        return invalidate();
    }

    // ------------------------------------------------------------------ MemoryRegion

    @Override
    public Stag stag() {
        return new Stag(stagValue());
    }

    @Override
    public long address() {
        return tagged.baseTaggedOffset();
    }

    @Override
    public long length() {
        ByteBuf m = tagged.memory();
        return m == null ? 0 : m.capacity();
    }

    @Override
    public Set<Access> access() {
        return access;
    }

    @Override
    public boolean isValid() {
        return tagged.isValid();
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
        if (boundWindows > 0) {
            throw new IllegalStateException("region " + stag() + " has " + boundWindows + " memory window(s) bound to"
                    + " it: invalidate or close them first (ibv_dereg_mr refuses too, EBUSY)");
        }
        closed = true;
        ByteBuf m = tagged.unbind(); // invalid first, then without memory
        table.release(index, this);
        if (m != null) {
            m.release();
        }
        pd.regionClosed(maxLength); // what register or allocateFastRegistration took: the capacity, or maxLength
    }

    // ------------------------------------------------------------------ TaggedBuffer

    /** DDP's view, printed as the region it belongs to. */
    private final class View extends ByteBufTaggedBuffer {
        View(int stag, long base, ByteBuf memory, Set<TaggedBufferAccess> rights, long pd, boolean valid) {
            super(stag, base, memory, rights, pd, null, valid);
        }

        @Override
        public String toString() {
            return RegionImpl.this.toString();
        }
    }

    /** DDP's view of this region. */
    @Override
    public TaggedBuffer tagged() {
        return tagged;
    }

    /** The registered memory (index 0 = base TO), or {@code null} once closed / while unbound. */
    ByteBuf memory() {
        return tagged.memory();
    }

    @Override
    public ByteBuffer buffer() {
        ByteBuf m = tagged.memory();
        if (m == null || closed) {
            return ByteBuffer.allocate(0);
        }
        return m.nioBuffer(0, m.capacity());
    }

    /**
     * A window binds {@code [offset, offset + length)} of this region: a retained slice of the memory, or
     * {@code null} if the region is deregistered or unbound. Counted until {@link #windowUnbound()}.
     */
    synchronized ByteBuf bindWindow(long offset, long length) {
        ByteBuf m = tagged.memory();
        if (closed || m == null || !tagged.isValid()) {
            return null;
        }
        boundWindows++;
        return m.retainedSlice((int) offset, (int) length);
    }

    synchronized void windowUnbound() {
        boundWindows--;
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
        tagged.invalidate();
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
        if (newStag.index() != index || newStag.value() == stagValue()) {
            newMemory.release();
            return "the new STag " + newStag + " must keep index " + index + " and change the key of " + stag();
        }
        if (newMemory.capacity() > maxLength) {
            int length = newMemory.capacity();
            newMemory.release();
            return "memory of " + length + " octets exceeds the region's maximum of " + maxLength;
        }
        ByteBuf old = tagged.memory();
        access = newAccess;
        tagged.rebind(newStag.value(), newBase, newMemory, rightsOf(newAccess)); // invalid first, valid last
        if (old != null) {
            old.release();
        }
        return null;
    }

    /** The rights DDP checks for {@code access} (of a region or of a window's binding). */
    static Set<TaggedBufferAccess> rightsOf(Set<Access> access) {
        Set<TaggedBufferAccess> rights = EnumSet.noneOf(TaggedBufferAccess.class);
        for (Access a : access) {
            switch (a) {
                case LOCAL_WRITE -> rights.add(TaggedBufferAccess.LOCAL_WRITE);
                case REMOTE_WRITE -> rights.add(TaggedBufferAccess.REMOTE_WRITE);
                case REMOTE_READ -> rights.add(TaggedBufferAccess.REMOTE_READ);
                case REMOTE_ATOMIC -> rights.add(TaggedBufferAccess.REMOTE_ATOMIC);
                case MW_BIND -> { } // a verbs right: DDP checks only what peers may do
            }
        }
        return rights;
    }

    @Override
    public String toString() {
        ByteBufTaggedBuffer t = tagged;
        return "MemoryRegion[stag=" + stag() + String.format(" address=0x%x", t == null ? 0 : t.baseTaggedOffset())
                + " length=" + (t == null ? 0 : length()) + " access=" + access + (fastRegistration ? " fast" : "")
                + (t != null && t.isValid() ? "" : " invalid") + "]";
    }
}
