package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A send work request ({@code ibv_send_wr}), one record per operation. Each RDMA operation becomes the
 * RDMAP message(s) of RFC 5040 / RFC 7306 named in its Javadoc; {@link LocalInvalidate},
 * {@link FastRegister} and {@link BindMemoryWindow} are local operations executed in send-queue order.
 *
 * <p>Common fields: {@code wrId} (echoed in the completion), the scatter/gather list, and {@link SendFlag}s.
 * {@code remoteStag}/{@code remoteAddress} name the peer's memory as the peer advertised it
 * ({@link RemoteBuffer}). The {@code of} factories cover the common case and set {@link SendFlag#SIGNALED}:
 * <pre>{@code
 * qp.postSend(RdmaWrite.of(1, local.sge(), remote));
 * qp.postSend(RdmaRead.of(2, sink.sge(), remote).withFlags(Set.of()));  // unsignaled
 * }</pre>
 */
public sealed interface SendWorkRequest {

    /**
     * The id echoed in the completion.
     *
     * @return the work request id
     */
    long wrId();

    /**
     * The flags.
     *
     * @return an immutable set
     */
    Set<SendFlag> flags();

    /**
     * The same request with other flags.
     *
     * @param flags the new flags
     * @return a copy with {@code flags}
     */
    SendWorkRequest withFlags(Set<SendFlag> flags);

    /**
     * The local scatter/gather list.
     *
     * @return the SGEs (empty for operations without local data)
     */
    default List<Sge> sges() {
        return List.of();
    }

    /** {@link SendFlag#SIGNALED}, the flags of the factories. */
    Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    private static void fits(long localLength, RemoteBuffer remote, String what) {
        if (localLength > remote.length()) {
            throw new IllegalArgumentException(what + " of " + localLength + " octets does not fit the "
                    + remote.length() + " octets of " + remote);
        }
    }

    /**
     * RFC 5040 §5.3 Send (or Send with SE when {@link SendFlag#SOLICITED}): consumes one peer receive.
     *
     * @param wrId  echoed in the completion
     * @param sges  the data, gathered in order
     * @param flags flags
     */
    record Send(long wrId, List<Sge> sges, Set<SendFlag> flags) implements SendWorkRequest {
        /** Copies the lists. */
        public Send {
            sges = List.copyOf(sges);
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Send of {@code sges}.
         *
         * @param wrId echoed in the completion
         * @param sges the data
         * @return the request
         */
        public static Send of(long wrId, Sge... sges) {
            return new Send(wrId, List.of(sges), SIGNALED);
        }

        /**
         * A signaled Send of a whole region.
         *
         * @param wrId   echoed in the completion
         * @param region the data
         * @return the request
         */
        public static Send of(long wrId, MemoryRegion region) {
            return of(wrId, Sge.of(region));
        }

        /**
         * A signaled {@link SendFlag#INLINE} Send of unregistered memory, copied when posted.
         *
         * @param wrId echoed in the completion
         * @param data the octets between position and limit
         * @return the request
         */
        public static Send inline(long wrId, ByteBuffer data) {
            return new Send(wrId, List.of(Sge.inline(data)), Set.of(SendFlag.SIGNALED, SendFlag.INLINE));
        }

        @Override
        public Send withFlags(Set<SendFlag> newFlags) {
            return new Send(wrId, sges, newFlags);
        }
    }

    /**
     * RFC 5040 §5.3 Send with Invalidate (with SE when {@link SendFlag#SOLICITED}): like {@link Send},
     * and the peer invalidates its STag {@code invalidateStag} before completing the receive.
     *
     * @param wrId           echoed in the completion
     * @param sges           the data
     * @param invalidateStag the peer's STag to invalidate (a fast-registration region or a window bound to this
     *                       connection, at the peer)
     * @param flags          flags
     */
    record SendWithInvalidate(long wrId, List<Sge> sges, Stag invalidateStag, Set<SendFlag> flags)
            implements SendWorkRequest {
        /** Copies the lists. */
        public SendWithInvalidate {
            sges = List.copyOf(sges);
            Objects.requireNonNull(invalidateStag, "invalidateStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Send with Invalidate.
         *
         * @param wrId           echoed in the completion
         * @param invalidateStag the peer's STag to invalidate
         * @param sges           the data
         * @return the request
         */
        public static SendWithInvalidate of(long wrId, Stag invalidateStag, Sge... sges) {
            return new SendWithInvalidate(wrId, List.of(sges), invalidateStag, SIGNALED);
        }

        @Override
        public SendWithInvalidate withFlags(Set<SendFlag> newFlags) {
            return new SendWithInvalidate(wrId, sges, invalidateStag, newFlags);
        }
    }

    /**
     * RFC 5040 §5.1 RDMA Write of the gathered data to the peer's ({@code remoteStag}, {@code remoteAddress}).
     *
     * @param wrId          echoed in the completion
     * @param sges          the data
     * @param remoteStag    the peer's STag
     * @param remoteAddress the Tagged Offset the data goes to
     * @param flags         flags
     */
    record RdmaWrite(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress, Set<SendFlag> flags)
            implements SendWorkRequest {
        /** Copies the lists. */
        public RdmaWrite {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Write of {@code local} to the start of {@code remote}.
         *
         * @param wrId   echoed in the completion
         * @param local  the data
         * @param remote where it goes
         * @return the request
         * @throws IllegalArgumentException if the data is longer than {@code remote}
         */
        public static RdmaWrite of(long wrId, Sge local, RemoteBuffer remote) {
            fits(local.length(), remote, "RDMA Write");
            return new RdmaWrite(wrId, List.of(local), remote.stag(), remote.taggedOffset(), SIGNALED);
        }

        /**
         * A signaled Write of a whole region to the start of {@code remote}.
         *
         * @param wrId   echoed in the completion
         * @param local  the data
         * @param remote where it goes
         * @return the request
         */
        public static RdmaWrite of(long wrId, MemoryRegion local, RemoteBuffer remote) {
            return of(wrId, Sge.of(local), remote);
        }

        @Override
        public RdmaWrite withFlags(Set<SendFlag> newFlags) {
            return new RdmaWrite(wrId, sges, remoteStag, remoteAddress, newFlags);
        }
    }

    /**
     * RFC 7306 §6 "RDMA Write with Immediate": an RDMA Write followed by an Immediate Data message
     * (8 octets, consumes a peer receive, whose completion reports {@code immediateData}).
     *
     * @param wrId          echoed in the completion
     * @param sges          the data
     * @param remoteStag    the peer's STag
     * @param remoteAddress the Tagged Offset the data goes to
     * @param immediateData the 8 octets the peer's receive completion reports
     * @param flags         flags
     */
    record RdmaWriteWithImmediate(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress,
                                  long immediateData, Set<SendFlag> flags) implements SendWorkRequest {
        /** Copies the lists. */
        public RdmaWriteWithImmediate {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Write with Immediate of {@code local} to the start of {@code remote}.
         *
         * @param wrId          echoed in the completion
         * @param local         the data
         * @param remote        where it goes
         * @param immediateData the 8 octets for the peer's receive completion
         * @return the request
         */
        public static RdmaWriteWithImmediate of(long wrId, Sge local, RemoteBuffer remote, long immediateData) {
            fits(local.length(), remote, "RDMA Write with Immediate");
            return new RdmaWriteWithImmediate(wrId, List.of(local), remote.stag(), remote.taggedOffset(),
                    immediateData, SIGNALED);
        }

        @Override
        public RdmaWriteWithImmediate withFlags(Set<SendFlag> newFlags) {
            return new RdmaWriteWithImmediate(wrId, sges, remoteStag, remoteAddress, immediateData, newFlags);
        }
    }

    /**
     * RFC 5040 §5.2 RDMA Read of the peer's ({@code remoteStag}, {@code remoteAddress}) into the local
     * {@code sges} (registered with {@link Access#LOCAL_WRITE}); the length is the sum of the SGE lengths.
     * Each SGE becomes one Read Request (RDMAP reads into one sink STag per request), so a Read with
     * {@code n} SGEs takes {@code n} send-queue slots and {@code n} ORD credits.
     *
     * @param wrId          echoed in the completion
     * @param sges          where the data goes
     * @param remoteStag    the peer's STag
     * @param remoteAddress the Tagged Offset read from
     * @param flags         flags
     */
    record RdmaRead(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress, Set<SendFlag> flags)
            implements SendWorkRequest {
        /** Copies the lists. */
        public RdmaRead {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Read of the start of {@code remote} into {@code local} ({@code local.length()} octets).
         *
         * @param wrId   echoed in the completion
         * @param local  where the data goes
         * @param remote where it comes from
         * @return the request
         * @throws IllegalArgumentException if {@code local} is longer than {@code remote}
         */
        public static RdmaRead of(long wrId, Sge local, RemoteBuffer remote) {
            fits(local.length(), remote, "RDMA Read");
            return new RdmaRead(wrId, List.of(local), remote.stag(), remote.taggedOffset(), SIGNALED);
        }

        /**
         * A signaled Read filling a whole region from the start of {@code remote}.
         *
         * @param wrId   echoed in the completion
         * @param local  where the data goes
         * @param remote where it comes from
         * @return the request
         */
        public static RdmaRead of(long wrId, MemoryRegion local, RemoteBuffer remote) {
            return of(wrId, Sge.of(local), remote);
        }

        @Override
        public RdmaRead withFlags(Set<SendFlag> newFlags) {
            return new RdmaRead(wrId, sges, remoteStag, remoteAddress, newFlags);
        }
    }

    /**
     * RFC 7306 §6 Immediate Data (with SE when {@link SendFlag#SOLICITED}): 8 octets in the peer's next
     * receive completion.
     *
     * @param wrId          echoed in the completion
     * @param immediateData the 8 octets
     * @param flags         flags
     */
    record ImmediateData(long wrId, long immediateData, Set<SendFlag> flags) implements SendWorkRequest {
        /** Copies the flags. */
        public ImmediateData {
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled Immediate Data message.
         *
         * @param wrId          echoed in the completion
         * @param immediateData the 8 octets
         * @return the request
         */
        public static ImmediateData of(long wrId, long immediateData) {
            return new ImmediateData(wrId, immediateData, SIGNALED);
        }

        @Override
        public ImmediateData withFlags(Set<SendFlag> newFlags) {
            return new ImmediateData(wrId, immediateData, newFlags);
        }
    }

    /**
     * RFC 7306 §5.1.1 masked FetchAdd on the peer's 8-octet-aligned word; {@code addMask} 0 = plain 64-bit add.
     * The original value is in the completion ({@link WorkCompletion#atomicOriginalValue()}) and, if
     * {@code result} is given (8 octets, LOCAL_WRITE), written there in the RNIC's memory byte order
     * ({@link RnicConfig#atomicByteOrder()}, the host's by default). The peer's word, too, is in its RNIC's
     * memory byte order.
     *
     * @param wrId          echoed in the completion
     * @param result        where the original value is written
     * @param remoteStag    the peer's STag
     * @param remoteAddress the word's Tagged Offset (8-octet aligned)
     * @param addData       what is added
     * @param addMask       RFC 7306 §5.1.1 carry mask (0: a plain add)
     * @param flags         flags
     */
    record AtomicFetchAdd(long wrId, Optional<Sge> result, Stag remoteStag, long remoteAddress, long addData,
                          long addMask, Set<SendFlag> flags) implements SendWorkRequest {
        /** Checks the components. */
        public AtomicFetchAdd {
            Objects.requireNonNull(result, "result (Optional.empty() for none)");
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled plain 64-bit FetchAdd of the first word of {@code target}.
         *
         * @param wrId    echoed in the completion
         * @param target  the word (its first 8 octets)
         * @param addData what is added
         * @return the request
         */
        public static AtomicFetchAdd of(long wrId, RemoteBuffer target, long addData) {
            fits(8, target, "an atomic");
            return new AtomicFetchAdd(wrId, Optional.empty(), target.stag(), target.taggedOffset(), addData, 0,
                    SIGNALED);
        }

        /**
         * The same request writing the original value to {@code result} too.
         *
         * @param sge 8 octets with {@link Access#LOCAL_WRITE}
         * @return a copy with the result SGE
         */
        public AtomicFetchAdd withResult(Sge sge) {
            return new AtomicFetchAdd(wrId, Optional.of(sge), remoteStag, remoteAddress, addData, addMask, flags);
        }

        /**
         * The same request as a masked FetchAdd (RFC 7306 §5.1.1): a set bit of {@code mask} ends a carry there, so
         * the word adds as independent fields.
         *
         * @param mask the add mask
         * @return a copy with the mask
         */
        public AtomicFetchAdd withAddMask(long mask) {
            return new AtomicFetchAdd(wrId, result, remoteStag, remoteAddress, addData, mask, flags);
        }

        @Override
        public List<Sge> sges() {
            return result.map(List::of).orElse(List.of());
        }

        @Override
        public AtomicFetchAdd withFlags(Set<SendFlag> newFlags) {
            return new AtomicFetchAdd(wrId, result, remoteStag, remoteAddress, addData, addMask, newFlags);
        }
    }

    /**
     * RFC 7306 §5.1.2 masked CmpSwap: if the peer's word equals {@code compareData} on the bits of
     * {@code compareMask}, the bits of {@code swapMask} are replaced by {@code swapData} (all-ones masks:
     * plain compare-and-swap). Result and byte order as for {@link AtomicFetchAdd}.
     *
     * @param wrId          echoed in the completion
     * @param result        where the original value is written
     * @param remoteStag    the peer's STag
     * @param remoteAddress the word's Tagged Offset (8-octet aligned)
     * @param compareData   compared with the word
     * @param compareMask   the bits compared
     * @param swapData      swapped in on a match
     * @param swapMask      the bits swapped
     * @param flags         flags
     */
    record AtomicCompareSwap(long wrId, Optional<Sge> result, Stag remoteStag, long remoteAddress, long compareData,
                             long compareMask, long swapData, long swapMask, Set<SendFlag> flags)
            implements SendWorkRequest {
        /** Checks the components. */
        public AtomicCompareSwap {
            Objects.requireNonNull(result, "result (Optional.empty() for none)");
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled plain compare-and-swap of the first word of {@code target}.
         *
         * @param wrId        echoed in the completion
         * @param target      the word (its first 8 octets)
         * @param compareData the value expected
         * @param swapData    the value stored on a match
         * @return the request
         */
        public static AtomicCompareSwap of(long wrId, RemoteBuffer target, long compareData, long swapData) {
            fits(8, target, "an atomic");
            return new AtomicCompareSwap(wrId, Optional.empty(), target.stag(), target.taggedOffset(), compareData, -1L,
                    swapData, -1L, SIGNALED);
        }

        /**
         * The same request writing the original value to {@code result} too.
         *
         * @param sge 8 octets with {@link Access#LOCAL_WRITE}
         * @return a copy with the result SGE
         */
        public AtomicCompareSwap withResult(Sge sge) {
            return new AtomicCompareSwap(wrId, Optional.of(sge), remoteStag, remoteAddress, compareData, compareMask,
                    swapData, swapMask, flags);
        }

        /**
         * The same request as a masked CmpSwap (RFC 7306 §5.1.2): compare only the bits of {@code compare}, swap
         * only the bits of {@code swap}.
         *
         * @param compare the compare mask
         * @param swap    the swap mask
         * @return a copy with the masks
         */
        public AtomicCompareSwap withMasks(long compare, long swap) {
            return new AtomicCompareSwap(wrId, result, remoteStag, remoteAddress, compareData, compare, swapData, swap,
                    flags);
        }

        @Override
        public List<Sge> sges() {
            return result.map(List::of).orElse(List.of());
        }

        @Override
        public AtomicCompareSwap withFlags(Set<SendFlag> newFlags) {
            return new AtomicCompareSwap(wrId, result, remoteStag, remoteAddress, compareData, compareMask, swapData,
                    swapMask, newFlags);
        }
    }

    /**
     * Local invalidate ({@code IBV_WR_LOCAL_INV}): makes an STag of this side invalid, in send-queue order.
     * Only a fast-registration region's STag, or the STag of a memory window bound on this queue pair, can be
     * invalidated (RFC 5040 §8.1.1: an STag other streams may use must not be invalidated behind their back).
     *
     * @param wrId  echoed in the completion
     * @param stag  the STag to invalidate
     * @param flags flags
     */
    record LocalInvalidate(long wrId, Stag stag, Set<SendFlag> flags) implements SendWorkRequest {
        /** Checks the components. */
        public LocalInvalidate {
            Objects.requireNonNull(stag, "stag");
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled invalidation of a fast-registration region's current STag.
         *
         * @param wrId   echoed in the completion
         * @param region the region
         * @return the request
         */
        public static LocalInvalidate of(long wrId, MemoryRegion region) {
            return new LocalInvalidate(wrId, region.stag(), SIGNALED);
        }

        /**
         * A signaled invalidation of a memory window's current STag.
         *
         * @param wrId   echoed in the completion
         * @param window the window
         * @return the request
         */
        public static LocalInvalidate of(long wrId, MemoryWindow window) {
            return new LocalInvalidate(wrId, window.stag(), SIGNALED);
        }

        @Override
        public LocalInvalidate withFlags(Set<SendFlag> newFlags) {
            return new LocalInvalidate(wrId, stag, newFlags);
        }
    }

    /**
     * Fast registration ({@code IBV_WR_REG_MR}): binds {@code memory} (a direct buffer, at most the
     * region's maximum length) to the fast-registration region under the new STag {@code stag} (same
     * index, different key, normally {@code region.stag().withNextKey()}) with {@code access}, in
     * send-queue order. The base Tagged Offset is the memory's native address.
     *
     * @param wrId   echoed in the completion
     * @param region the fast-registration region
     * @param memory the memory to bind
     * @param stag   the new STag
     * @param access the rights
     * @param flags  flags
     */
    record FastRegister(long wrId, MemoryRegion region, ByteBuffer memory, Stag stag, Set<Access> access,
                        Set<SendFlag> flags) implements SendWorkRequest {
        /** Checks the components. */
        public FastRegister {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(memory, "memory");
            Objects.requireNonNull(stag, "stag");
            access = Access.validate(access);
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled fast registration under the region's next key.
         *
         * @param wrId   echoed in the completion
         * @param region the fast-registration region
         * @param memory a direct buffer
         * @param access the rights
         * @return the request
         */
        public static FastRegister of(long wrId, MemoryRegion region, ByteBuffer memory, Access... access) {
            return new FastRegister(wrId, region, memory, region.stag().withNextKey(), Access.setOf(access), SIGNALED);
        }

        @Override
        public FastRegister withFlags(Set<SendFlag> newFlags) {
            return new FastRegister(wrId, region, memory, stag, access, newFlags);
        }
    }

    /**
     * Memory window bind ({@code IBV_WR_BIND_MW}, type 2): binds {@code window} to
     * {@code [region.address() + offset, + length)} with the remote rights {@code access}, for the peer of the
     * queue pair it is posted on, under the new STag {@code newStag} (the window's index, a new key), in
     * send-queue order. The region needs {@link Access#MW_BIND}, and {@link Access#LOCAL_WRITE} for remote write
     * or atomic rights. Rebinding a bound window moves it (the old STag becomes invalid). The STag and the
     * binding change when the bind executes, not when it is posted: {@code window.stag()} names the current
     * binding, this request's {@link #newStag()} and {@link #remoteBuffer()} the one it makes (so a chain of binds
     * and invalidates names the keys from the requests, as libibverbs programs track {@code ibv_inc_rkey}).
     *
     * @param wrId    echoed in the completion
     * @param window  the window
     * @param newStag the window's STag after the bind
     * @param region  the region the window opens onto
     * @param offset  the window's first octet, relative to the region
     * @param length  the window's length
     * @param access  remote rights: a subset of REMOTE_READ, REMOTE_WRITE, REMOTE_ATOMIC
     * @param flags   flags
     */
    record BindMemoryWindow(long wrId, MemoryWindow window, Stag newStag, MemoryRegion region, long offset,
                            long length, Set<Access> access, Set<SendFlag> flags) implements SendWorkRequest {
        /** Checks the components. */
        public BindMemoryWindow {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(newStag, "newStag");
            Objects.requireNonNull(region, "region");
            if (offset < 0 || length < 0) {
                throw new IllegalArgumentException("offset and length must not be negative");
            }
            if (offset > Long.MAX_VALUE - length) {
                throw new IllegalArgumentException("offset " + offset + " + length " + length + " overflows a long");
            }
            access = Set.copyOf(access.isEmpty() ? EnumSet.noneOf(Access.class) : EnumSet.copyOf(access));
            for (Access a : access) {
                if (a == Access.LOCAL_WRITE || a == Access.MW_BIND) {
                    throw new IllegalArgumentException("a window grants remote rights only, not " + a);
                }
            }
            flags = Set.copyOf(flags);
        }

        /**
         * A signaled bind under the window's next key.
         *
         * @param wrId   echoed in the completion
         * @param window the window
         * @param region the region
         * @param offset first octet, relative to the region
         * @param length octets
         * @param access remote rights
         * @return the request
         */
        public static BindMemoryWindow of(long wrId, MemoryWindow window, MemoryRegion region, long offset, long length,
                                          Access... access) {
            return new BindMemoryWindow(wrId, window, window.stag().withNextKey(), region, offset, length,
                    access.length == 0 ? Set.of() : EnumSet.of(access[0], access), SIGNALED);
        }

        /**
         * What the peer needs to use the window once this bind has executed: the new STag, the window's first
         * Tagged Offset and its length, ready to send right behind the bind.
         *
         * @return the advert of the binding
         */
        public RemoteBuffer remoteBuffer() {
            return new RemoteBuffer(newStag, region.address() + offset, length);
        }

        @Override
        public BindMemoryWindow withFlags(Set<SendFlag> newFlags) {
            return new BindMemoryWindow(wrId, window, newStag, region, offset, length, access, newFlags);
        }
    }
}
