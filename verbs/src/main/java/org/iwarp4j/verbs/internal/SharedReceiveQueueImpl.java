package org.iwarp4j.verbs.internal;

import io.netty.util.internal.PlatformDependent;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.SharedReceiveQueue;
import org.iwarp4j.verbs.VerbsException;

import java.util.Objects;
import java.util.Queue;

/**
 * A shared receive queue: a bounded lock-free multi-producer multi-consumer queue of validated receive
 * requests. Queue pairs on any event loop take one at the moment a Send arrives for which they have no
 * receive ({@code RdmapListener.onReceiveNeeded}).
 */
final class SharedReceiveQueueImpl implements SharedReceiveQueue {

    private final ProtectionDomainImpl pd;
    private final int capacity;
    private final int maxSge;
    private final Queue<ReceiveWorkRequest> queue;
    private volatile boolean closed;

    SharedReceiveQueueImpl(ProtectionDomainImpl pd, int capacity, int maxSge) {
        this.pd = pd;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.queue = PlatformDependent.newFixedMpmcQueue(capacity);
    }

    ProtectionDomainImpl pd() {
        return pd;
    }

    @Override
    public void postReceive(ReceiveWorkRequest request) {
        if (!tryPostReceive(request)) {
            throw VerbsException.queueFull(request, "shared receive queue", capacity);
        }
    }

    @Override
    public boolean tryPostReceive(ReceiveWorkRequest request) {
        Objects.requireNonNull(request, "request");
        if (closed) {
            throw new VerbsException(VerbsException.Reason.WRONG_STATE, request, "shared receive queue is closed");
        }
        SendPostBuilder.checkReceive(pd, request, maxSge);
        ResourceLimit limit = pd.rnicImpl().postedReceives();
        if (!limit.tryAcquire(1)) {
            throw limit.refusal(request, "posting a receive to a shared receive queue");
        }
        if (!queue.offer(request)) {
            limit.release(1);
            return false;
        }
        if (closed) {
            drain(); // closed meanwhile: nothing takes from it any more
        }
        return true;
    }

    /**
     * The oldest receive, or {@code null}. It leaves the RNIC's {@code maxPostedReceives} count here: a queue pair
     * holds at most a small window of them (QueuePairImpl.SHARED_RECEIVE_WINDOW).
     */
    ReceiveWorkRequest take() {
        if (closed) {
            return null;
        }
        ReceiveWorkRequest r = queue.poll();
        if (r != null) {
            pd.rnicImpl().postedReceives().release(1);
        }
        return r;
    }

    private void drain() {
        int n = 0;
        while (queue.poll() != null) {
            n++;
        }
        if (n > 0) {
            pd.rnicImpl().postedReceives().release(n);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int available() {
        return queue.size();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            drain();
            pd.sharedReceiveQueueClosed();
        }
    }
}
