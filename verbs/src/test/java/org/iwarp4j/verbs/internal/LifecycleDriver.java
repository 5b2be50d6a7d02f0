package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.ConnectionLifecycle.Role;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.function.Consumer;

/**
 * Drives a {@link ConnectionLifecycle} without sockets: records its actions as short strings, keeps the callbacks
 * it hands out (timers, flushes) so that a test can fire them, and plays the RDMAP stream's part where an action
 * calls back (an aborted stream reports {@code rdmapFailed}, as {@code RdmapStream.abort} does).
 */
final class LifecycleDriver implements LifecycleActions {

    static final Terminate OURS = Terminate.of(TerminateCause.RDMAP_LOCAL_CATASTROPHIC);
    static final Terminate THEIRS = Terminate.of(TerminateCause.DDP_MESSAGE_TOO_LONG);
    static final Duration STARTUP = Duration.ofSeconds(10);
    static final Duration DISCONNECT = Duration.ofSeconds(5);

    final ConnectionLifecycle lifecycle;
    final List<String> log = new ArrayList<>();
    final List<Teardown> teardowns = new ArrayList<>();
    final EnumMap<ConnectionTimer, Runnable> timers = new EnumMap<>(ConnectionTimer.class);
    final EnumMap<ConnectionTimer, Duration> delays = new EnumMap<>(ConnectionTimer.class);
    final List<SetupFailure> setupFailures = new ArrayList<>();
    /** A timer was cancelled that was not armed. */
    boolean cancelledUnarmed;
    /** A timer was scheduled that was armed already. */
    boolean scheduledArmed;
    /** What {@link #outstandingResponses()} answers: Read/Atomic Requests awaiting their response. */
    int outstanding;
    private Runnable gracefulWritten;
    private Runnable terminateFlushed;

    LifecycleDriver(Role role, Duration nudge, Duration disconnectTimeout) {
        this(role, nudge, disconnectTimeout, Duration.ZERO);
    }

    /** {@code responseTimeout}: as QueuePairConfig.responseTimeout, given before Full Operation (zero: off). */
    LifecycleDriver(Role role, Duration nudge, Duration disconnectTimeout, Duration responseTimeout) {
        this.lifecycle = new ConnectionLifecycle(role, new PeerAccommodations(nudge, true, TerminateLayout.RFC),
                STARTUP, disconnectTimeout, this);
        lifecycle.watchResponses(responseTimeout);
    }

    static LifecycleDriver initiator() {
        return new LifecycleDriver(Role.INITIATOR, Duration.ofMillis(100), DISCONNECT);
    }

    static LifecycleDriver responder() {
        return new LifecycleDriver(Role.RESPONDER, Duration.ZERO, DISCONNECT);
    }

    ConnectionState state() {
        return lifecycle.state();
    }

    LifecycleDriver then(Event e) {
        e.apply(this);
        return this;
    }

    LifecycleDriver clear() {
        log.clear();
        return this;
    }

    boolean fire(ConnectionTimer t) {
        Runnable r = timers.remove(t);
        if (r != null) {
            r.run();
        }
        return r != null;
    }

    boolean gracefulFlushWritten() {
        Runnable r = gracefulWritten;
        gracefulWritten = null;
        if (r != null) {
            r.run();
        }
        return r != null;
    }

    boolean terminateFlushed() {
        Runnable r = terminateFlushed;
        terminateFlushed = null;
        if (r != null) {
            r.run();
        }
        return r != null;
    }

