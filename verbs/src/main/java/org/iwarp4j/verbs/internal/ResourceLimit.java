package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.VerbsException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One counted resource with a ceiling (registered octets, posted receives, MPA startups, a listener's
 * connections): whoever is about to allocate acquires first, and whoever frees releases what it acquired, so
 * the count is what is held now. Lock-free; a refusal changes nothing.
 */
final class ResourceLimit {

    private final String name;
    private final long max;
    private final AtomicLong used = new AtomicLong();

    /** {@code name}: the setter that changes {@code max}, as a refusal names it (e.g. {@code maxPostedReceives}). */
    ResourceLimit(String name, long max) {
        if (max < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + max);
        }
        this.name = name;
        this.max = max;
    }

    String name() {
        return name;
    }

    long max() {
        return max;
    }

    long used() {
        return used.get();
    }

    /** Takes {@code n} (≥ 0) if they fit under the ceiling; false, and nothing taken, if not. */
    boolean tryAcquire(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative amount: " + n);
        }
        while (true) {
            long u = used.get();
            if (n > max - u) {
                return false;
            }
            if (used.compareAndSet(u, u + n)) {
                return true;
            }
        }
    }

    /**
     * Takes as much as is free between {@code least} and {@code most} (0 ≤ least ≤ most): the amount taken, or -1
     * (nothing taken) when not even {@code least} is free.
     */
    long tryAcquireBetween(long least, long most) {
        if (least < 0 || most < least) {
            throw new IllegalArgumentException("bad range " + least + ".." + most);
        }
        while (true) {
            long u = used.get();
            long n = Math.min(most, max - u);
            if (n < least) {
                return -1;
            }
            if (used.compareAndSet(u, u + n)) {
                return n;
            }
        }
    }

    /** Gives back {@code n} taken by {@link #tryAcquire}. */
    void release(long n) {
        long after = used.addAndGet(-n);
        if (after < 0) {
            used.addAndGet(n);
            throw new IllegalStateException(name + ": released " + n + " more than was held");
        }
    }

    /** Takes {@code n}, or throws the refusal of {@code what} ({@link #refusal}). */
    void acquire(long n, Object workRequest, String what) {
        if (!tryAcquire(n)) {
            throw refusal(workRequest, what);
        }
    }

    /** The refusal of {@code what}: names the limit, its value and what is held, so the user knows what to change. */
    VerbsException refusal(Object workRequest, String what) {
        return new VerbsException(VerbsException.Reason.LIMIT_EXCEEDED, workRequest, what + " would exceed the limit "
                + name + " = " + max + " (" + used.get() + " held)");
    }

    /** One line for the log and for a peer: {@code "maxConnections = 2 reached"}. */
    String reached() {
        return name + " = " + max + " reached";
    }

    @Override
    public String toString() {
        return name + " " + used.get() + "/" + max;
    }
}
