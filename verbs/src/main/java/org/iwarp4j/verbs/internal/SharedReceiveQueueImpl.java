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
        return queue.offer(request);
    }

    /** The oldest receive, or {@code null}. */
    ReceiveWorkRequest take() {
        return closed ? null : queue.poll();
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
            queue.clear();
            pd.sharedReceiveQueueClosed();
        }
    }
}
