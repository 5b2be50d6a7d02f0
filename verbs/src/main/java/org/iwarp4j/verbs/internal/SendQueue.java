package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.RdmapOperation;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamState;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.SendWorkRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteOrder;

/**
 * The verbs send queue on the queue pair's event loop: a ring of slots in posting order, one per RDMAP
 * operation or local operation. RDMAP completes its operations in submission order [RDMAP-22], so the
 * n-th RDMAP completion belongs to the n-th RDMAP slot; local operations (local invalidate, fast
 * register) execute when they reach the loop — after every earlier request was handed to RDMAP and
 * before any later one — or, with FENCE, once every earlier request has completed. Completions leave
 * in posting order; a multi-SGE Read completes once, with its last part.
 */
final class SendQueue {

    private static final Logger LOG = LoggerFactory.getLogger(SendQueue.class);

    private final QueuePairImpl qp;
    private final Completions completions;
    private final ByteOrder atomicOrder;
    private final RdmapStream stream;

    private final int mask;
    private final SendPost[] posts;
    private final boolean[] rdmap;
    private final boolean[] lastPart;
    private final boolean[] done;
    private final CompletionStatus[] status;
    private final long[] atomicOriginal;
    private long head;
    private long tail;
    private long rdmapNext;

    /** Status of the request being retired, across its parts, and the slots its parts took. */
    private CompletionStatus requestStatus;
    private int requestSlots;
    private SendPost fenced;

    SendQueue(QueuePairImpl qp, Completions completions, RdmapStream stream, int depth, ByteOrder atomicOrder) {
        this.qp = qp;
        this.completions = completions;
        this.stream = stream;
        this.atomicOrder = atomicOrder;
        // A power of two at least the depth: slots are found with a mask (a division per lookup was a tenth of
        // the loop's time with small messages); the ring never holds more than depth requests.
        int size = Rings.size(depth);
        this.mask = size - 1;
        this.posts = new SendPost[size];
        this.rdmap = new boolean[size];
        this.lastPart = new boolean[size];
        this.done = new boolean[size];
        this.status = new CompletionStatus[size];
        this.atomicOriginal = new long[size];
    }

    /** Whether a FENCEd local operation holds the queue. */
    boolean blocked() {
        return fenced != null;
    }

    private int index(long seq) {
        return (int) (seq & mask);
    }

    /** Takes one request from the inbox (in posting order). */
    void submit(SendPost p) {
        if (p.isLocal()) {
            long seq = tail++;
            int i = index(seq);
            posts[i] = p;
            rdmap[i] = false;
            lastPart[i] = true;
            done[i] = false;
            if (p.fence && head != seq) {
                fenced = p; // executes when every earlier request has completed (retire)
                return;
            }
            executeLocal(i);
            retire();
            return;
        }
        RdmapOperation[] ops = p.operations;
        for (int k = 0; k < ops.length; k++) {
            long seq = tail++;
            int i = index(seq);
            posts[i] = p;
            rdmap[i] = true;
            lastPart[i] = k == ops.length - 1;
            done[i] = false;
            try {
                stream.submit(ops[k]);
            } catch (RuntimeException e) {
                // RDMAP refused the operation (e.g. a Read sink deregistered since posting); it released the data.
                LOG.debug("RDMAP refused work request {}: {}", p.wrId, e.getMessage());
                rdmap[i] = false;
                done[i] = true;
                status[i] = CompletionStatus.LOCAL_PROTECTION_ERROR;
                for (int rest = k + 1; rest < ops.length; rest++) {
                    ByteBuf d = ops[rest].data();
                    if (d != null) {
                        d.release();
                    }
                    long s = tail++;
                    int j = index(s);
                    posts[j] = p;
                    rdmap[j] = false;
                    lastPart[j] = rest == ops.length - 1;
                    done[j] = true;
                    status[j] = CompletionStatus.WORK_REQUEST_FLUSHED;
                }
                retire();
                return;
            }
        }
    }

    /** RDMAP completed its oldest outstanding operation. */
    void onRdmapComplete(OperationStatus rdmapStatus, long originalValue) {
        if (rdmapNext < head) {
            rdmapNext = head; // everything retired is done; its ring slots may already hold newer requests
        }
        while (rdmapNext < tail && (!rdmap[index(rdmapNext)] || done[index(rdmapNext)])) {
            rdmapNext++;
        }
        if (rdmapNext >= tail) {
            LOG.warn("RDMAP completion with no operation outstanding");
            return;
        }
        int i = index(rdmapNext++);
        done[i] = true;
        status[i] = completions.sendStatus(rdmapStatus, posts[i].opcode);
        atomicOriginal[i] = originalValue;
        retire();
    }

