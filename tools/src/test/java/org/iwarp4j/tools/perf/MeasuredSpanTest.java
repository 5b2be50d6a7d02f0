package org.iwarp4j.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.perf.MeasuredSpan.Limit;
import org.iwarp4j.tools.perf.MeasuredSpan.Phase;
import org.junit.jupiter.api.Test;

/** {@link MeasuredSpan}'s phases, on a clock of our own: the readings are the test's numbers. */
class MeasuredSpanTest {

    private static final long S = 1_000_000_000L;

    @Test
    void perftestMarginsAreChainedFromTheMomentThePhaseBeforeEnded() {
        MeasuredSpan span = MeasuredSpan.perftest(1, 2);
        assertThat(span.begun()).isFalse();
        assertThat(span.phase()).isEqualTo(Phase.NOT_BEGUN);
        span.begin(10);
        assertThat(span.begun()).isTrue();
        assertThat(span.measuring(10 + S - 1)).isFalse();
        assertThat(span.phase()).isEqualTo(Phase.WARM_UP);
        // seen late: the measured span begins when the margin was found over, and lasts its 2 s from then
        assertThat(span.measuring(10 + S + 500)).isTrue();
        assertThat(span.over(10 + 3 * S + 499)).isFalse();
        assertThat(span.phase()).isEqualTo(Phase.MEASURED);
        assertThat(span.measuring(10 + 3 * S + 500)).isFalse();
        assertThat(span.phase()).isEqualTo(Phase.END_MARGIN);
        assertThat(span.over(10 + 4 * S + 499)).isFalse();
        assertThat(span.over(10 + 4 * S + 500)).isTrue();
        assertThat(span.phase()).isEqualTo(Phase.OVER);
        assertThat(span.measuredNanos()).isEqualTo(2 * S);
        assertThat(span.over(100 * S)).isTrue();
        assertThat(span.measuredNanos()).isEqualTo(2 * S);
    }

    @Test
    void noMarginMeasuresFromTheBeginning() {
        MeasuredSpan span = MeasuredSpan.perftest(0, 1);
        span.begin(5);
        assertThat(span.phase()).isEqualTo(Phase.MEASURED);
        assertThat(span.measuring(5 + S - 1)).isTrue();
        assertThat(span.over(5 + S)).isTrue(); // an end margin of 0 is over as soon as it begins
        assertThat(span.measuredNanos()).isEqualTo(S);
    }

    @Test
    void aSpanOfNothingIsOverAtItsBeginning() {
        MeasuredSpan span = new MeasuredSpan(Limit.operations(0), Limit.operations(0), Limit.operations(0));
        span.begin(7);
        assertThat(span.phase()).isEqualTo(Phase.OVER);
        assertThat(span.due(7, 0)).isFalse();
        assertThat(span.measuredNanos()).isEqualTo(1); // at least 1: a rate divides by it
    }

    @Test
    void countedPhasesEndAfterTheirOperations() {
        MeasuredSpan span = new MeasuredSpan(Limit.operations(3), Limit.operations(5), Limit.operations(0));
        span.begin(100);
        assertThat(span.advance(120, 0)).isEqualTo(Phase.WARM_UP);
        assertThat(span.advance(10 * S, 2)).isEqualTo(Phase.WARM_UP); // time does not end a counted phase
        assertThat(span.advance(10 * S + 7, 3)).isEqualTo(Phase.MEASURED);
        assertThat(span.advance(20 * S, 7)).isEqualTo(Phase.MEASURED);
        assertThat(span.advance(20 * S + 9, 8)).isEqualTo(Phase.OVER);
        assertThat(span.measuredNanos()).isEqualTo(10 * S + 2);
    }

    @Test
    void anEmptyWarmUpEndsAtTheBeginning() {
        MeasuredSpan span = new MeasuredSpan(Limit.operations(0), Limit.seconds(1), Limit.operations(0));
        span.begin(40);
        assertThat(span.phase()).isEqualTo(Phase.MEASURED);
        assertThat(span.advance(40 + S - 1, 1_000_000)).isEqualTo(Phase.MEASURED);
        assertThat(span.advance(40 + S, 1_000_000)).isEqualTo(Phase.OVER);
        assertThat(span.measuredNanos()).isEqualTo(S);
    }

