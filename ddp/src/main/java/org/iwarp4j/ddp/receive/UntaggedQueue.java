package org.iwarp4j.ddp.receive;

import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.memory.UntaggedBuffer;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * The posted buffers of one untagged queue (one QN of one stream, receive direction) and their MSNs.
 *
 * <p>RFC 5041 §4.3: the first message on each queue has MSN 1 and each message increments it (modulo
 * 2^32). The n-th buffer posted receives MSN n. The buffers not yet consumed form the window of legal MSNs
 * {@code [headMsn, headMsn + count - 1]} (RFC 5041 §7.1 check 5). A message is complete when its L = 1
 * segment has been placed — over an in-order lower layer (MPA/TCP) every other segment of it was placed
 * before (RFC 5041 §5.2: L = 1 is handed to the LLP last) — and is delivered only when every earlier
 * message of the queue has been delivered (RFC 5041 §5.3, §5.4).
 *
 * <p>A ring of parallel arrays, so that posting, placing and delivering allocate nothing (except to grow).
 */
final class UntaggedQueue {

    private static final int INITIAL_CAPACITY = 8;

    // A queue nothing was ever posted on (QN 1 and 3 of a stream without Reads or Atomics) holds no arrays of its
    // own: it starts with these empty ones and gets INITIAL_CAPACITY slots on its first post.
    private static final UntaggedBuffer[] NO_BUFFERS = new UntaggedBuffer[0];
    private static final boolean[] NO_FLAGS = new boolean[0];
    private static final int[] NO_INTS = new int[0];

    private UntaggedBuffer[] buffers = NO_BUFFERS;
    private boolean[] complete = NO_FLAGS;
    private int[] messageLength = NO_INTS;
    private int[] rsvdUlp = NO_INTS;
    private int[] rsvdUlpWord = NO_INTS;
    private int head;
    private int count;
    /** MSN of the oldest buffer not yet consumed = MSN of the next message to deliver. */
    private int headMsn;

    UntaggedQueue() {
        this(1); // RFC 5041 §4.3: the first message of each queue has MSN 1
    }

    /** A queue whose first buffer receives {@code firstMsn} (tests of the 2^32 wrap). */
    UntaggedQueue(int firstMsn) {
        this.headMsn = firstMsn;
    }

    /** Adds a buffer at the tail of the window and returns the MSN it will receive. */
    int post(UntaggedBuffer buffer) {
        if (count == buffers.length) {
            grow();
        }
        int slot = (head + count) & (buffers.length - 1);
        buffers[slot] = buffer;
        complete[slot] = false;
        count++;
        return headMsn + count - 1;
    }

    int count() {
        return count;
    }

    int headMsn() {
        return headMsn;
    }

    /**
     * RFC 5041 §7.1 checks 2 and 5 for {@code msn}: the ring slot of its buffer (≥ 0), or the error as
     * {@code -1 - error.ordinal()}.
     *
     * <p>An MSN for which no buffer was posted yet — the queue is empty, or the MSN is ahead of the last
     * posted buffer — is "no buffer available" (check 2; e.g. a Send with no receive posted). An MSN
     * behind the window (a message already delivered, or a number that is not in serial order with the
     * window at all) is "MSN range is not valid" (check 5).
     */
    int locate(int msn) {
        if (count == 0) {
            return encode(DdpError.INVALID_MSN_NO_BUFFER);
        }
        int distance = msn - headMsn;
        if (Integer.compareUnsigned(distance, count) < 0) {
            return (head + distance) & (buffers.length - 1);
        }
        // Serial-number arithmetic (modulo 2^32): less than half the space ahead counts as "ahead".
        return distance > 0 ? encode(DdpError.INVALID_MSN_NO_BUFFER) : encode(DdpError.INVALID_MSN_RANGE);
    }

    static DdpError decode(int located) {
        return DdpError.values()[-1 - located];
    }

    private static int encode(DdpError error) {
        return -1 - error.ordinal();
    }

    UntaggedBuffer buffer(int slot) {
        return buffers[slot];
    }

    /** Records that the L = 1 segment of the message in {@code slot} was placed. */
    void complete(int slot, int length, int ulpOctet, int ulpWord) {
        complete[slot] = true;
        messageLength[slot] = length;
        rsvdUlp[slot] = ulpOctet;
        rsvdUlpWord[slot] = ulpWord;
    }

    boolean headComplete() {
        return count > 0 && complete[head];
    }

    /**
     * Consumes the head buffer (which must be complete) and hands it to {@code listener} as delivered.
     * The queue is consistent before the callback, so the listener may post again.
     */
    void deliverHead(int qn, DdpReceiveListener listener) {
        int slot = head;
        UntaggedBuffer buffer = buffers[slot];
        int msn = headMsn;
        buffers[slot] = null;
        complete[slot] = false;
        head = (head + 1) & (buffers.length - 1);
        count--;
        headMsn++;   // RFC 5041 §4.3: modulo 2^32, int arithmetic wraps 0xFFFFFFFF → 0
        listener.onUntaggedMessageDelivered(qn, msn, rsvdUlp[slot], rsvdUlpWord[slot], messageLength[slot], buffer);
    }

    /** Removes every posted buffer not yet delivered, oldest first (to complete them in error). */
    List<UntaggedBuffer> removeAll() {
        if (count == 0) {
            return List.of();
        }
        List<UntaggedBuffer> removed = new ArrayList<>(count);
        while (count > 0) {
            removed.add(buffers[head]);
            buffers[head] = null;
            complete[head] = false;
            head = (head + 1) & (buffers.length - 1);
            count--;
            headMsn++;
        }
        return removed;
    }

    private void grow() {
        int oldLength = buffers.length;
        int newLength = oldLength == 0 ? INITIAL_CAPACITY : oldLength * 2;
        buffers = unroll(buffers, new UntaggedBuffer[newLength]);
        complete = unroll(complete, new boolean[newLength]);
        messageLength = unroll(messageLength, new int[newLength]);
        rsvdUlp = unroll(rsvdUlp, new int[newLength]);
        rsvdUlpWord = unroll(rsvdUlpWord, new int[newLength]);
        head = 0;
    }

    private <A> A unroll(A from, A to) {
        int length = Array.getLength(from);
        int first = length - head;
        System.arraycopy(from, head, to, 0, first);
        System.arraycopy(from, 0, to, first, head);
        return to;
    }
}