    /** What comes in: every method of the lifecycle, and the callbacks it handed out. */
    enum Event {
        CONNECT_REQUEST(d -> d.lifecycle.connectRequest()),
        ACCEPTING(d -> d.lifecycle.accepting()),
        REQUEST_REJECTED(d -> d.lifecycle.requestRejected()),
        REQUEST_REFUSED(d -> d.lifecycle.requestRefused(new Exception("IRD below the required ORD"))),
        SETUP_ABANDONED(d -> d.lifecycle.setupAbandoned(new SetupFailure(SetupFailure.Kind.REJECTED_BY_PEER, null,
                new Exception("rejected")))),
        STARTUP_FAILED(d -> d.lifecycle.startupFailed(new SetupFailure(SetupFailure.Kind.STARTUP_TIMEOUT,
                "MPA startup failed: TIMEOUT", new Exception("timeout")))),
        FULL_OPERATION(d -> d.lifecycle.fullOperation(false)),
        FULL_OPERATION_RTR_FIRST(d -> d.lifecycle.fullOperation(true)),
        SETUP_TERMINATE_REQUIRED(d -> d.lifecycle.setupTerminateRequired(TerminateCause.MPA_NO_MATCHING_RTR,
                "No matching RTR option", "MPA negotiation: NO_MATCHING_RTR")),
        RTR_SENT(d -> d.lifecycle.rtrSent()),
        RDMAP_FAILED(d -> d.lifecycle.rdmapFailed(OURS)),
        TERMINATE_SENT(d -> d.lifecycle.terminateSent(OURS)),
        TERMINATE_RECEIVED(d -> d.lifecycle.terminateReceived(THEIRS)),
        TERMINATE_WRITTEN(LifecycleDriver::terminateFlushed),
        FPDU_RECEIVED(d -> d.lifecycle.fpduReceived()),
        FPDUS_FLUSHED(d -> d.lifecycle.fpdusFlushed()),
        GRACEFUL_DRAIN_FINISHED(d -> d.lifecycle.gracefulDrainFinished()),
        TRANSMIT_HELD(d -> d.lifecycle.transmitHeld()),
        GRACEFUL_FLUSH_WRITTEN(LifecycleDriver::gracefulFlushWritten),
        STREAM_ERROR(d -> d.lifecycle.streamError(TerminateCause.MPA_CRC_ERROR, "CRC")),
        CQ_OVERFLOW_RUNNING(d -> d.lifecycle.completionQueueOverflowed(true)),
        CQ_OVERFLOW_STOPPED(d -> d.lifecycle.completionQueueOverflowed(false)),
        UNEXPECTED_ERROR_RUNNING(d -> d.lifecycle.unexpectedError(true, "bug")),
        UNEXPECTED_ERROR_STOPPED(d -> d.lifecycle.unexpectedError(false, "bug")),
        PEER_RESET(d -> d.lifecycle.connectionLost(Reason.PEER_RESET)),
        TRANSPORT_ERROR(d -> d.lifecycle.connectionLost(Reason.TRANSPORT_ERROR)),
        PEER_CLOSED_INSIDE_FPDU(d -> d.lifecycle.connectionLost(Reason.PEER_CLOSED_INSIDE_FPDU)),
        LOCAL_DISCONNECT(d -> d.lifecycle.localDisconnect()),
        LOCAL_ABORT(d -> d.lifecycle.localAbort()),
        MPA_DECISION_FIRED(d -> d.fire(ConnectionTimer.MPA_DECISION)),
        DISCONNECT_FIRED(d -> d.fire(ConnectionTimer.DISCONNECT)),
        TERMINATE_LINGER_FIRED(d -> d.fire(ConnectionTimer.TERMINATE_LINGER)),
        NUDGE_FIRED(d -> d.fire(ConnectionTimer.FIRST_FPDU_NUDGE)),
        RESPONSE_WATCH_FIRED(d -> d.fire(ConnectionTimer.RESPONSE_WATCH)),
        READ_OUTSTANDING(d -> d.outstanding++),
        /** The stream's count only: the FPDU that carried the response is FPDU_RECEIVED. */
        RESPONSE_ARRIVED(d -> d.outstanding = Math.max(0, d.outstanding - 1)),
        CHANNEL_INACTIVE(d -> d.lifecycle.channelInactive());

        private final Consumer<LifecycleDriver> apply;

        Event(Consumer<LifecycleDriver> apply) {
            this.apply = apply;
        }

        void apply(LifecycleDriver d) {
            apply.accept(d);
        }
    }

    // ------------------------------------------------------------------ LifecycleActions, recorded

    @Override
    public void connectRequest() {
        log.add("connectRequest");
    }

    @Override
    public void rejectUnanswered() {
        log.add("rejectUnanswered");
    }

    @Override
    public void established() {
        log.add("established");
    }

    @Override
    public void setupFailed(SetupFailure failure) {
        setupFailures.add(failure);
        log.add("setupFailed(" + failure.kind() + ")");
    }

    @Override
    public void abortStream(TerminateCause cause, String detail) {
        log.add("abortStream(" + cause.name() + ")");
        lifecycle.rdmapFailed(Terminate.of(cause));
    }

    @Override
    public void reportCompletionQueueOverflow() {
        log.add("reportCompletionQueueOverflow");
    }

    @Override
    public int outstandingResponses() {
        return outstanding;
    }

    @Override
    public void reportResponseTimeout(String detail) {
        log.add("reportResponseTimeout");
    }

    @Override
    public void sendNudge() {
        log.add("sendNudge");
    }

    @Override
    public void pump() {
        log.add("pump");
    }

    @Override
    public void queuePairClosing() {
        log.add("queuePairClosing");
    }

    @Override
    public void flushGracefully(Runnable written) {
        log.add("flushGracefully");
        gracefulWritten = written;
    }

    @Override
    public void endStream(Completions.Ending ending) {
        log.add("endStream(" + ending + ")");
    }

    @Override
    public void afterTerminateFlushed(Runnable written) {
        log.add("afterTerminateFlushed");
        terminateFlushed = written;
    }

    @Override
    public void halfClose() {
        log.add("halfClose");
    }

    @Override
    public void close() {
        log.add("close");
    }

    @Override
    public void flushAndClose() {
        log.add("flushAndClose");
    }

    @Override
    public void reset() {
        log.add("reset");
    }

    @Override
    public void schedule(ConnectionTimer timer, Duration delay, Runnable fired) {
        log.add("schedule(" + timer + ")");
        scheduledArmed |= timers.containsKey(timer);
        timers.put(timer, fired);
        delays.put(timer, delay);
    }

    @Override
    public void cancel(ConnectionTimer timer) {
        log.add("cancel(" + timer + ")");
        if (timers.remove(timer) == null) {
            cancelledUnarmed = true;
        }
    }

    @Override
    public void closed(Teardown t) {
        teardowns.add(t);
        log.add("closed(" + t.ending() + ",llp=" + t.reportLlpError() + ",setup="
                + (t.setupFailure() == null ? "-" : t.setupFailure().kind()) + ",disconnected=" + t.fireDisconnected()
                + ",end=" + t.end().reason() + ")");
    }
}
