package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.internal.LifecycleDriver.Event;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.iwarp4j.verbs.internal.LifecycleDriver.Event.*;

/**
 * Every event in every state of {@link ConnectionLifecycle}: what state follows and which actions go out, in
 * order. A pair missing from {@link #TABLE} must be ignored: same state, no action. Each situation is a state
 * reached by a path of events (some states twice, with different timers or futures).
 */
class ConnectionLifecycleTableTest {

    /** A state and how to reach it; an Initiator nudges 100 ms after its first FPDUs. */
    enum Situation {
        I_STARTING(LifecycleDriver::initiator),
        I_AWAITING_RTR(() -> LifecycleDriver.initiator().then(FULL_OPERATION_RTR_FIRST)),
        I_ESTABLISHED(() -> LifecycleDriver.initiator().then(FULL_OPERATION)),
        I_ESTABLISHED_NUDGING(() -> I_ESTABLISHED.enter().then(FPDUS_FLUSHED)),
        I_TERMINATE_PENDING(() -> I_ESTABLISHED.enter().then(RDMAP_FAILED)),
        I_CLOSING(() -> I_ESTABLISHED.enter().then(LOCAL_DISCONNECT)),
        I_CLOSING_FLUSH(() -> I_CLOSING.enter().then(GRACEFUL_DRAIN_FINISHED)),
        I_TERMINATING(() -> I_TERMINATE_PENDING.enter().then(TERMINATE_SENT)),
        I_LINGERING(() -> I_TERMINATING.enter().then(TERMINATE_WRITTEN)),
        I_ENDING(() -> I_ESTABLISHED.enter().then(LOCAL_ABORT)),
        I_CLOSED(() -> I_ESTABLISHED.enter().then(CHANNEL_INACTIVE)),
        R_STARTING(LifecycleDriver::responder),
        R_AWAITING_DECISION(() -> LifecycleDriver.responder().then(CONNECT_REQUEST)),
        R_ACCEPTED(() -> R_AWAITING_DECISION.enter().then(ACCEPTING));

        private final Supplier<LifecycleDriver> path;

        Situation(Supplier<LifecycleDriver> path) {
            this.path = path;
        }

        LifecycleDriver enter() {
            return path.get();
        }
    }

