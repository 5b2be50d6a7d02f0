package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.MemoryWindow;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Stag;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A type 2 memory window: an STag of its own in the RNIC's table whose DDP view is part of a region's memory,
 * bound to one RDMAP stream (RFC 5041 §8.2: an STag associated with a stream is usable only there; RFC 5040
 * §5.3 and §8.1.1: that stream's peer may invalidate it). Binding and local invalidation run on the queue
 * pair's event loop in send-queue order; remote invalidation on the same loop; deallocation on any thread.
 * State changes are synchronized; DDP reads the view's volatile fields without a lock.
 */
final class WindowImpl implements MemoryWindow, StagOwner {

    private final ProtectionDomainImpl pd;
    private final StagTable table;
    private final int index;
    private final View view;
    private RegionImpl region;
    private QueuePairImpl queuePair;
    private Set<Access> access = Set.of();
    private boolean closed;

    private WindowImpl(ProtectionDomainImpl pd, StagTable table) {
        this.pd = pd;
        this.table = table;
        Stag s = table.allocate(this);
        this.index = s == null ? 0 : s.index();
        this.view = new View(s == null ? 0 : s.value(), pd.number());
    }

    /** A new unbound window, or {@code null} when the STag table is full. */
    static WindowImpl allocate(ProtectionDomainImpl pd, StagTable table) {
        WindowImpl w = new WindowImpl(pd, table);
        return w.index == 0 ? null : w;
    }

    @Override
    public int stagValue() {
        return view.stag;
    }

    @Override
    public TaggedBuffer tagged() {
        return view;
    }

    @Override
    public ProtectionDomainImpl pd() {
        return pd;
    }

    int index() {
        return index;
    }

    /**
     * Binds on {@code qp}'s loop (send-queue order); returns an error text, or {@code null} on success.
     * A bound window is moved: its old binding ends first.
     */
    synchronized String bind(QueuePairImpl qp, Object streamIdentity, Stag newStag, RegionImpl target, long offset,
                             long length, Set<Access> rights) {
        if (closed) {
            return "the window is deallocated";
        }
        if (newStag.index() != index || newStag.value() == view.stag) {
            return "the new STag " + newStag + " must keep the window's index " + index + " and change its key";
        }
        if (!target.allows(Access.MW_BIND)) {
            return "region " + target.stag() + " was not registered with MW_BIND";
        }
        if ((rights.contains(Access.REMOTE_WRITE) || rights.contains(Access.REMOTE_ATOMIC))
                && !target.allows(Access.LOCAL_WRITE)) {
            return "remote write or atomic rights need a region with LOCAL_WRITE";
        }
        if (offset + length > target.length()) {
            return "[" + offset + ", " + (offset + length) + ") is not inside the " + target.length()
                    + " octets of region " + target.stag();
        }
        ByteBuf slice = target.bindWindow(offset, length);
        if (slice == null) {
            return "region " + target.stag() + " is invalid or deregistered";
        }
        unbindLocked();
        region = target;
        queuePair = qp;
        access = Set.copyOf(rights);
        view.bind(newStag.value(), target.address() + offset, slice, rightsOf(rights), streamIdentity);
        return null;
    }

    /** Local invalidate on {@code qp} (its loop): only the queue pair the window is bound on may. */
    synchronized boolean invalidateLocally(QueuePairImpl qp, int stag) {
        if (queuePair != qp || view.stag != stag || !view.valid) {
            return false;
        }
        unbindLocked();
        return true;
    }

    @Override
    public synchronized boolean invalidateRemotely() {
        if (!view.valid) {
            return false;
        }
        unbindLocked();
        return true;
    }

    private void unbindLocked() {
        ByteBuf old = view.unbind();
        if (old != null) {
            old.release();
        }
        if (region != null) {
            region.windowUnbound();
        }
        region = null;
        queuePair = null;
        access = Set.of();
    }

    @Override
    public Stag stag() {
        return new Stag(view.stag);
    }

    @Override
    public boolean isBound() {
        return view.valid;
    }

    @Override
    public synchronized Optional<MemoryRegion> region() {
        return Optional.ofNullable(region);
    }

    @Override
    public long address() {
        return view.valid ? view.base : 0;
    }

    @Override
    public long length() {
        ByteBuf m = view.memory;
        return view.valid && m != null ? m.capacity() : 0;
    }

    @Override
    public synchronized Set<Access> access() {
        return access;
    }

    @Override
    public synchronized Optional<QueuePair> queuePair() {
        return Optional.ofNullable(queuePair);
    }

    @Override
    public RemoteBuffer remoteBuffer() {
        if (!view.valid) {
            throw new IllegalStateException("memory window " + stag() + " is not bound");
        }
        return new RemoteBuffer(stag(), address(), length());
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
        unbindLocked();
        table.release(index, this);
        pd.windowClosed();
    }

    @Override
    public String toString() {
        return "MemoryWindow[stag=" + stag() + (view.valid ? String.format(" address=0x%x length=%d", view.base,
                length()) : " unbound") + "]";
    }

    private static int rightsOf(Set<Access> access) {
        EnumSet<TaggedBufferAccess> r = EnumSet.noneOf(TaggedBufferAccess.class);
        for (Access a : access) {
            switch (a) {
                case REMOTE_READ -> r.add(TaggedBufferAccess.REMOTE_READ);
                case REMOTE_WRITE -> r.add(TaggedBufferAccess.REMOTE_WRITE);
                case REMOTE_ATOMIC -> r.add(TaggedBufferAccess.REMOTE_ATOMIC);
                default -> throw new IllegalArgumentException("a window grants remote rights only, not " + a);
            }
        }
        int bits = 0;
        for (TaggedBufferAccess a : r) {
            bits |= 1 << a.ordinal();
        }
        return bits;
    }

    /** DDP's view: volatile fields, invalid first and valid last on every change. */
    private static final class View implements TaggedBuffer {
        private final long protectionDomain;
        private volatile int stag;
        private volatile long base;
        private volatile ByteBuf memory;
        private volatile int rights;
        private volatile Object stream;
        private volatile boolean valid;

        View(int stag, long protectionDomain) {
            this.stag = stag;
            this.protectionDomain = protectionDomain;
        }

        void bind(int newStag, long newBase, ByteBuf newMemory, int newRights, Object newStream) {
            valid = false;
            memory = newMemory;
            base = newBase;
            rights = newRights;
            stream = newStream;
            stag = newStag;
            valid = true;
        }

        ByteBuf unbind() {
            valid = false;
            ByteBuf m = memory;
            memory = null;
            stream = null;
            return m;
        }

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
        public boolean grants(TaggedBufferAccess access) {
            return (rights & (1 << access.ordinal())) != 0;
        }

        @Override
        public long protectionDomain() {
            return protectionDomain;
        }

        @Override
        public Object associatedStream() {
            return stream;
        }

        @Override
        public String toString() {
            return String.format("MemoryWindow[stag=0x%08x base=0x%x%s]", stag, base, valid ? "" : " invalid");
        }
    }
}
