package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A send work request ({@code ibv_send_wr}), one record per operation. Each RDMA operation becomes the
 * RDMAP message(s) of RFC 5040 / RFC 7306 named in its Javadoc; {@link LocalInvalidate} and
 * {@link FastRegister} are local operations executed in send-queue order.
 *
 * <p>Common fields: {@code wrId} (echoed in the completion), the scatter/gather list, and
 * {@link SendFlag}s. {@code remoteStag}/{@code remoteAddress} name the peer's memory as the peer
 * advertised it (its region's STag and Tagged Offset, i.e. {@code MemoryRegion.address() + offset}).
 */
public sealed interface SendWorkRequest {

    long wrId();

    Set<SendFlag> flags();

    /** The local scatter/gather list (empty for operations without local data). */
    default List<Sge> sges() {
        return List.of();
    }

    /** RFC 5040 §5.3 Send (or Send with SE when {@link SendFlag#SOLICITED}): consumes one peer receive. */
    record Send(long wrId, List<Sge> sges, Set<SendFlag> flags) implements SendWorkRequest {
        public Send {
            sges = List.copyOf(sges);
            flags = Set.copyOf(flags);
        }
    }

    /**
     * RFC 5040 §5.3 Send with Invalidate (with SE when {@link SendFlag#SOLICITED}): like {@link Send},
     * and the peer invalidates its STag {@code invalidateStag} before completing the receive.
     */
    record SendWithInvalidate(long wrId, List<Sge> sges, Stag invalidateStag, Set<SendFlag> flags)
            implements SendWorkRequest {
        public SendWithInvalidate {
            sges = List.copyOf(sges);
            Objects.requireNonNull(invalidateStag, "invalidateStag");
            flags = Set.copyOf(flags);
        }
    }

    /** RFC 5040 §5.1 RDMA Write of the gathered data to the peer's ({@code remoteStag}, {@code remoteAddress}). */
    record RdmaWrite(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress, Set<SendFlag> flags)
            implements SendWorkRequest {
        public RdmaWrite {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }
    }

    /**
     * RFC 7306 §6 "RDMA Write with Immediate": an RDMA Write followed by an Immediate Data message
     * (8 octets, consumes a peer receive, whose completion reports {@code immediateData}).
     */
    record RdmaWriteWithImmediate(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress,
                                  long immediateData, Set<SendFlag> flags) implements SendWorkRequest {
        public RdmaWriteWithImmediate {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }
    }

    /**
     * RFC 5040 §5.2 RDMA Read of the peer's ({@code remoteStag}, {@code remoteAddress}) into the local
     * {@code sges} (registered with {@link Access#LOCAL_WRITE}); the length is the sum of the SGE lengths.
     * Each SGE becomes one Read Request (RDMAP reads into one sink STag per request), so a Read with
     * {@code n} SGEs takes {@code n} send-queue slots and {@code n} ORD credits.
     */
    record RdmaRead(long wrId, List<Sge> sges, Stag remoteStag, long remoteAddress, Set<SendFlag> flags)
            implements SendWorkRequest {
        public RdmaRead {
            sges = List.copyOf(sges);
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }
    }

    /** RFC 7306 §6 Immediate Data (with SE when {@link SendFlag#SOLICITED}): 8 octets in the peer's next receive completion. */
    record ImmediateData(long wrId, long immediateData, Set<SendFlag> flags) implements SendWorkRequest {
        public ImmediateData {
            flags = Set.copyOf(flags);
        }
    }

    /**
     * RFC 7306 §5.1.1 masked FetchAdd on the peer's 8-octet-aligned word; {@code addMask} 0 = plain
     * 64-bit add. The original value is in the completion ({@link WorkCompletion#atomicOriginalValue()})
     * and, if {@code result} is given (8 octets, LOCAL_WRITE), written there in the RNIC's memory byte
     * order (little-endian by default, see {@link RnicConfig#atomicByteOrder()}).
     */
    record AtomicFetchAdd(long wrId, Sge result, Stag remoteStag, long remoteAddress, long addData, long addMask,
                          Set<SendFlag> flags) implements SendWorkRequest {
        public AtomicFetchAdd {
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        @Override
        public List<Sge> sges() {
            return result == null ? List.of() : List.of(result);
        }
    }

    /**
     * RFC 7306 §5.1.2 masked CmpSwap: if the peer's word equals {@code compareData} on the bits of
     * {@code compareMask}, the bits of {@code swapMask} are replaced by {@code swapData} (all-ones masks:
     * plain compare-and-swap). Result as for {@link AtomicFetchAdd}.
     */
    record AtomicCompareSwap(long wrId, Sge result, Stag remoteStag, long remoteAddress, long compareData,
                             long compareMask, long swapData, long swapMask, Set<SendFlag> flags)
            implements SendWorkRequest {
        public AtomicCompareSwap {
            Objects.requireNonNull(remoteStag, "remoteStag");
            flags = Set.copyOf(flags);
        }

        @Override
        public List<Sge> sges() {
            return result == null ? List.of() : List.of(result);
        }
    }

    /**
     * Local invalidate ({@code IBV_WR_LOCAL_INV}): makes the fast-registration region's current STag
     * invalid, in send-queue order. Only regions from {@link ProtectionDomain#allocateFastRegistration}
     * can be invalidated (RFC 5040 §8.1.1: an STag shared by streams must not be invalidated behind
     * their back).
     */
    record LocalInvalidate(long wrId, MemoryRegion region, Set<SendFlag> flags) implements SendWorkRequest {
        public LocalInvalidate {
            Objects.requireNonNull(region, "region");
            flags = Set.copyOf(flags);
        }
    }

    /**
     * Fast registration ({@code IBV_WR_REG_MR}): binds {@code memory} (a direct buffer, at most the
     * region's maximum length) to the fast-registration region under the new STag {@code stag} (same
     * index, different key, normally {@code region.stag().withNextKey()}) with {@code access}, in
     * send-queue order. The base Tagged Offset is the memory's native address.
     */
    record FastRegister(long wrId, MemoryRegion region, ByteBuffer memory, Stag stag, Set<Access> access,
                        Set<SendFlag> flags) implements SendWorkRequest {
        public FastRegister {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(memory, "memory");
            Objects.requireNonNull(stag, "stag");
            access = Access.validate(access);
            flags = Set.copyOf(flags);
        }
    }
}
