package org.iwarp4j.verbs.internal;

import io.netty.util.internal.PlatformDependent;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.VerbsException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hand-over of work requests from posting threads to the queue pair's event loop, and the slots of its send
 * and receive queues. A request takes its slots with one CAS before it enters a fixed-size MPSC queue (no
 * allocation per offer, unlike a chunked queue) and gives them back only when its completion has been polled (or
 * when it completes without one), so neither queue ever holds more than its depth.
 */
final class WorkRequestInbox {

    private final int sendDepth;
    private final int receiveDepth;
    /**
     * The hand-over queues, each made by the first request that enters it ({@link #sends()}): a queue pair that
     * never sends (or never posts a receive) holds no queue of its full depth for it. Once made, a queue is kept.
     */
    private volatile Queue<SendPost> sends;
    private volatile Queue<ReceiveWorkRequest> receives;
    private final AtomicInteger sendUsed = new AtomicInteger();
    private final AtomicInteger receiveUsed = new AtomicInteger();
    /** The queues' names in a refusal, made once: a refusal builds no string ({@link VerbsException#queueFull}). */
    private final String sendQueueName;
    private final String receiveQueueName;

    WorkRequestInbox(int queuePairNumber, int sendDepth, int receiveDepth) {
        this.sendQueueName = "send queue of queue pair " + queuePairNumber;
        this.receiveQueueName = "receive queue of queue pair " + queuePairNumber;
        this.sendDepth = sendDepth;
        this.receiveDepth = receiveDepth;
    }

    private static final VarHandle SENDS;
    private static final VarHandle RECEIVES;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENDS = l.findVarHandle(WorkRequestInbox.class, "sends", Queue.class);
            RECEIVES = l.findVarHandle(WorkRequestInbox.class, "receives", Queue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The send hand-over queue, made by the first producer that needs it (a CAS decides between racing ones). */
    private Queue<SendPost> sends() {
        Queue<SendPost> q = sends;
        if (q == null) {
            Queue<SendPost> made = PlatformDependent.newFixedMpscQueue(Math.max(2, sendDepth));
            q = SENDS.compareAndSet(this, null, made) ? made : sends;
        }
        return q;
    }

    private Queue<ReceiveWorkRequest> receives() {
        Queue<ReceiveWorkRequest> q = receives;
        if (q == null) {
            Queue<ReceiveWorkRequest> made = PlatformDependent.newFixedMpscQueue(Math.max(2, receiveDepth));
            q = RECEIVES.compareAndSet(this, null, made) ? made : receives;
        }
        return q;
    }

    /** The refusal of {@code request} by the full send queue. */
    VerbsException sendQueueFull(Object request) {
        return VerbsException.queueFull(request, sendQueueName, sendDepth);
    }

    /** The refusal of {@code request} by the full receive queue. */
    VerbsException receiveQueueFull(Object request) {
        return VerbsException.queueFull(request, receiveQueueName, receiveDepth);
    }

    /** Whether {@code slots} more send slots are free now (a hint: another poster may take them first). */
    boolean sendRoomFor(int slots) {
        return sendUsed.get() + slots <= sendDepth;
    }

    /** Takes the post's slots and hands it over; false (its data released) when the send queue is full. */
    boolean offerSend(SendPost post) {
        int slots = post.slots();
        if (!takeSendSlots(post)) {
            return false;
        }
        if (!sends().offer(post)) {
            releaseSendSlots(slots);
            post.releaseData();
            throw new IllegalStateException("send hand-over queue full with " + sendUsed.get() + " slots in use");
        }
        return true;
    }

    /**
     * Takes the post's slots without handing it over (the loop takes it at once, {@code QueuePairImpl.tryEnqueue});
     * false (its data released) when the send queue is full.
     */
    boolean takeSendSlots(SendPost post) {
        int slots = post.slots();
        while (true) {
            int used = sendUsed.get();
            if (used + slots > sendDepth) {
                post.releaseData();
                return false;
            }
            if (sendUsed.compareAndSet(used, used + slots)) {
                return true;
            }
        }
    }

    /** Takes a receive slot and hands the request over; false when the receive queue is full. */
    boolean offerReceive(ReceiveWorkRequest request) {
        if (!takeReceiveSlot()) {
            return false;
        }
        if (!receives().offer(request)) {
            releaseReceiveSlot();
            throw new IllegalStateException("receive hand-over queue full with " + receiveUsed.get() + " in use");
        }
        return true;
    }

    /** Takes a receive slot without handing a request over (the loop takes it at once); false when full. */
    boolean takeReceiveSlot() {
        while (true) {
            int used = receiveUsed.get();
            if (used >= receiveDepth) {
                return false;
            }
            if (receiveUsed.compareAndSet(used, used + 1)) {
                return true;
            }
        }
    }

    /** On the loop: whether sends handed over wait to be taken (a post taken at once must not pass them). */
    boolean sendsWaiting() {
        Queue<SendPost> q = sends;
        return q != null && !q.isEmpty();
    }

    /** On the loop: whether receives handed over wait to be taken. */
    boolean receivesWaiting() {
        Queue<ReceiveWorkRequest> q = receives;
        return q != null && !q.isEmpty();
    }

    void releaseSendSlots(int n) {
        sendUsed.addAndGet(-n);
    }

    void releaseReceiveSlot() {
        receiveUsed.decrementAndGet();
    }

    int sendUsed() {
        return sendUsed.get();
    }

    int receiveUsed() {
        return receiveUsed.get();
    }

    /** On the loop (the single consumer). */
    SendPost pollSend() {
        Queue<SendPost> q = sends;
        return q == null ? null : q.poll();
    }

    /** On the loop, or under the queue pair's lock while it was never bound to one. */
    ReceiveWorkRequest pollReceive() {
        Queue<ReceiveWorkRequest> q = receives;
        return q == null ? null : q.poll();
    }
}
