package org.iwarp4j.tools.perf;

/**
 * A margin by time ({@code -f}) run as pieces of at most {@link #NANOS}, each of which ends as the measurement will
 * begin (docs/performance.md, "The measurement's start, rehearsed"): iwarp perf drains its window and exchanges
 * START after each piece (the last one starts the measurement), perf tcp makes each piece a run of its own
 * connections. Begun only once, a measurement met code that C2 had compiled without ever seeing its start: a post
 * from another thread that wakes the loop, a control Send among the data, new connections. That code was thrown
 * away there (some thirty deoptimizations in iwarp perf's first millisecond, sixty in perf tcp's, the event loop's
 * own {@code run} among them) and the first second of the measurement ran interpreted while the starved compilers
 * made it again.
 */
final class Rehearsals {

    /** The longest piece of the margin. */
    static final long NANOS = 250_000_000L;

    /** One piece of the margin, {@code nanos} long (at most {@link #NANOS}; the last one may be shorter). */
    @FunctionalInterface
    interface Piece {
        void run(long nanos) throws Exception;
    }

    private Rehearsals() {}

    /** Runs {@code marginSeconds} as pieces, one after the other, until the margin has passed; at least one. */
    static void of(int marginSeconds, Piece piece) throws Exception {
        long end = System.nanoTime() + marginSeconds * 1_000_000_000L;
        do {
            piece.run(Math.min(NANOS, Math.max(0, end - System.nanoTime())));
        } while (end - System.nanoTime() > 0);
    }

    /** How the Warm-up line names the pieces: {@code runs of 250 ms}. */
    static String describe() {
        return "runs of " + NANOS / 1_000_000 + " ms";
    }
}
