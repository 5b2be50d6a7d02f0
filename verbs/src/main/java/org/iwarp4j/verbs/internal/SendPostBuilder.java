package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.stream.RdmapOperation;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.VerbsException;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Validates a work request on the poster's thread and translates it into a {@link SendPost} — the
 * checks {@code ibv_post_send} makes before anything is queued — so that the event loop only submits.
 * Every refusal is a {@link VerbsException} naming the request and the rule.
 */
final class SendPostBuilder {

    private final QueuePairImpl qp;
    private final QueuePairConfig config;

    SendPostBuilder(QueuePairImpl qp) {
        this.qp = qp;
        this.config = qp.config();
    }

    SendPost build(SendWorkRequest wr, boolean reusable) throws VerbsException {
        boolean signaled = config.signalAll() || wr.flags().contains(SendFlag.SIGNALED);
        boolean solicited = wr.flags().contains(SendFlag.SOLICITED);
        boolean fence = wr.flags().contains(SendFlag.FENCE);
        if (wr.sges().size() > config.maxSge()) {
            throw new VerbsException(VerbsException.Reason.TOO_MANY_SGES, wr, wr.sges().size()
                    + " SGEs, the queue pair allows " + config.maxSge());
        }
        if (needsRfc7306(wr) && !config.rfc7306()) {
            throw new VerbsException(VerbsException.Reason.NEEDS_RFC7306, wr, "this operation needs RFC 7306, which"
                    + " is off on this queue pair (siw-compatible mode)");
        }
        if (wr instanceof SendWorkRequest.Send s) {
            ByteBuf data = gather(wr, s.sges());
            RdmapOperation op = new RdmapOperation.Send(wr.wrId(), data, solicited, false, 0, fence);
            return post(wr, signaled, CompletionOpcode.SEND, data.readableBytes(), reusable, op);
        }
        if (wr instanceof SendWorkRequest.SendWithInvalidate s) {
            ByteBuf data = gather(wr, s.sges());
            RdmapOperation op =
                    new RdmapOperation.Send(wr.wrId(), data, solicited, true, s.invalidateStag().value(), fence);
            return post(wr, signaled, CompletionOpcode.SEND_WITH_INVALIDATE, data.readableBytes(), reusable, op);
        }
        if (wr instanceof SendWorkRequest.RdmaWrite w) {
            ByteBuf data = gather(wr, w.sges());
            checkRemoteRange(wr, w.remoteAddress(), data);
            RdmapOperation op =
                    new RdmapOperation.RdmaWrite(wr.wrId(), w.remoteStag().value(), w.remoteAddress(), data, fence);
            return post(wr, signaled, CompletionOpcode.RDMA_WRITE, data.readableBytes(), reusable, op);
        }
        if (wr instanceof SendWorkRequest.RdmaWriteWithImmediate w) {
            ByteBuf data = gather(wr, w.sges());
            checkRemoteRange(wr, w.remoteAddress(), data);
            RdmapOperation op = new RdmapOperation.RdmaWriteWithImmediate(wr.wrId(), w.remoteStag().value(),
                    w.remoteAddress(), data, w.immediateData(), solicited, fence);
            return post(wr, signaled, CompletionOpcode.RDMA_WRITE_WITH_IMMEDIATE, data.readableBytes(), reusable, op);
        }
        if (wr instanceof SendWorkRequest.RdmaRead r) {
            return read(r, signaled, fence, reusable);
        }
        if (wr instanceof SendWorkRequest.ImmediateData imm) {
            RdmapOperation op = new RdmapOperation.ImmediateData(wr.wrId(), imm.immediateData(), solicited, fence);
            return post(wr, signaled, CompletionOpcode.IMMEDIATE_DATA, 0, reusable, op);
        }
        if (wr instanceof SendWorkRequest.AtomicFetchAdd a) {
            checkAtomic(wr, a.remoteAddress(), a.result().orElse(null));
            RdmapOperation op = new RdmapOperation.AtomicFetchAdd(wr.wrId(), a.remoteStag().value(), a.remoteAddress(),
                    a.addData(), a.addMask(), fence);
            return atomic(wr, signaled, CompletionOpcode.ATOMIC_FETCH_ADD, a.result().orElse(null), reusable, op);
        }
        if (wr instanceof SendWorkRequest.AtomicCompareSwap a) {
            checkAtomic(wr, a.remoteAddress(), a.result().orElse(null));
            RdmapOperation op = new RdmapOperation.AtomicCompareSwap(wr.wrId(), a.remoteStag().value(),
                    a.remoteAddress(), a.compareData(), a.compareMask(), a.swapData(), a.swapMask(), fence);
            return atomic(wr, signaled, CompletionOpcode.ATOMIC_CMP_SWAP, a.result().orElse(null), reusable, op);
        }
        if (wr instanceof SendWorkRequest.LocalInvalidate li) {
            return SendPost.local(wr, signaled, CompletionOpcode.LOCAL_INVALIDATE, 0, reusable, invalidateTarget(li));
        }
        if (wr instanceof SendWorkRequest.BindMemoryWindow b) {
            return SendPost.local(wr, signaled, CompletionOpcode.BIND_MEMORY_WINDOW, b.length(), reusable,
                    bindTarget(b));
        }
        SendWorkRequest.FastRegister fr = (SendWorkRequest.FastRegister) wr;
        RegionImpl region = fastRegion(wr, fr.region());
        if (!fr.memory().isDirect()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr,
                    "fast registration needs direct memory");
        }
        if (fr.memory().remaining() > region.maxLength()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, fr.memory().remaining()
                    + " octets exceed the region's maximum of " + region.maxLength());
        }
        if (fr.stag().index() != region.stag().index()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, "STag " + fr.stag()
                    + " does not keep the region's index " + region.stag().index());
        }
        return SendPost.local(wr, signaled, CompletionOpcode.FAST_REGISTER, fr.memory().remaining(), reusable, region);
    }

    /** The region (or window) a local invalidate names: this queue pair's domain, and invalidatable. */
    private Object invalidateTarget(SendWorkRequest.LocalInvalidate li) {
        StagOwner owner = qp.rnic().stagTable().ownerAtIndex(li.stag().value());
        if (owner instanceof WindowImpl w) {
            if (w.pd() != qp.pd()) {
                throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, li, "memory window " + li.stag()
                        + " is not of this queue pair's protection domain");
            }
            return w; // whether it is bound here, with this key, is checked when it executes
        }
        RegionImpl r = owner instanceof RegionImpl region ? region : null;
        if (r == null) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, li, "STag " + li.stag()
                    + " names no region or window of this RNIC");
        }
        return fastRegion(li, r);
    }

    /** The window of a bind, checked against this queue pair's domain; the rest is checked when it executes. */
    private WindowImpl bindTarget(SendWorkRequest.BindMemoryWindow b) {
        if (!(b.window() instanceof WindowImpl w) || w.pd() != qp.pd()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, b, "window " + b.window()
                    + " is not of this queue pair's protection domain");
        }
        ownRegion(b, b.region());
        if (b.newStag().index() != w.index()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, b, "STag " + b.newStag()
                    + " does not keep the window's index " + w.index());
        }
        if (b.offset() + b.length() > b.region().length()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, b, "[" + b.offset() + ", "
                    + (b.offset() + b.length()) + ") is not inside the " + b.region().length()
                    + " octets of the region");
        }
        return w;
    }

    private static boolean needsRfc7306(SendWorkRequest wr) {
        return wr instanceof SendWorkRequest.RdmaWriteWithImmediate || wr instanceof SendWorkRequest.ImmediateData
                || wr instanceof SendWorkRequest.AtomicFetchAdd || wr instanceof SendWorkRequest.AtomicCompareSwap;
    }

    private SendPost post(SendWorkRequest wr, boolean signaled, CompletionOpcode opcode, long length, boolean reusable,
                          RdmapOperation op) {
        return new SendPost(wr, signaled, opcode, length, new RdmapOperation[] {op}, null, 0, reusable);
    }

    private SendPost read(SendWorkRequest.RdmaRead r, boolean signaled, boolean fence, boolean reusable)
            throws VerbsException {
        List<Sge> sges = r.sges();
        long total = 0;
        for (Sge sge : sges) {
            checkSge(r, sge, Access.LOCAL_WRITE);
            total += sge.length();
        }
        if (total > qp.rnic().config().maxMessageSize()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, r, "Read of " + total
                    + " octets exceeds the RNIC's maximum message size");
        }
        if (total > 0 && Long.compareUnsigned(r.remoteAddress() + total, r.remoteAddress()) < 0) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, r, "remote address + length wraps 2^64");
        }
        if (sges.isEmpty()) {
            // RFC 5040 §5.2: a zero-length Read is valid; its sink is not checked.
            return post(r, signaled, CompletionOpcode.RDMA_READ, 0, reusable,
                    new RdmapOperation.RdmaRead(r.wrId(), 0, 0, 0, r.remoteStag().value(), r.remoteAddress(), fence));
        }
        // RDMAP reads into one sink STag per Read Request: one request per SGE, consecutive remote offsets.
        RdmapOperation[] ops = new RdmapOperation[sges.size()];
        long remote = r.remoteAddress();
        for (int i = 0; i < ops.length; i++) {
            Sge sge = sges.get(i);
            RegionImpl region = (RegionImpl) sge.region();
            ops[i] = new RdmapOperation.RdmaRead(r.wrId(), region.stagValue(), region.address() + sge.offset(),
                    sge.length(), r.remoteStag().value(), remote, fence && i == 0);
            remote += sge.length();
        }
        return new SendPost(r, signaled, CompletionOpcode.RDMA_READ, total, ops, null, 0, reusable);
    }

    private SendPost atomic(SendWorkRequest wr, boolean signaled, CompletionOpcode opcode, Sge result, boolean reusable,
                            RdmapOperation op) {
        RegionImpl region = result == null ? null : (RegionImpl) result.region();
        return new SendPost(wr, signaled, opcode, 8, new RdmapOperation[] {op}, region,
                result == null ? 0 : result.offset(), reusable);
    }

    private void checkAtomic(SendWorkRequest wr, long remoteAddress, Sge result) throws VerbsException {
        // RFC 7306 §5.1 [EXT-04]: the target is 8-octet aligned.
        if (!AtomicMath.isAligned(remoteAddress)) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, String.format(
                    "atomic target 0x%x is not 8-octet aligned (RFC 7306 §5.1)", remoteAddress));
        }
        if (result != null) {
            if (result.length() != 8) {
                throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr,
                        "the atomic result SGE must be 8 octets");
            }
            checkSge(wr, result, Access.LOCAL_WRITE);
        }
    }

    private void checkRemoteRange(SendWorkRequest wr, long remoteAddress, ByteBuf data) throws VerbsException {
        int length = data.readableBytes();
        if (length > 0 && Long.compareUnsigned(remoteAddress + length, remoteAddress) < 0) {
            data.release();
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, "remote address + length wraps 2^64");
        }
    }

    private RegionImpl fastRegion(SendWorkRequest wr, MemoryRegion region) throws VerbsException {
        RegionImpl r = ownRegion(wr, region);
        if (!r.isFastRegistration()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr,
                    "only fast-registration regions can be invalidated or fast-registered");
        }
        return r;
    }

    private RegionImpl ownRegion(Object wr, MemoryRegion region) throws VerbsException {
        return ownRegion(qp.pd(), wr, region);
    }

    private static RegionImpl ownRegion(ProtectionDomainImpl pd, Object wr, MemoryRegion region) throws VerbsException {
        if (!(region instanceof RegionImpl r) || r.pd() != pd) {
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "region " + region
                    + " is not registered in this queue pair's protection domain");
        }
        return r;
    }

    /** Checks one SGE: own PD, valid, inside the region, with {@code right} (null = local read). */
    void checkSge(Object wr, Sge sge, Access right) throws VerbsException {
        checkSge(qp.pd(), wr, sge, right);
    }

    static void checkSge(ProtectionDomainImpl pd, Object wr, Sge sge, Access right) throws VerbsException {
        RegionImpl r = ownRegion(pd, wr, sge.region());
        if (!r.isValid()) {
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "region " + r + " is not valid");
        }
        if (sge.offset() + sge.length() > r.length()) {
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "SGE offset " + sge.offset() + " length "
                    + sge.length() + " exceeds the region's " + r.length() + " octets");
        }
        if (right != null && !r.allows(right)) {
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "region " + r + " lacks " + right);
        }
    }

    /** Validates a receive request's SGEs (LOCAL_WRITE, inside the regions) and returns its capacity. */
    static long checkReceive(ProtectionDomainImpl pd, ReceiveWorkRequest wr, int maxSge) throws VerbsException {
        if (wr.sges().size() > maxSge) {
            throw new VerbsException(VerbsException.Reason.TOO_MANY_SGES, wr, wr.sges().size()
                    + " SGEs, the queue allows " + maxSge);
        }
        long total = 0;
        for (Sge sge : wr.sges()) {
            checkSge(pd, wr, sge, Access.LOCAL_WRITE);
            total += sge.length();
        }
        if (total > Integer.MAX_VALUE) {
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr,
                    "receive of " + total + " octets is too large");
        }
        return total;
    }

    /**
     * The data of a Send/Write: one retained slice for one SGE, a composite of retained slices for
     * several (never copied), or a copy for {@link SendFlag#INLINE}.
     */
    private ByteBuf gather(SendWorkRequest wr, List<Sge> sges) throws VerbsException {
        long total = 0;
        boolean inline = wr.flags().contains(SendFlag.INLINE);
        for (Sge sge : sges) {
            if (sge.isInline()) {
                if (!inline) {
                    throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr,
                            "an SGE over unregistered memory (Sge.inline) needs SendFlag.INLINE");
                }
                if (sge.offset() + sge.length() > sge.region().length()) {
                    throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "SGE offset " + sge.offset()
                            + " length " + sge.length() + " exceeds the " + sge.region().length() + " inline octets");
                }
            } else {
                checkSge(wr, sge, null);
            }
            total += sge.length();
        }
        if (total > qp.rnic().config().maxMessageSize()) {
            throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, "message of " + total
                    + " octets exceeds the RNIC's maximum message size");
        }
        if (sges.isEmpty()) {
            return Unpooled.EMPTY_BUFFER;
        }
        if (inline) {
            if (total > config.maxInlineData()) {
                throw new VerbsException(VerbsException.Reason.INVALID_REQUEST, wr, total
                        + " inline octets exceed maxInlineData " + config.maxInlineData());
            }
            ByteBuf copy = qp.rnic().allocator().directBuffer((int) total);
            try {
                for (Sge sge : sges) {
                    if (sge.isInline()) {
                        ByteBuffer data = sge.region().buffer();
                        data.position((int) sge.offset()).limit((int) sge.offset() + sge.length());
                        copy.writeBytes(data);
                    } else {
                        copy.writeBytes(((RegionImpl) sge.region()).memory(), (int) sge.offset(), sge.length());
                    }
                }
            } catch (RuntimeException e) {
                copy.release();
                // a region deregistered since checkSge: its memory is gone (null or released)
                throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "region was deregistered: " + e);
            }
            return copy;
        }
        if (sges.size() == 1) {
            return slice(wr, sges.get(0));
        }
        CompositeByteBuf composite = qp.rnic().allocator().compositeDirectBuffer(sges.size());
        try {
            for (Sge sge : sges) {
                composite.addComponent(true, slice(wr, sge));
            }
        } catch (RuntimeException e) {
            composite.release();
            throw e;
        }
        return composite;
    }

    private static ByteBuf slice(SendWorkRequest wr, Sge sge) throws VerbsException {
        ByteBuf m = ((RegionImpl) sge.region()).memory();
        try {
            return m.retainedSlice((int) sge.offset(), sge.length());
        } catch (RuntimeException e) {
            // deregistered concurrently
            throw new VerbsException(VerbsException.Reason.INVALID_SGE, wr, "region was deregistered: " + e);
        }
    }
}