    @Test
    void phasesEndedByTheCallerCountFromTheirOwnStart() {
        // a bandwidth window: each phase drains and synchronises before the next begins
        MeasuredSpan span = new MeasuredSpan(Limit.operations(2), Limit.seconds(1), Limit.operations(0));
        span.next(0, 0);
        assertThat(span.phase()).isEqualTo(Phase.WARM_UP);
        assertThat(span.due(5, 1)).isTrue();
        assertThat(span.due(5, 2)).isFalse();
        assertThat(span.phase()).isEqualTo(Phase.WARM_UP); // due changes nothing
        span.next(70, 0);
        assertThat(span.phase()).isEqualTo(Phase.MEASURED);
        assertThat(span.due(70 + S - 1, 1_000_000)).isTrue();
        assertThat(span.due(70 + S, 0)).isFalse();
        span.next(70 + S + 30, 123);
        assertThat(span.phase()).isEqualTo(Phase.END_MARGIN);
        assertThat(span.measuredNanos()).isEqualTo(S + 30);
        span.next(80 + 2 * S, 0);
        span.next(90 + 2 * S, 0);
        assertThat(span.phase()).isEqualTo(Phase.OVER);
        assertThat(span.due(90 + 2 * S, 0)).isFalse();
    }

    @Test
    void aCountedPhaseCountsFromTheCallersCountAtItsStart() {
        MeasuredSpan span = new MeasuredSpan(Limit.seconds(1), Limit.operations(4), Limit.operations(0));
        span.begin(0);
        assertThat(span.advance(S / 2, 1000)).isEqualTo(Phase.WARM_UP);
        assertThat(span.advance(S, 1500)).isEqualTo(Phase.MEASURED); // the margin took 1500 operations
        assertThat(span.due(S, 1503)).isTrue();
        assertThat(span.advance(2 * S, 1503)).isEqualTo(Phase.MEASURED);
        assertThat(span.advance(2 * S + 1, 1504)).isEqualTo(Phase.OVER);
    }

    @Test
    void aClientSizeWarmsByTheMarginOrByCount() {
        MeasuredSpan byTime = MeasuredSpan.of(config(0, 2, 1000), 77); // -n 1000 -f 2
        byTime.begin(0);
        assertThat(byTime.advance(2 * S - 1, 5000)).isEqualTo(Phase.WARM_UP);
        assertThat(byTime.advance(2 * S, 5000)).isEqualTo(Phase.MEASURED);
        assertThat(byTime.advance(3 * S, 5999)).isEqualTo(Phase.MEASURED);
        assertThat(byTime.advance(3 * S, 6000)).isEqualTo(Phase.OVER); // no end margin

        MeasuredSpan byCount = MeasuredSpan.of(config(0, 0, 1000), 77); // -n 1000
        byCount.begin(0);
        assertThat(byCount.advance(5 * S, 76)).isEqualTo(Phase.WARM_UP);
        assertThat(byCount.advance(5 * S, 77)).isEqualTo(Phase.MEASURED);
        assertThat(byCount.advance(6 * S, 1077)).isEqualTo(Phase.OVER);

        MeasuredSpan timed = MeasuredSpan.of(config(4, 1, 1000), 77); // -D 4 -f 1: 2 s measured
        timed.begin(0);
        assertThat(timed.advance(S, 1)).isEqualTo(Phase.MEASURED);
        assertThat(timed.advance(3 * S - 1, 1_000_000)).isEqualTo(Phase.MEASURED);
        assertThat(timed.advance(3 * S, 1_000_000)).isEqualTo(Phase.OVER);
        assertThat(timed.measuredNanos()).isEqualTo(2 * S);
    }

    @Test
    void unwarmedMeasuresAtOnceEvenWithAMargin() {
        MeasuredSpan span = MeasuredSpan.unwarmed(config(4, 1, 1000));
        span.begin(0);
        assertThat(span.phase()).isEqualTo(Phase.MEASURED);
        assertThat(span.due(2 * S - 1, 0)).isTrue();
        assertThat(span.due(2 * S, 0)).isFalse();
    }