    /**
     * {@code situation | events | state after ("=": unchanged) | actions ("-": none)}; {@code A < B}: A's rows are
     * B's, then A's own. Closed rows: CLOSED(ending, LLP error reported, setup failure, DISCONNECTED fired, reason).
     * A row too long for a line goes on after a {@code \} at its end, indented further (the text block joins them).
     */
    private static final String TABLE = """
            I_STARTING | SETUP_ABANDONED | ENDING | setupFailed(REJECTED_BY_PEER) close
            I_STARTING | STARTUP_FAILED | ENDING | setupFailed(STARTUP_TIMEOUT) close
            I_STARTING | FULL_OPERATION | ESTABLISHED | established pump
            I_STARTING | FULL_OPERATION_RTR_FIRST | AWAITING_RTR | pump
            I_STARTING | SETUP_TERMINATE_REQUIRED | TERMINATE_PENDING | abortStream(MPA_NO_MATCHING_RTR) \
                setupFailed(MPA_NEGOTIATION) pump
            I_STARTING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            I_STARTING | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            I_STARTING | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=false,setup=CONNECTION_CLOSED,disconnected=false,end=SETUP_FAILED)

            I_AWAITING_RTR | RTR_SENT | ESTABLISHED | established
            I_AWAITING_RTR | RDMAP_FAILED | TERMINATE_PENDING | -
            I_AWAITING_RTR | TERMINATE_SENT | TERMINATING | afterTerminateFlushed setupFailed(TERMINATE_SENT)
            I_AWAITING_RTR | TERMINATE_RECEIVED | TERMINATING | close
            I_AWAITING_RTR | FPDUS_FLUSHED | = | schedule(FIRST_FPDU_NUDGE)
            I_AWAITING_RTR | STREAM_ERROR | TERMINATE_PENDING | abortStream(MPA_CRC_ERROR) pump
            I_AWAITING_RTR | CQ_OVERFLOW_RUNNING | TERMINATE_PENDING | reportCompletionQueueOverflow \
                abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_AWAITING_RTR | UNEXPECTED_ERROR_RUNNING | TERMINATE_PENDING | abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_AWAITING_RTR | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            I_AWAITING_RTR | LOCAL_DISCONNECT | CLOSING | queuePairClosing schedule(DISCONNECT) pump
            I_AWAITING_RTR | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            I_AWAITING_RTR | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=true,setup=CONNECTION_CLOSED,disconnected=false,end=SETUP_FAILED)

            I_ESTABLISHED < I_AWAITING_RTR
            I_ESTABLISHED | RTR_SENT | = | -
            I_ESTABLISHED | TERMINATE_SENT | TERMINATING | afterTerminateFlushed
            I_ESTABLISHED | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=true,setup=-,disconnected=true,end=PEER_CLOSED)

            I_ESTABLISHED_NUDGING < I_ESTABLISHED
            I_ESTABLISHED_NUDGING | FPDUS_FLUSHED | = | -
            I_ESTABLISHED_NUDGING | FPDU_RECEIVED | = | cancel(FIRST_FPDU_NUDGE)
            I_ESTABLISHED_NUDGING | NUDGE_FIRED | = | sendNudge
            I_ESTABLISHED_NUDGING | CHANNEL_INACTIVE | CLOSED | cancel(FIRST_FPDU_NUDGE) \
                closed(DISCONNECT,llp=true,setup=-,disconnected=true,end=PEER_CLOSED)

            I_TERMINATE_PENDING | TERMINATE_SENT | TERMINATING | afterTerminateFlushed
            I_TERMINATE_PENDING | TERMINATE_RECEIVED | TERMINATING | close
            I_TERMINATE_PENDING | TRANSMIT_HELD | ENDING | close
            I_TERMINATE_PENDING | STREAM_ERROR | = | abortStream(MPA_CRC_ERROR) pump
            I_TERMINATE_PENDING | CQ_OVERFLOW_RUNNING | = | reportCompletionQueueOverflow \
                abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_TERMINATE_PENDING | UNEXPECTED_ERROR_RUNNING | = | abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_TERMINATE_PENDING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | \
                close
            I_TERMINATE_PENDING | LOCAL_DISCONNECT | CLOSING | queuePairClosing schedule(DISCONNECT) pump
            I_TERMINATE_PENDING | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            I_TERMINATE_PENDING | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=PEER_CLOSED)

            I_CLOSING | TERMINATE_SENT | TERMINATING | afterTerminateFlushed
            I_CLOSING | TERMINATE_RECEIVED | TERMINATING | close
            I_CLOSING | GRACEFUL_DRAIN_FINISHED,TRANSMIT_HELD | CLOSING_FLUSH | flushGracefully
            I_CLOSING | STREAM_ERROR | = | abortStream(MPA_CRC_ERROR) pump
            I_CLOSING | CQ_OVERFLOW_RUNNING | = | reportCompletionQueueOverflow abortStream(RDMAP_LOCAL_CATASTROPHIC) \
                pump
            I_CLOSING | UNEXPECTED_ERROR_RUNNING | = | abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_CLOSING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            I_CLOSING | LOCAL_ABORT,DISCONNECT_FIRED | ENDING | endStream(DISCONNECT) reset
            I_CLOSING | CHANNEL_INACTIVE | CLOSED | cancel(DISCONNECT) \
                closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=LOCAL_DISCONNECT)

            I_CLOSING_FLUSH < I_CLOSING
            I_CLOSING_FLUSH | GRACEFUL_DRAIN_FINISHED,TRANSMIT_HELD | = | -
            I_CLOSING_FLUSH | GRACEFUL_FLUSH_WRITTEN | ENDING | endStream(DISCONNECT) close

            I_TERMINATING | TERMINATE_WRITTEN | = | halfClose schedule(TERMINATE_LINGER)
            I_TERMINATING | STREAM_ERROR | = | abortStream(MPA_CRC_ERROR) pump
            I_TERMINATING | CQ_OVERFLOW_RUNNING | = | reportCompletionQueueOverflow \
                abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_TERMINATING | UNEXPECTED_ERROR_RUNNING | = | abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_TERMINATING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            I_TERMINATING | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            I_TERMINATING | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=TERMINATE_SENT)

            I_LINGERING < I_TERMINATING
            I_LINGERING | TERMINATE_WRITTEN | = | -
            I_LINGERING | TERMINATE_LINGER_FIRED | = | close
            I_LINGERING | CHANNEL_INACTIVE | CLOSED | cancel(TERMINATE_LINGER) \
                closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=TERMINATE_SENT)

            I_ENDING | STREAM_ERROR | = | abortStream(MPA_CRC_ERROR) pump
            I_ENDING | CQ_OVERFLOW_RUNNING | = | reportCompletionQueueOverflow abortStream(RDMAP_LOCAL_CATASTROPHIC) \
                pump
            I_ENDING | UNEXPECTED_ERROR_RUNNING | = | abortStream(RDMAP_LOCAL_CATASTROPHIC) pump
            I_ENDING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            I_ENDING | STARTUP_FAILED | = | close
            I_ENDING | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=false,setup=-,disconnected=true,end=LOCAL_ABORT)

            R_STARTING | CONNECT_REQUEST | AWAITING_DECISION | connectRequest schedule(MPA_DECISION)
            R_STARTING | REQUEST_REFUSED | ENDING | setupFailed(REQUEST_REFUSED) flushAndClose
            R_STARTING | SETUP_ABANDONED,STARTUP_FAILED | ENDING | close
            R_STARTING | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | close
            R_STARTING | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            R_STARTING | CHANNEL_INACTIVE | CLOSED | \
                closed(DISCONNECT,llp=false,setup=-,disconnected=false,end=SETUP_FAILED)

            R_AWAITING_DECISION | ACCEPTING | STARTING | cancel(MPA_DECISION)
            R_AWAITING_DECISION | REQUEST_REJECTED | ENDING | cancel(MPA_DECISION)
            R_AWAITING_DECISION | SETUP_ABANDONED | ENDING | close
            R_AWAITING_DECISION | STARTUP_FAILED | ENDING | cancel(MPA_DECISION) close
            R_AWAITING_DECISION | MPA_DECISION_FIRED | = | rejectUnanswered
            R_AWAITING_DECISION | UNEXPECTED_ERROR_STOPPED,PEER_RESET,TRANSPORT_ERROR,PEER_CLOSED_INSIDE_FPDU | = | \
                close
            R_AWAITING_DECISION | LOCAL_ABORT | ENDING | endStream(DISCONNECT) reset
            R_AWAITING_DECISION | CHANNEL_INACTIVE | CLOSED | cancel(MPA_DECISION) \
                closed(DISCONNECT,llp=false,setup=-,disconnected=false,end=SETUP_FAILED)

            R_ACCEPTED < I_STARTING
            """;

