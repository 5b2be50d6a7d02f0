package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.MemoryWindow;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Stag;

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
        return view.stag();
    }

    @Override
    public TaggedBuffer tagged() {
        return view;
    }

    ProtectionDomainImpl pd() {
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
        if (newStag.index() != index || newStag.value() == view.stag()) {
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
        // rights: remote ones only (the BindMemoryWindow constructor refuses the others)
        view.bind(newStag.value(), target.address() + offset, slice, RegionImpl.rightsOf(rights), streamIdentity);
        return null;
    }

    /** Local invalidate on {@code qp} (its loop): only the queue pair the window is bound on may. */
    synchronized boolean invalidateLocally(QueuePairImpl qp, int stag) {
        if (queuePair != qp || view.stag() != stag || !view.isValid()) {
            return false;
        }
        unbindLocked();
        return true;
    }

    @Override
    public synchronized boolean invalidateRemotely() {
        if (!view.isValid()) {
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
        return new Stag(view.stag());
    }

    @Override
    public boolean isBound() {
        return view.isValid();
    }

    @Override
    public synchronized Optional<MemoryRegion> region() {
        return Optional.ofNullable(region);
    }

    @Override
    public long address() {
        return view.isValid() ? view.baseTaggedOffset() : 0;
    }

    @Override
    public long length() {
        ByteBuf m = view.memory();
        return view.isValid() && m != null ? m.capacity() : 0;
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
        if (!view.isValid()) {
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
        return "MemoryWindow[stag=" + stag()
                + (view.isValid() ? String.format(" address=0x%x length=%d", view.baseTaggedOffset(), length())
                        : " unbound") + "]";
    }

    /** DDP's view: invalid first and valid last on every change (see {@link ByteBufTaggedBuffer}). */
    private static final class View extends ByteBufTaggedBuffer {
        View(int stag, long protectionDomain) {
            super(stag, 0, null, Set.of(), protectionDomain, null, false);
        }

        void bind(int newStag, long newBase, ByteBuf newMemory, Set<TaggedBufferAccess> rights, Object stream) {
            rebind(newStag, newBase, newMemory, rights, stream);
        }

        @Override
        public String toString() {
            return String.format("MemoryWindow[stag=0x%08x base=0x%x%s]", stag(), baseTaggedOffset(),
                    isValid() ? "" : " invalid");
        }
    }
}