    /** Reports completed slots from the oldest forward [RDMAP-22]. */
    void retire() {
        while (head < tail) {
            int i = index(head);
            if (!done[i]) {
                if (fenced != null && posts[i] == fenced) {
                    fenced = null;
                    executeLocal(i);
                    qp.requestDrain();
                    continue;
                }
                return;
            }
            SendPost p = posts[i];
            CompletionStatus s = status[i];
            long original = atomicOriginal[i];
            boolean last = lastPart[i];
            if (requestStatus == null || requestStatus == CompletionStatus.SUCCESS) {
                requestStatus = s;
            }
            posts[i] = null;
            head++;
            requestSlots++;
            if (last) {
                CompletionStatus finalStatus = requestStatus;
                int slots = requestSlots;
                requestStatus = null;
                requestSlots = 0;
                if (finalStatus == CompletionStatus.SUCCESS && p.resultRegion != null) {
                    writeAtomicResult(p, original);
                }
                if (p.signaled || finalStatus != CompletionStatus.SUCCESS || p.future != null) {
                    // As with a verbs send queue, the request's slots stay taken until its completion is polled,
                    // so a completion queue as deep as its queues' depths never overflows.
                    completions.send(p.wrId, finalStatus, p.opcode, p.byteLength, original, p.future, slots);
                } else {
                    qp.releaseSendSlots(slots); // no completion to poll: free now
                }
            }
        }
    }

    private void writeAtomicResult(SendPost p, long original) {
        ByteBuf m = p.resultRegion.memory();
        if (m == null) {
            return;
        }
        int at = (int) p.resultOffset;
        if (atomicOrder == ByteOrder.LITTLE_ENDIAN) {
            m.setLongLE(at, original);
        } else {
            m.setLong(at, original);
        }
    }

    private void executeLocal(int i) {
        SendPost p = posts[i];
        done[i] = true;
        if (stream.state() != RdmapStreamState.OPERATIONAL) {
            status[i] = completions.flushed();
            return;
        }
        if (p.request instanceof SendWorkRequest.BindMemoryWindow b) {
            String error = ((WindowImpl) p.localTarget).bind(qp, stream.config().streamIdentity(), b.newStag(),
                    (RegionImpl) b.region(), b.offset(), b.length(), b.access());
            if (error != null) {
                LOG.debug("memory window bind of work request {} failed: {}", p.wrId, error);
            }
            status[i] = error == null ? CompletionStatus.SUCCESS : CompletionStatus.MEMORY_WINDOW_BIND_ERROR;
            return;
        }
        if (p.request instanceof SendWorkRequest.LocalInvalidate li && p.localTarget instanceof WindowImpl w) {
            status[i] = w.invalidateLocally(qp, li.stag().value()) ? CompletionStatus.SUCCESS
                    : CompletionStatus.LOCAL_PROTECTION_ERROR;
            return;
        }
        if (p.request instanceof SendWorkRequest.LocalInvalidate li) {
            // the key is checked now: earlier requests of this queue (a fast registration) may have changed it
            RegionImpl r = (RegionImpl) p.localTarget;
            status[i] = r.stagValue() == li.stag().value() && r.invalidate() ? CompletionStatus.SUCCESS
                    : CompletionStatus.LOCAL_PROTECTION_ERROR;
            return;
        }
        SendWorkRequest.FastRegister fr = (SendWorkRequest.FastRegister) p.request;
        ByteBuf memory = Unpooled.wrappedBuffer(fr.memory().slice());
        long base = memory.hasMemoryAddress() ? memory.memoryAddress() : qp.rnic().syntheticBase(memory.capacity());
        String error = ((RegionImpl) fr.region()).bind(memory, base, fr.access(), fr.stag());
        if (error != null) {
            LOG.debug("fast registration of work request {} failed: {}", p.wrId, error);
        }
        status[i] = error == null ? CompletionStatus.SUCCESS : CompletionStatus.LOCAL_PROTECTION_ERROR;
    }
}
