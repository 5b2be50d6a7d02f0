package org.iwarp4j.tools.perf;

/**
 * The phases of one size's run: a warm-up, the measured span, an end margin, each unmeasured but the middle one
 * (perftest's {@code -D} and {@code -f}: a margin, {@code -D} minus twice the margin measured, the margin again).
 * A phase ends by time (nanoseconds from its start) or by count (operations from its start). A pure state
 * machine: the caller passes its clock readings and counts, and either lets the phases follow each other as their
 * limits pass ({@link #advance}: each timed from the moment the one before it ended, as perftest chains its
 * alarms) or ends each one itself ({@link #next}: a bandwidth window drains and synchronises between them).
 */
final class MeasuredSpan {

    /** Where a run is, in order. */
    enum Phase { NOT_BEGUN, WARM_UP, MEASURED, END_MARGIN, OVER }

    /** How a phase ends: after {@code amount} nanoseconds ({@code timed}) or operations. */
    record Limit(boolean timed, long amount) {

        static Limit seconds(int seconds) {
            return new Limit(true, seconds * 1_000_000_000L);
        }

        static Limit operations(long operations) {
            return new Limit(false, operations);
        }
    }

    private static final Limit NONE = Limit.operations(0);
    /** Each phase's limit, by {@link Phase#ordinal()}: null before the beginning and once over. */
    private final Limit[] limits;
    private Phase phase = Phase.NOT_BEGUN;
    /** When the current phase began, and the caller's count then. */
    private long phaseStart;
    private long phaseCount;
    private long measuredStart;
    private long measuredEnd;

    MeasuredSpan(Limit warmUp, Limit measured, Limit endMargin) {
        limits = new Limit[] {null, warmUp, measured, endMargin, null};
    }

    /** perftest's duration mode: the margin, the measured seconds, the margin again, all by time. */
    static MeasuredSpan perftest(int marginSeconds, int measuredSeconds) {
        return new MeasuredSpan(Limit.seconds(marginSeconds), Limit.seconds(measuredSeconds),
                Limit.seconds(marginSeconds));
    }

    /**
     * An iwarp perf client's size: the margin ({@link PerfConfig#warmsByTime()}) or {@code warmUpOperations}, then
     * {@link PerfConfig#measuredSeconds()} ({@code -D}) or {@link PerfConfig#iterations()}; no end margin.
     */
    static MeasuredSpan of(PerfConfig config, long warmUpOperations) {
        return new MeasuredSpan(config.warmsByTime() ? Limit.seconds(config.marginSeconds())
                : Limit.operations(warmUpOperations), measuredPart(config), NONE);
    }

    /** A warm-up of {@code nanos} alone (a piece of the margin, {@link Rehearsals}). */
    static MeasuredSpan warmUp(long nanos) {
        return new MeasuredSpan(new Limit(true, nanos), NONE, NONE);
    }

    /** As {@link #of}, without a warm-up: only the measured operations (the verified Writes; after a margin). */
    static MeasuredSpan unwarmed(PerfConfig config) {
        return new MeasuredSpan(NONE, measuredPart(config), NONE);
    }

    /**
     * A perf tcp connection's measured run: {@link PerfConfig#warmupPerQp()} operations, then -D's
     * {@link PerfConfig#measuredSeconds()} or -n's {@link PerfConfig#iterations()}; no end margin (the server's
     * reply ends the run). The margin is a run of its own before it ({@link #tcpMargin}): the stream has no place to
     * mark the end of a warm-up by time on the same connection.
     */
    static MeasuredSpan tcp(PerfConfig config) {
        return new MeasuredSpan(Limit.operations(config.warmupPerQp()), measuredPart(config), NONE);
    }

    /**
     * One of the unmeasured runs perf tcp's margin is made of ({@link PerfConfig#warmsByTime()}): the warm-up
     * operations, then {@code nanos} of the margin, with -D as with -n.
     */
    static MeasuredSpan tcpMargin(PerfConfig config, long nanos) {
        return new MeasuredSpan(Limit.operations(config.warmupPerQp()), new Limit(true, nanos), NONE);
    }

    private static Limit measuredPart(PerfConfig config) {
        return config.durationMode() ? Limit.seconds(config.measuredSeconds()) : Limit.operations(config.iterations());
    }

    /** The warm-up begins at {@code now}, the caller's count at 0 (an empty one ends at once). */
    void begin(long now) {
        phase = Phase.NOT_BEGUN;
        next(now, 0);
        advance(now, 0);
    }

    boolean begun() {
        return phase != Phase.NOT_BEGUN;
    }

    Phase phase() {
        return phase;
    }

    /**
     * Whether the current phase still wants operations at {@code now}, after {@code count} (the caller's count,
     * which was {@link #phaseCount} when the phase began); changes nothing.
     */
    boolean due(long now, long count) {
        Limit l = limits[phase.ordinal()];
        if (l == null) {
            return false;
        }
        return l.timed() ? now - phaseStart < l.amount() : count - phaseCount < l.amount();
    }

    /** Ends every phase whose limit has passed at {@code now} and {@code count}; returns the phase then. */
    Phase advance(long now, long count) {
        while (begun() && phase != Phase.OVER && !due(now, count)) {
            next(now, count);
        }
        return phase;
    }

    /** A span timed throughout: whether the measured span is on at {@code now}. */
    boolean measuring(long now) {
        return advance(now, 0) == Phase.MEASURED;
    }

    /** A span timed throughout: whether the end margin is over at {@code now}. */
    boolean over(long now) {
        return advance(now, 0) == Phase.OVER;
    }

    /** Ends the current phase at {@code now}, after {@code count}; the next one begins (nothing after OVER). */
    void next(long now, long count) {
        if (phase == Phase.OVER) {
            return;
        }
        phase = Phase.values()[phase.ordinal() + 1];
        phaseStart = now;
        phaseCount = count;
        if (phase == Phase.MEASURED) {
            measuredStart = now;
        } else if (phase == Phase.END_MARGIN) {
            measuredEnd = now;
        }
    }

    /** The measured span's wall time, once it is over (at least 1). */
    long measuredNanos() {
        return Math.max(1, measuredEnd - measuredStart);
    }
}
