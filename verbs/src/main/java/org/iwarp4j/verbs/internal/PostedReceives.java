package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.ReceiveWorkRequest;

/**
 * The verbs receive queue on the queue pair's event loop: a ring of {@link SgeReceiveBuffer}s posted to
 * RDMAP's QN 0 in order. Receives complete in the order they were posted (RFC 5040 §5.3, messages are
 * delivered in order [RDMAP-23], flushes too), so the ring is retired from its head. With a shared
 * receive queue nothing is posted in advance: {@link #supplyFromShared()} takes one as a message arrives.
 */
final class PostedReceives {

    /** The ring's first size. */
    static final int INITIAL_RING = 16;

    private final QueuePairImpl qp;
    private final Completions completions;
    /** Posted receives by sequence number (modulo its length); grows up to {@link #depth}. */
    private SgeReceiveBuffer[] ring;
    private final int depth;
    private final SharedReceiveQueueImpl shared;
    private final RdmapStream stream;
    private long head;
    private long tail;

    PostedReceives(QueuePairImpl qp, Completions completions, RdmapStream stream, int depth,
                   SharedReceiveQueueImpl shared) {
        this.qp = qp;
        this.completions = completions;
        this.stream = stream;
        this.shared = shared;
        // The ring starts small and grows with the receives outstanding, and each slot's buffer is made when a
        // receive first reaches it: a queue pair that posts few receives holds buffers for those only, whatever
        // its depth; made once, a buffer is reused.
        this.depth = depth;
        this.ring = new SgeReceiveBuffer[Math.min(depth, INITIAL_RING)];
    }

    /** Posts one receive to RDMAP (QN 0). */
    void post(ReceiveWorkRequest request) {
        if (tail - head >= ring.length && ring.length < depth) {
            grow();
        }
        if (tail - head >= ring.length) {
            // cannot happen: the queue pair bounds posted receives by the depth
            throw new IllegalStateException("receive ring full");
        }
        int slot = (int) (tail % ring.length);
        SgeReceiveBuffer buffer = ring[slot];
        if (buffer == null) {
            buffer = new SgeReceiveBuffer();
            ring[slot] = buffer;
        }
        if (!buffer.reset(request)) {
            // a region was deregistered after the request was validated
            completions.receive(request.wrId(), CompletionStatus.LOCAL_PROTECTION_ERROR, null, 0, 0, 0);
            return;
        }
        tail++;
        stream.postReceive(request.wrId(), buffer);
    }

    /** Doubles the full ring (at most to the depth); every receive in it is posted and keeps its sequence. */
    private void grow() {
        SgeReceiveBuffer[] bigger = new SgeReceiveBuffer[(int) Math.min(depth, 2L * ring.length)];
        for (long s = head; s < tail; s++) {
            bigger[(int) (s % bigger.length)] = ring[(int) (s % ring.length)];
        }
        ring = bigger;
    }

    /** RDMAP completed the oldest posted receive. */
    void onComplete(long wrId, OperationStatus rdmapStatus, RdmapOpcode opcode, int length,
                    int invalidatedStag, long immediate) {
        if (head < tail) {
            ring[(int) (head % ring.length)].release();
            head++;
        }
        // the queue pair's receive slot stays taken until the completion is polled (Completions.receive)
        if (rdmapStatus == OperationStatus.LOCAL_ERROR) {
            // RDMAP reports the receive an erroneous message consumed just before it fails the stream;
            // the completion waits for that (onFatalError) so that it can carry the Terminate.
            pendingErrorWrId = wrId;
            pendingErrorOpcode = opcode;
            pendingError = true;
            return;
        }
        completions.receive(wrId, completions.receiveStatus(rdmapStatus), opcode, length, invalidatedStag, immediate);
    }

    private boolean pendingError;
    private long pendingErrorWrId;
    private RdmapOpcode pendingErrorOpcode;

    /** The stream failed: report the receive its erroneous message consumed, now with the Terminate known. */
    void streamFailed() {
        if (pendingError) {
            pendingError = false;
            CompletionStatus status = pendingErrorOpcode != null && pendingErrorOpcode.carriesInvalidateStag()
                    ? CompletionStatus.LOCAL_PROTECTION_ERROR : CompletionStatus.LOCAL_QP_OPERATION_ERROR;
            completions.receive(pendingErrorWrId, status, pendingErrorOpcode, 0, 0, 0);
        }
    }

    /** RDMAP found no receive for an arriving message: take one from the shared receive queue. */
    void supplyFromShared() {
        if (shared == null || tail - head >= ring.length) {
            return;
        }
        ReceiveWorkRequest request = shared.take();
        if (request != null) {
            post(request);
        }
    }
}