    /** perf tcp ends each phase itself (a stream synchronises its connections between them), as it does here. */
    @Test
    void aTcpRunWarmsUpByCountThenMeasuresTheDurationOrTheCount() {
        MeasuredSpan counted = MeasuredSpan.tcp(config(0, 2, 1000)); // -n 1000 -f 2: 200 to warm up
        counted.next(0, 0);
        assertThat(counted.phase()).isEqualTo(Phase.WARM_UP);
        assertThat(counted.due(10 * S, 199)).isTrue(); // the margin is a run of its own: not by time here
        assertThat(counted.due(0, 200)).isFalse();
        counted.next(10 * S, 0);
        assertThat(counted.phase()).isEqualTo(Phase.MEASURED);
        assertThat(counted.due(100 * S, 999)).isTrue();
        assertThat(counted.due(10 * S, 1000)).isFalse();

        MeasuredSpan timed = MeasuredSpan.tcp(config(4, 1, 1000)); // -D 4 -f 1: 1000 to warm up, 2 s measured
        timed.next(0, 0);
        assertThat(timed.due(100 * S, 999)).isTrue();
        assertThat(timed.due(0, 1000)).isFalse();
        timed.next(5, 0);
        assertThat(timed.due(5 + 2 * S - 1, 1_000_000)).isTrue();
        assertThat(timed.due(5 + 2 * S, 1)).isFalse();
        timed.next(5 + 2 * S + 3, 1_000_000);
        assertThat(timed.phase()).isEqualTo(Phase.END_MARGIN);
        assertThat(timed.measuredNanos()).isEqualTo(2 * S + 3);
    }

    @Test
    void tcpsMarginRunsAPartOfTheMarginAfterTheWarmUp() {
        long part = S / 4;
        MeasuredSpan margin = MeasuredSpan.tcpMargin(config(4, 1, 1000), part); // -D 4 -f 1
        margin.next(0, 0);
        assertThat(margin.due(0, 999)).isTrue();
        assertThat(margin.due(0, 1000)).isFalse();
        margin.next(7, 0);
        assertThat(margin.phase()).isEqualTo(Phase.MEASURED);
        assertThat(margin.due(7 + part - 1, 1_000_000)).isTrue();
        assertThat(margin.due(7 + part, 0)).isFalse();

        MeasuredSpan beforeN = MeasuredSpan.tcpMargin(config(0, 3, 1000), part); // -n 1000 -f 3: by time, not -n
        beforeN.next(0, 0);
        assertThat(beforeN.due(0, 199)).isTrue();
        assertThat(beforeN.due(0, 200)).isFalse();
        beforeN.next(9, 0);
        assertThat(beforeN.due(9 + part - 1, 1_000_000)).isTrue();
        assertThat(beforeN.due(9 + part, 1)).isFalse();
    }

    @Test
    void aWarmUpAloneEndsByTimeAndMeasuresNothing() {
        MeasuredSpan rehearsal = MeasuredSpan.warmUp(S / 4);
        assertThat(rehearsal.advance(0, 0)).isEqualTo(Phase.NOT_BEGUN);
        rehearsal.next(5, 0);
        assertThat(rehearsal.phase()).isEqualTo(Phase.WARM_UP);
        assertThat(rehearsal.due(5 + S / 4 - 1, 1_000_000)).isTrue();
        assertThat(rehearsal.due(5 + S / 4, 0)).isFalse();
        rehearsal.next(5 + S / 4, 123);
        assertThat(rehearsal.phase()).isEqualTo(Phase.MEASURED);
        assertThat(rehearsal.due(5 + S / 4, 123)).as("no measured operation").isFalse();
    }

    private static PerfConfig config(int durationSeconds, int marginSeconds, long iterations) {
        return new PerfConfig(PerfVerb.WRITE, false, false, false, List.of(64), iterations, durationSeconds,
                marginSeconds, 128, 512, false, null, false, null, true, 1, false, StackSettings.DEFAULTS, false, null,
                null);
    }
}
