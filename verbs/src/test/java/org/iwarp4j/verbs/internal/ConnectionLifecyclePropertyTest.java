package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.ConnectionLifecycle.Role;
import org.iwarp4j.verbs.internal.LifecycleDriver.Event;
import org.iwarp4j.verbs.internal.LifecycleActions.Teardown;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * Any sequence of events, possible or not, then the end of the channel, then more events: {@link ConnectionLifecycle}
 * keeps its promises. The established future completes exactly once when there is one (established, or failed,
 * never both); ESTABLISHED is followed by exactly one DISCONNECTED and a failure by nothing; the channel's end is
 * reported once and nothing follows it; posted work is flushed once, with one ending; no timer is left armed.
 */
class ConnectionLifecyclePropertyTest {

    private static final Event[] EVENTS = Event.values();
    private static final EnumSet<ConnectionState> STREAM_OPEN = EnumSet.of(ConnectionState.AWAITING_RTR,
            ConnectionState.ESTABLISHED, ConnectionState.TERMINATE_PENDING);

    @Test
    void noSequenceOfEventsBreaksAPromise() {
        qt().withExamples(5000).withShrinkCycles(200)
                .forAll(integers().between(0, 7),
                        lists().of(integers().between(0, EVENTS.length - 1)).ofSizeBetween(0, 40),
                        lists().of(integers().between(0, EVENTS.length - 1)).ofSizeBetween(0, 6))
                .checkAssert((flags, before, after) -> run((flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0,
                        before, after));
    }

    private static void run(boolean initiator, boolean nudge, boolean watch, List<Integer> before,
                            List<Integer> after) {
        LifecycleDriver d = new LifecycleDriver(initiator ? Role.INITIATOR : Role.RESPONDER,
                nudge ? Duration.ofMillis(100) : Duration.ZERO, LifecycleDriver.DISCONNECT,
                watch ? Duration.ofSeconds(1) : Duration.ZERO);
        boolean future = initiator;
        boolean refused = false;
        boolean streamOpened = false;
        List<Event> applied = new ArrayList<>();
        for (int i : before) {
            Event e = EVENTS[i];
            applied.add(e);
            ConnectionState was = d.state();
            int failures = d.setupFailures.size();
            d.then(e);
            // A Responder's Request, once rejected by MPA or the application, is never accepted; until then an
            // accept during startup (or racing with its failure) binds the established future.
            refused |= e == Event.REQUEST_REJECTED && was == ConnectionState.AWAITING_DECISION
                    || e == Event.REQUEST_REFUSED && d.setupFailures.size() > failures;
            future |= e == Event.ACCEPTING && !refused && (was == ConnectionState.STARTING
                    || was == ConnectionState.AWAITING_DECISION || was == ConnectionState.ENDING);
            streamOpened |= was == ConnectionState.STARTING && STREAM_OPEN.contains(d.state());
        }
        d.then(Event.CHANNEL_INACTIVE);
        int atClose = d.log.size();
        for (int i : after) {
            d.then(EVENTS[i]);
        }
        String trace = applied + " -> " + d.log;

        assertThat(d.state()).as(trace).isEqualTo(ConnectionState.CLOSED);
        assertThat(d.log.size()).as("nothing after the end: %s", trace).isEqualTo(atClose);
        assertThat(d.teardowns).as("the end is reported once: %s", trace).hasSize(1);
        assertThat(d.log.get(atClose - 1)).as(trace).startsWith("closed(");
        Teardown t = d.teardowns.get(0);

        List<String> outcomes = new ArrayList<>();
        for (String a : d.log) {
            if (a.equals("established") || a.startsWith("setupFailed(")) {
                outcomes.add(a);
            }
        }
        if (t.setupFailure() != null) {
            outcomes.add("closed:" + t.setupFailure().kind());
        }
        boolean established = outcomes.contains("established");
        if (established) {
            assertThat(outcomes).as("ESTABLISHED and nothing else: %s", trace).containsExactly("established");
            assertThat(t.fireDisconnected()).as("then one DISCONNECTED: %s", trace).isTrue();
        } else {
            assertThat(t.fireDisconnected()).as(trace).isFalse();
            assertThat(outcomes).as("at most one failure: %s", trace).hasSizeLessThanOrEqualTo(1);
            if (future) {
                assertThat(outcomes).as("the established future completes: %s", trace).hasSize(1);
                assertThat(outcomes.get(0)).as(trace).isNotEqualTo("setupFailed(REQUEST_REFUSED)");
            } else {
                assertThat(outcomes).as("no future, no failure of it: %s", trace)
                        .allMatch(o -> o.equals("setupFailed(REQUEST_REFUSED)"));
            }
        }

        long flushes = d.log.stream().filter(a -> a.startsWith("endStream(")).count();
        assertThat(flushes).as("work is flushed once: %s", trace).isLessThanOrEqualTo(1);
        if (flushes == 1) {
            assertThat(t.ending()).as("with one ending: %s", trace).isEqualTo(Completions.Ending.DISCONNECT);
        }
        if (t.reportLlpError()) {
            assertThat(streamOpened && !d.log.contains("endStream(DISCONNECT)")).as(trace).isTrue();
        }

        assertThat(d.timers).as("no timer left armed: %s", trace).isEmpty();
        assertThat(d.cancelledUnarmed || d.scheduledArmed).as("timers armed once, cancelled when armed: %s", trace)
                .isFalse();
        assertThat(t.end()).as(trace).isNotNull();
        assertThat(t.end().reason() == Reason.SETUP_FAILED).as("why it ended: %s", trace).isEqualTo(!established);
    }
}