    private record Expected(String state, List<String> actions) {
    }

    @Test
    void everyEventInEveryState() {
        Map<Situation, Map<Event, Expected>> table = parse();
        List<String> wrong = new ArrayList<>();
        for (Situation s : Situation.values()) {
            for (Event e : Event.values()) {
                LifecycleDriver d = s.enter().clear();
                ConnectionState before = d.state();
                d.then(e);
                Expected x = table.get(s).getOrDefault(e, new Expected("=", List.of()));
                String state = x.state().equals("=") ? before.name() : x.state();
                if (!state.equals(d.state().name()) || !x.actions().equals(d.log)) {
                    wrong.add(s + " + " + e + ": expected " + state + " " + x.actions() + ", was " + d.state() + " "
                            + d.log);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void theSituationsAreTheStatesTheyClaim() {
        for (Situation s : Situation.values()) {
            String claimed = s.name().substring(2).replace("_NUDGING", "").replace("LINGERING", "TERMINATING")
                    .replace("ACCEPTED", "STARTING");
            assertThat(s.enter().state().name()).as("%s", s).isEqualTo(claimed);
        }
        assertThat(Arrays.stream(Situation.values()).map(s -> s.enter().state()).distinct())
                .as("every state is covered").containsExactlyInAnyOrder(ConnectionState.values());
    }

    private static Map<Situation, Map<Event, Expected>> parse() {
        Map<Situation, Map<Event, Expected>> table = new HashMap<>();
        for (Situation s : Situation.values()) {
            table.put(s, new HashMap<>());
        }
        for (String line : TABLE.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.contains("<")) {
                String[] p = line.split("<");
                table.get(Situation.valueOf(p[0].trim())).putAll(table.get(Situation.valueOf(p[1].trim())));
                continue;
            }
            String[] p = line.split("\\|");
            String actions = p[3].trim();
            Expected x = new Expected(p[2].trim(), actions.equals("-") ? List.of() : List.of(actions.split("\\s+")));
            for (String event : p[1].split(",")) {
                table.get(Situation.valueOf(p[0].trim())).put(Event.valueOf(event.trim()), x);
            }
        }
        return table;
    }
}
