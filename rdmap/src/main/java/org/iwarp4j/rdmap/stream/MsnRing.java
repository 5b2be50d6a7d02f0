package org.iwarp4j.rdmap.stream;

import java.util.Arrays;

/**
 * The slots posted on one untagged queue, oldest first, findable by MSN. Slots are posted (and get
 * consecutive MSNs, RFC 5041 §4.3) and delivered in the same order, so the slot for {@code msn} is at
 * position {@code msn - head.msn} (modulo 2^32). Grows by doubling; otherwise allocation-free.
 */
final class MsnRing<T extends PostedSlot> {

    /** No slots until the first is posted: many rings of a stream (QN 1, QN 3) never get one. */
    private static final PostedSlot[] NONE = new PostedSlot[0];

    private PostedSlot[] items = NONE;
    private int head;
    private int size;

    void add(T slot) {
        if (size == items.length) {
            PostedSlot[] bigger = new PostedSlot[Math.max(8, items.length * 2)];
            for (int i = 0; i < size; i++) {
                bigger[i] = items[(head + i) & (items.length - 1)];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) & (items.length - 1)] = slot;
        size++;
    }

    /** The slot posted for {@code msn}, or {@code null}. */
    @SuppressWarnings("unchecked")
    T find(int msn) {
        if (size == 0) {
            return null;
        }
        int distance = msn - items[head].msn;
        if (Integer.compareUnsigned(distance, size) >= 0) {
            return null;
        }
        T slot = (T) items[(head + distance) & (items.length - 1)];
        return slot.msn == msn ? slot : null;
    }

    /** Removes {@code slot} if it is the oldest (the normal case on delivery); else searches for it. */
    void remove(T slot) {
        if (size == 0) {
            return;
        }
        if (items[head] == slot) {
            items[head] = null;
            head = (head + 1) & (items.length - 1);
            size--;
            return;
        }
        for (int i = 1; i < size; i++) {
            int index = (head + i) & (items.length - 1);
            if (items[index] == slot) {
                for (int j = i; j < size - 1; j++) {
                    items[(head + j) & (items.length - 1)] = items[(head + j + 1) & (items.length - 1)];
                }
                items[(head + size - 1) & (items.length - 1)] = null;
                size--;
                return;
            }
        }
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(items, null); // a no-op on NONE
        head = 0;
        size = 0;
    }
}
