package org.iwarp4j.verbs.internal;

import java.time.Duration;
import java.util.EnumSet;
import java.util.function.Consumer;

/** The timers of {@link ConnectionLifecycle}: one per purpose, each armed at most once at a time. */
enum ConnectionTimer {
    /** Responder: reject an undecided Request at 4/5 of the MPA startup timeout. */
    MPA_DECISION,
    /** A graceful disconnect that does not finish in time turns abortive. */
    DISCONNECT,
    /** After our Terminate and FIN: close if the peer has not closed its side (interop/FINDINGS.md O1). */
    TERMINATE_LINGER,
    /** Initiator: nudge a peer silent since our first FPDUs (interop/FINDINGS.md M15). */
    FIRST_FPDU_NUDGE,
    /** While the stream runs: a tick of the {@link ResponseWatchdog} (QueuePairConfig.responseTimeout). */
    RESPONSE_WATCH;

    /** The timers a lifecycle has armed, scheduled and cancelled through its actions. */
    static final class Armed {
        private final EnumSet<ConnectionTimer> armed = EnumSet.noneOf(ConnectionTimer.class);
        private final LifecycleActions actions;
        private final Consumer<ConnectionTimer> fired;

        /** {@code fired}: what to run when a timer runs out. */
        Armed(LifecycleActions actions, Consumer<ConnectionTimer> fired) {
            this.actions = actions;
            this.fired = fired;
        }

        void schedule(ConnectionTimer timer, Duration delay) {
            armed.add(timer);
            actions.schedule(timer, delay, () -> fired.accept(timer));
        }

        void cancel(ConnectionTimer timer) {
            if (armed.remove(timer)) {
                actions.cancel(timer);
            }
        }

        boolean isArmed(ConnectionTimer timer) {
            return armed.contains(timer);
        }

        /** Whether {@code timer} was armed (it is not any more). */
        boolean fired(ConnectionTimer timer) {
            return armed.remove(timer);
        }

        void cancelAll() {
            for (ConnectionTimer t : armed) {
                actions.cancel(t);
            }
            armed.clear();
        }
    }
}
