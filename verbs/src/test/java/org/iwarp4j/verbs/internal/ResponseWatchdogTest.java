package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.ConnectionLifecycle.Role;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.verbs.internal.LifecycleDriver.Event.*;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * The silent-peer rule (RFC 5044 §7.1.2 rule 10, MPA-39) on a simulated clock: a Read or atomic outstanding with
 * no FPDU arriving for the whole response timeout expires, less than a quarter of it later; a peer that keeps
 * sending, or that owes nothing, never does.
 */
class ResponseWatchdogTest {

    private static final long TIMEOUT_MS = 1000;

    /** Ticks every quarter from 0; returns the first tick time (ms) at which it expired, or -1. */
    private static long run(ResponseWatchdog w, long requestAtMs, long untilMs, List<Long> fpduTimesMs) {
        long tick = w.tickInterval().toMillis();
        long fpdus = 0;
        int next = 0;
        for (long t = 0; t <= untilMs; t += tick) {
            while (next < fpduTimesMs.size() && fpduTimesMs.get(next) <= t) {
                fpdus++;
                next++;
            }
            if (w.tick(t >= requestAtMs ? 1 : 0, fpdus)) {
                return t;
            }
        }
        return -1;
    }

    @Test
    void aSilentPeerExpiresAfterTheTimeoutAndLessThanAQuarterLater() {
        qt().withExamples(2000).forAll(integers().between(0, 5000), integers().between(0, 5000))
                .checkAssert((idleBefore, requestOffset) -> {
                    ResponseWatchdog w = new ResponseWatchdog(Duration.ofMillis(TIMEOUT_MS));
                    // The peer spoke at fpduAt ms: up to 2.5 s before the request, or within half a timeout after.
                    long requestAt = idleBefore;
                    long fpduAt = Math.max(0, requestAt + requestOffset % 3000 - 2500);
                    long expired = run(w, requestAt, requestAt + 10 * TIMEOUT_MS, List.of(fpduAt));
                    assertThat(expired).as("expires").isPositive();
                    long silentFor = expired - Math.max(requestAt, fpduAt);
                    assertThat(silentFor).as("not before the timeout").isGreaterThanOrEqualTo(TIMEOUT_MS);
                    assertThat(silentFor).as("less than a quarter after it").isLessThan(TIMEOUT_MS * 5 / 4);
                });
    }

    @Test
    void aPeerThatKeepsSendingNeverExpiresHoweverLongTheResponse() {
        qt().withExamples(500).forAll(integers().between(1, 900), integers().between(0, 100))
                .checkAssert((gapMs, jitter) -> {
                    ResponseWatchdog w = new ResponseWatchdog(Duration.ofMillis(TIMEOUT_MS));
                    // An FPDU at least every gap < timeout: a long Read Response, or other traffic ahead of it.
                    List<Long> fpdus = new ArrayList<>();
                    for (long t = jitter; t < 60_000; t += gapMs) {
                        fpdus.add(t);
                    }
                    assertThat(run(w, 0, 60_000, fpdus)).isEqualTo(-1);
                });
    }

    @Test
    void nothingOutstandingNeverExpiresAndTheClockRestartsWithEachFpdu() {
        qt().withExamples(500).forAll(lists().of(booleans().all()).ofSizeBetween(0, 100)).checkAssert(heard -> {
            ResponseWatchdog w = new ResponseWatchdog(Duration.ofMillis(TIMEOUT_MS));
            long fpdus = 0;
            for (boolean h : heard) {
                fpdus += h ? 1 : 0;
                assertThat(w.tick(0, fpdus)).isFalse();
            }
            assertThat(w.tick(0, fpdus)).isFalse();
            // Now outstanding: exactly TICKS + 1 silent ticks after the last sign of life.
            int silent = 0;
            while (!w.tick(1, fpdus)) {
                silent++;
                assertThat(silent).isLessThanOrEqualTo(ResponseWatchdog.TICKS + 1);
            }
            assertThat(silent).isEqualTo(ResponseWatchdog.TICKS);
        });
    }

    // ------------------------------------------------------------------ in the connection's lifecycle

    private static LifecycleDriver watched() {
        return new LifecycleDriver(Role.INITIATOR, Duration.ZERO, LifecycleDriver.DISCONNECT, Duration.ofSeconds(8));
    }

    @Test
    void theWatchStartsAtEstablishedAndTicksEveryQuarter() {
        LifecycleDriver d = watched().then(FULL_OPERATION);
        assertThat(d.log).containsExactly("established", "schedule(RESPONSE_WATCH)", "pump");
        assertThat(d.delays).containsEntry(ConnectionTimer.RESPONSE_WATCH, Duration.ofSeconds(1));
        d.clear().then(RESPONSE_WATCH_FIRED);
        assertThat(d.log).containsExactly("schedule(RESPONSE_WATCH)");
        assertThat(LifecycleDriver.initiator().then(FULL_OPERATION).log).as("off: no watch")
                .containsExactly("established", "pump");
    }

    @Test
    void aSilentPeerOwingAResponseEndsTheStreamReportsItAndCloses() {
        LifecycleDriver d = watched().then(FULL_OPERATION).then(RESPONSE_WATCH_FIRED).then(READ_OUTSTANDING).clear();
        for (int i = 0; i < ResponseWatchdog.TICKS; i++) {
            d.then(RESPONSE_WATCH_FIRED);
        }
        assertThat(d.state()).isEqualTo(ConnectionState.ESTABLISHED);
        d.then(RESPONSE_WATCH_FIRED);
        assertThat(d.state()).isEqualTo(ConnectionState.ENDING);
        assertThat(d.log).endsWith("endStream(RESPONSE_TIMEOUT)", "reportResponseTimeout", "close");
        d.clear().then(RESPONSE_WATCH_FIRED).then(CHANNEL_INACTIVE);
        assertThat(d.log).containsExactly(
                "closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=RESPONSE_TIMEOUT)");
        assertThat(d.teardowns.get(0).end().reason()).isEqualTo(Reason.RESPONSE_TIMEOUT);
        assertThat(d.timers).isEmpty();
    }

    @Test
    void anFpduKeepsTheConnectionAndAGracefulDisconnectStopsTheWatch() {
        LifecycleDriver d = watched().then(FULL_OPERATION).then(READ_OUTSTANDING);
        for (int i = 0; i < 20; i++) {
            d.then(RESPONSE_WATCH_FIRED).then(FPDU_RECEIVED);
        }
        assertThat(d.state()).isEqualTo(ConnectionState.ESTABLISHED);
        d.then(LOCAL_DISCONNECT).clear();
        for (int i = 0; i < 10; i++) {
            d.then(RESPONSE_WATCH_FIRED);
        }
        assertThat(d.log).as("the disconnect timeout bounds a closing connection, not the watch").isEmpty();
        assertThat(d.state()).isEqualTo(ConnectionState.CLOSING);
    }
}
