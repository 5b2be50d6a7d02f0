package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.MemoryWindow;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SharedReceiveQueue;
import org.iwarp4j.verbs.VerbsException;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** A protection domain: a number, and the factory of regions, queue pairs and shared receive queues. */
final class ProtectionDomainImpl implements ProtectionDomain {

    /**
     * Where {@link #allocateRegion} takes memory: Netty's pooled allocator, whatever allocator the RNIC was given for
     * its own buffers (application memory is not the RNIC's: a test that starves the RNIC still has its regions).
     */
    static final ByteBufAllocator REGION_MEMORY = PooledByteBufAllocator.DEFAULT;

    private final RnicImpl rnic;
    private final long number;
    private final AtomicInteger regions = new AtomicInteger();
    private final AtomicInteger windows = new AtomicInteger();
    private final AtomicInteger queuePairs = new AtomicInteger();
    private final AtomicInteger sharedReceiveQueues = new AtomicInteger();
    private volatile boolean closed;

    ProtectionDomainImpl(RnicImpl rnic, long number) {
        this.rnic = rnic;
        this.number = number;
    }

    @Override
    public Rnic rnic() {
        return rnic;
    }

    RnicImpl rnicImpl() {
        return rnic;
    }

    @Override
    public long number() {
        return number;
    }

    @Override
    public MemoryRegion register(ByteBuffer buffer, Set<Access> access) {
        Objects.requireNonNull(buffer, "buffer");
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("register(ByteBuffer) needs a direct"
                    + " buffer; register heap memory as a ByteBuf with NettyVerbs.register");
        }
        // Netty's wrapper over the position..limit octets; it never frees the caller's ByteBuffer.
        ByteBuf memory = Unpooled.wrappedBuffer(buffer.slice());
        return register(memory, access, "register(ByteBuffer)", false);
    }

    /**
     * Checks the RNIC's {@code maxRegisteredBytes} before the memory is allocated, not after. The memory comes from
     * {@link #REGION_MEMORY}, zeroed, and goes back on close (the region's or the RNIC's): the slices that carry
     * its octets to the wire are then pooled too, where a wrapped {@code ByteBuffer}'s are new objects every FPDU.
     */
    @Override
    public MemoryRegion allocateRegion(int length, Access... access) {
        if (length < 1) {
            throw new IllegalArgumentException("length must be positive: " + length);
        }
        checkOpen();
        rnic.registeredBytes().acquire(length, null, "allocateRegion(" + length + ")");
        ByteBuf memory;
        try {
            memory = REGION_MEMORY.directBuffer(length, length);
        } catch (RuntimeException | OutOfMemoryError e) {
            rnic.registeredBytes().release(length);
            throw e;
        }
        memory.setZero(0, length);
        Set<Access> rights = access.length == 0 ? Set.of() : EnumSet.of(access[0], access);
        return register(memory, rights, "allocateRegion(" + length + ")", true);
    }

    /** The Netty extra ({@code NettyVerbs.register}). */
    MemoryRegion register(ByteBuf buffer, Set<Access> access) {
        Objects.requireNonNull(buffer, "buffer");
        return register(buffer.retainedSlice(0, buffer.capacity()), access, "register(ByteBuf)", false);
    }

    /** {@code reserved}: the caller took the region's octets from {@code maxRegisteredBytes} already. */
    private MemoryRegion register(ByteBuf memory, Set<Access> access, String what, boolean reserved) {
        Set<Access> rights;
        int length = memory.capacity();
        try {
            checkOpen();
            rights = Access.validate(access);
            if (!reserved) {
                rnic.registeredBytes().acquire(length, null, what + " of " + length + " octets");
            }
        } catch (RuntimeException e) {
            memory.release();
            if (reserved) {
                rnic.registeredBytes().release(length);
            }
            throw e;
        }
        long base = memory.hasMemoryAddress() ? memory.memoryAddress() : rnic.syntheticBase(memory.capacity());
        RegionImpl region = RegionImpl.register(this, rnic.stagTable(), memory, base, rights);
        if (region == null) {
            memory.release();
            rnic.registeredBytes().release(length);
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, what + ": the STag table is full ("
                    + rnic.config().maxStags() + " regions and windows)");
        }
        regions.incrementAndGet();
        return region;
    }

    @Override
    public MemoryRegion allocateFastRegistration(int maxLength) {
        checkOpen();
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be positive: " + maxLength);
        }
        rnic.registeredBytes().acquire(maxLength, null, "allocateFastRegistration(" + maxLength + ")");
        RegionImpl region = RegionImpl.fastRegistration(this, rnic.stagTable(), maxLength);
        if (region == null) {
            rnic.registeredBytes().release(maxLength);
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null,
                    "allocateFastRegistration: the STag table is full");
        }
        regions.incrementAndGet();
        return region;
    }

    /** {@code registeredBytes}: what the region took from the RNIC's {@code maxRegisteredBytes}. */
    void regionClosed(long registeredBytes) {
        rnic.registeredBytes().release(registeredBytes);
        regions.decrementAndGet();
    }

    @Override
    public MemoryWindow allocateMemoryWindow() {
        checkOpen();
        WindowImpl window = WindowImpl.allocate(this, rnic.stagTable());
        if (window == null) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null,
                    "allocateMemoryWindow: the STag table is full (" + rnic.config().maxStags()
                    + " regions and windows)");
        }
        windows.incrementAndGet();
        return window;
    }

    void windowClosed() {
        windows.decrementAndGet();
    }

    @Override
    public QueuePair createQueuePair(QueuePairConfig config) {
        checkOpen();
        QueuePair qp = rnic.createQueuePair(this, config);
        queuePairs.incrementAndGet();
        return qp;
    }

    void queuePairClosed() {
        queuePairs.decrementAndGet();
    }

    void sharedReceiveQueueClosed() {
        sharedReceiveQueues.decrementAndGet();
    }

    @Override
    public SharedReceiveQueue createSharedReceiveQueue(int capacity, int maxSge) {
        checkOpen();
        if (capacity < 1 || maxSge < 1) {
            throw new IllegalArgumentException("capacity and maxSge must be positive");
        }
        if (maxSge > rnic.config().maxSge()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null,
                    "maxSge " + maxSge + " exceeds the RNIC's "
                    + rnic.config().maxSge());
        }
        if (capacity > rnic.config().maxWorkRequests()) {
            throw new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, null, "shared receive queue capacity "
                    + capacity + " exceeds the RNIC's " + rnic.config().maxWorkRequests());
        }
        SharedReceiveQueueImpl srq = new SharedReceiveQueueImpl(this, capacity, maxSge);
        sharedReceiveQueues.incrementAndGet();
        return srq;
    }

    private void checkOpen() {
        if (closed || rnic.isClosed()) {
            throw new IllegalStateException("protection domain or RNIC is closed");
        }
    }

    /** {@code ibv_dealloc_pd}: refused (EBUSY there) while anything of the domain is open. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        int r = regions.get();
        int w = windows.get();
        int q = queuePairs.get();
        int srq = sharedReceiveQueues.get();
        if (r + w + q + srq > 0) {
            throw new IllegalStateException("protection domain " + number + " still holds " + r + " memory region(s), "
                    + w + " memory window(s), " + q + " queue pair(s) and " + srq
                    + " shared receive queue(s): close them first (ibv_dealloc_pd refuses too, EBUSY)");
        }
        closed = true;
    }

    @Override
    public String toString() {
        return "ProtectionDomain[" + number + " regions=" + regions.get() + " windows=" + windows.get()
                + " queuePairs=" + queuePairs.get() + "]";
    }
}
