package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.rdmap.stream.RdmapOperation;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.WorkCompletion;

/**
 * A send work request validated and translated on the poster's thread, ready for the queue pair's
 * event loop: either RDMAP operations (one per Read SGE, else one) or a local operation.
 *
 * <p>{@code workRequestId}s of the RDMAP operations are filled in on the loop (they index the send
 * ring); the records are rebuilt there only when a sequence must be attached, see
 * {@link SendQueue#submit}. Data buffers are owned by the post (one reference each); a prepared post
 * ({@link #reusable}) keeps its own reference and hands out a new one per execution.
 */
final class SendPost {

    final SendWorkRequest request;
    final long wrId;
    final boolean signaled;
    final boolean fence;
    final CompletionOpcode opcode;
    final long byteLength;
    /** RDMAP operations, in order (workRequestId 0: replaced on the loop); empty for local operations. */
    final RdmapOperation[] operations;
    /** For atomics: where the original value goes (or null). */
    final RegionImpl resultRegion;
    final long resultOffset;
    final boolean reusable;
    /** For a local operation: the region (invalidate, fast register) or window (invalidate, bind) it acts on. */
    final Object localTarget;
    /** The future of a {@code postSendAsync} request (completed instead of the send CQ), else {@code null}. */
    LoopSafeFuture<WorkCompletion> future;

    SendPost(SendWorkRequest request, boolean signaled, CompletionOpcode opcode, long byteLength,
             RdmapOperation[] operations, RegionImpl resultRegion, long resultOffset, boolean reusable) {
        this(request, signaled, opcode, byteLength, operations, resultRegion, resultOffset, reusable, null);
    }

    /** A local operation on {@code target}. */
    static SendPost local(SendWorkRequest request, boolean signaled, CompletionOpcode opcode, long byteLength,
                          boolean reusable, Object target) {
        return new SendPost(request, signaled, opcode, byteLength, new RdmapOperation[0], null, 0, reusable, target);
    }

    private SendPost(SendWorkRequest request, boolean signaled, CompletionOpcode opcode, long byteLength,
                     RdmapOperation[] operations, RegionImpl resultRegion, long resultOffset, boolean reusable,
                     Object localTarget) {
        this.localTarget = localTarget;
        this.request = request;
        this.wrId = request.wrId();
        this.signaled = signaled;
        this.fence = request.flags().contains(SendFlag.FENCE);
        this.opcode = opcode;
        this.byteLength = byteLength;
        this.operations = operations;
        this.resultRegion = resultRegion;
        this.resultOffset = resultOffset;
        this.reusable = reusable;
    }

    /** Send-queue slots this post takes. */
    int slots() {
        return slotsOf(request);
    }

    /**
     * Send-queue slots {@code request} takes, known before it is built: one per RDMAP operation, i.e. one per
     * Read SGE (one Read Request each), else one (a local operation too).
     */
    static int slotsOf(SendWorkRequest request) {
        return request instanceof SendWorkRequest.RdmaRead r ? Math.max(1, r.sges().size()) : 1;
    }

    boolean isLocal() {
        return operations.length == 0;
    }

    /** One more reference on every data buffer (a prepared post, before each execution). */
    void retainData() {
        for (RdmapOperation op : operations) {
            ByteBuf d = op.data();
            if (d != null) {
                d.retain();
            }
        }
    }

    /** Drops the references this post holds (a refused or discarded post). */
    void releaseData() {
        for (RdmapOperation op : operations) {
            ByteBuf d = op.data();
            if (d != null && d.refCnt() > 0) {
                d.release();
            }
        }
    }
}
