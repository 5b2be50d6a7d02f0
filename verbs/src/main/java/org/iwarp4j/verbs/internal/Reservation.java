package org.iwarp4j.verbs.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one connection holds of a {@link ResourceLimit}, taken before its MPA startup: lowered once the negotiated
 * value is known ({@link #trimTo}), given back when the connection closes ({@link #release}, idempotent). Any
 * thread.
 */
final class Reservation {

    private final ResourceLimit limit;
    private final AtomicLong held;

    Reservation(ResourceLimit limit, long held) {
        this.limit = limit;
        this.held = new AtomicLong(held);
    }

    long held() {
        return held.get();
    }

    /** Keeps at most {@code n}, giving back the rest; never takes more. */
    void trimTo(long n) {
        while (true) {
            long h = held.get();
            if (h <= n) {
                return;
            }
            if (held.compareAndSet(h, n)) {
                limit.release(h - n);
                return;
            }
        }
    }

    /** Gives back everything still held. */
    void release() {
        long h = held.getAndSet(0);
        if (h > 0) {
            limit.release(h);
        }
    }
}
