package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;
import org.iwarp4j.verbs.internal.SetupFailure.Kind;

import java.time.Duration;
import java.util.Objects;

import static org.iwarp4j.verbs.internal.ConnectionState.*;
import static org.iwarp4j.verbs.internal.ConnectionTimer.*;

/**
 * The life of one connection (MPA startup, Full Operation, teardown, Terminates) as a pure state machine over
 * {@link ConnectionState}, after Netty's {@code Http2LifecycleManager} and siw's {@code siw_cm.c}: events in as
 * calls from {@link QueuePairHandler}, {@link QueuePairEngine.Lifecycle} and {@link TransmitPump.Control};
 * decisions out through {@link LifecycleActions}; events meaningless in a state are ignored. No channel, buffer
 * or event loop; confined to the connection's loop. An action may call back in (an aborted stream reports
 * {@link #rdmapFailed}): the state is updated before a transition's actions go out.
 */
final class ConnectionLifecycle implements QueuePairEngine.Lifecycle, TransmitPump.Control {

    enum Role { INITIATOR, RESPONDER }

    /** How long after our Terminate and FIN the peer may take to close before we do (interop/FINDINGS.md O1). */
    static final Duration LINGER_AFTER_TERMINATE = Duration.ofSeconds(1);

    private final LifecycleActions actions;
    private final PeerAccommodations peer;
    private final Duration decisionTimeout;
    private final Duration disconnectTimeout;
    private final ConnectionOutcome outcome;
    private final ConnectionTimer.Armed timers;
    private ConnectionState state = STARTING;
    /** An I/O failure other than a reset was seen (sticky, as the handler's flag was: see {@link #channelInactive}). */
    private boolean transportFailed;
    private boolean peerSpoke;
    private boolean nudgeArmed;
    /** QueuePairConfig.responseTimeout: {@code null} when off. */
    private ResponseWatchdog watchdog;
    /** FPDUs received since Full Operation: the watchdog's sign of life. */
    private long fpdusReceived;

    /** {@code mpaStartupTimeout}: the Responder rejects an undecided Request at 4/5 of it. */
    ConnectionLifecycle(Role role, PeerAccommodations peer, Duration mpaStartupTimeout, Duration disconnectTimeout,
                        LifecycleActions actions) {
        this.actions = Objects.requireNonNull(actions, "actions");
        this.peer = Objects.requireNonNull(peer, "peer");
        this.decisionTimeout = Duration.ofNanos(mpaStartupTimeout.toNanos() * 4 / 5);
        this.disconnectTimeout = Objects.requireNonNull(disconnectTimeout, "disconnectTimeout");
        this.outcome = new ConnectionOutcome(role == Role.INITIATOR);
        this.timers = new ConnectionTimer.Armed(actions, this::timerFired);
    }

    ConnectionState state() { return state; }

    /** Whether the peer sent anything since Full Operation (its first FPDU is special: the Responder hold, M17). */
    boolean peerSpoke() { return peerSpoke; }

    // ------------------------------------------------------------------ MPA startup

    /** Responder: MPA has a valid Request for the application. */
    void connectRequest() {
        if (state == STARTING && !outcome.hasFuture()) {
            state = AWAITING_DECISION;
            actions.connectRequest();
            timers.schedule(MPA_DECISION, decisionTimeout); // siw reports REJECTED then, not UNREACHABLE
        }
    }

    /** Responder: the application accepts with a queue pair, whose established future now waits. */
    void accepting() {
        if (state != CLOSED) {
            timers.cancel(MPA_DECISION);
            outcome.bind();
            state = state == AWAITING_DECISION ? STARTING : state;
        }
    }

    /** Responder: the application (or the decision timer) rejected the Request; its reject closes TCP. */
    void requestRejected() {
        if (state == AWAITING_DECISION) {
            timers.cancel(MPA_DECISION);
            enterEnding(Reason.SETUP_FAILED);
            outcome.refuse();
        }
    }

    /** Responder, RFC 6581 §9.1: MPA rejected the Request itself; close once the Reply is out. */
    void requestRefused(Throwable rejection) {
        if (state == STARTING && !outcome.hasFuture()) {
            enterEnding(Reason.SETUP_FAILED);
            outcome.refuse();
            actions.setupFailed(new SetupFailure(Kind.REQUEST_REFUSED, null, rejection));
            actions.flushAndClose();
        }
    }

    /** MPA's startup failed (also after this side closed TCP during it). */
    void startupFailed(SetupFailure failure) {
        if (state == STARTING || state == AWAITING_DECISION || state == ENDING) {
            timers.cancel(MPA_DECISION);
            enterEnding(Reason.SETUP_FAILED);
            failEstablishment(failure);
            actions.close();
        }
    }

    /**
     * The setup ends here, with {@code failure} for the established future ({@code null}: there is none): the
     * peer rejected us (RFC 5044 §7.1.2: MPA is left, TCP stays open for us to close), the Reply's private data
     * is refused (rule 3, MPA-37: leave MPA without sending anything), or no queue pair was bound.
     */
    void setupAbandoned(SetupFailure failure) {
        if (state == STARTING || state == AWAITING_DECISION) {
            enterEnding(Reason.SETUP_FAILED);
            if (failure != null) {
                failEstablishment(failure);
            }
            actions.close();
        }
    }

    /**
     * Before Full Operation, once the queue pair is known: watch for a peer that goes silent while it owes a Read
     * or Atomic Response ({@code timeout} zero: never).
     */
    void watchResponses(Duration timeout) {
        if (!timeout.isZero() && watchdog == null) {
            watchdog = new ResponseWatchdog(timeout);
        }
    }

    /** Full Operation with the stream open; {@code rtrFirst}: RFC 6581 §9.3, ESTABLISHED once the RTR is out. */
    void fullOperation(boolean rtrFirst) {
        if (state == STARTING && outcome.mayEstablish()) {
            state = rtrFirst ? AWAITING_RTR : ESTABLISHED;
            if (!rtrFirst) {
                announce();
            }
            actions.pump();
        }
    }

    /** RFC 6581 §9.1, §9.3 (MPA-69, MPA-74): the stream is open and its first FPDU must be this Terminate. */
    void setupTerminateRequired(TerminateCause cause, String description, String failure) {
        if (state == STARTING && outcome.mayEstablish()) {
            state = TERMINATE_PENDING;
            outcome.decide(Reason.SETUP_FAILED);
            actions.abortStream(cause, description);
            failEstablishment(new SetupFailure(Kind.MPA_NEGOTIATION, failure, null));
            actions.pump();
        }
    }

    // ------------------------------------------------------------------ the stream (QueuePairEngine)

    @Override
    public void rtrSent() {
        if (state == AWAITING_RTR && outcome.mayEstablish()) {
            state = ESTABLISHED;
            announce();
        }
    }

    @Override
    public void rdmapFailed(Terminate queued) {
        if (streamUp()) {
            outcome.terminateQueued(queued);
            state = streamRunning() ? TERMINATE_PENDING : state;
        }
    }

    /** RFC 5040 §6.2.1, interop/FINDINGS.md O1: once our Terminate is written, close so that it arrives. */
    @Override
    public void terminateSent(Terminate terminate) {
        if (streamUp()) {
            outcome.terminateSent(terminate);
            state = TERMINATING;
            outcome.decide(Reason.TERMINATE_SENT);
            actions.afterTerminateFlushed(this::terminateWritten);
            failEstablishment(new SetupFailure(Kind.TERMINATE_SENT, terminate.describe(), null));
        }
    }

    /** RFC 5040 §5.4: the peer sends nothing after its Terminate; close. */
    @Override
    public void terminateReceived(Terminate terminate) {
        if (streamUp()) {
            outcome.terminateReceived(terminate);
            state = TERMINATING;
            outcome.decide(Reason.TERMINATE_RECEIVED);
            actions.close();
        }
    }

    /**
     * Our Terminate is written (or failed): half-close (FIN), read and drop what the peer still sends, close when it
     * closes or after the linger. Closing at once would make the kernel answer the peer's unread FPDUs with RST,
     * and a peer that drops received data on RST would lose our Terminate (interop/FINDINGS.md O1).
     */
    private void terminateWritten() {
        if (state == TERMINATING && outcome.terminateWasSent() && !timers.isArmed(TERMINATE_LINGER)) {
            timers.cancel(DISCONNECT);
            actions.halfClose();
            timers.schedule(TERMINATE_LINGER, disconnectTimeout.compareTo(LINGER_AFTER_TERMINATE) < 0
                    ? disconnectTimeout : LINGER_AFTER_TERMINATE);
        }
    }

    /** A ULPDU arrived from the peer. */
    void fpduReceived() {
        peerSpoke = true;
        fpdusReceived++;
        timers.cancel(FIRST_FPDU_NUDGE);
    }

    // ------------------------------------------------------------------ transmission (TransmitPump)

    @Override
    public boolean finishingMessageOnly() {
        return state == CLOSING || state == CLOSING_FLUSH;
    }

    @Override
    public void gracefulDrainFinished() {
        if (state == CLOSING) {
            state = CLOSING_FLUSH;
            actions.flushGracefully(this::gracefulFlushWritten);
        }
    }

    @Override
    public void transmitHeld() {
        if (state == TERMINATE_PENDING) {
            // RFC 5044 §7.1.2 rule 4 (MPA-38): no FPDU before one was validated, so an error then closes silently.
            enterEnding(Reason.TERMINATE_WITHHELD);
            actions.close();
        } else if (state == CLOSING) {
            gracefulDrainFinished(); // nothing is in progress while MPA holds every FPDU
        }
    }

    /** interop/FINDINGS.md M15: once our first FPDUs are out, the peer has the nudge time to answer. */
    @Override
    public void fpdusFlushed() {
        if (peer.nudges() && !nudgeArmed && !peerSpoke && streamRunning()) {
            nudgeArmed = true;
            timers.schedule(FIRST_FPDU_NUDGE, peer.firstFpduNudge());
        }
    }

    // ------------------------------------------------------------------ errors

    /**
     * RFC 5040 §7.1: the stream fails with a Terminate of {@code cause} and no copied header; e.g. an MPA CRC or
     * marker error (RFC 5044 §8, MPA-45: MPA leaves TCP open so that RDMAP can send it).
     */
    void streamError(TerminateCause cause, String detail) {
        if (afterStartup()) {
            actions.abortStream(cause, detail);
            actions.pump();
        }
    }

    /** RFC 5040 §8.1.1: a completion queue overflowed; a running stream fails (Local Catastrophic). */
    void completionQueueOverflowed(boolean streamRunning) {
        if (streamRunning && afterStartup()) {
            actions.reportCompletionQueueOverflow();
            streamError(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, "completion queue overflow");
        }
    }

    /** An internal failure: a running stream reports it with a Terminate, else TCP closes. */
    void unexpectedError(boolean streamRunning, String detail) {
        if (streamRunning) {
            streamError(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, detail);
        } else if (state != CLOSED) {
            outcome.decide(Reason.TERMINATE_WITHHELD);
            actions.close();
        }
    }

    /**
     * TCP failed or ended badly, and we close: {@code why} is {@link Reason#PEER_RESET},
     * {@link Reason#TRANSPORT_ERROR}, {@link Reason#TCP_TIMEOUT} or {@link Reason#PEER_CLOSED_INSIDE_FPDU}
     * (RFC 5044 §8 code 0x01).
     */
    void connectionLost(Reason why) {
        if (state != CLOSED) {
            transportFailed |= why == Reason.TRANSPORT_ERROR || why == Reason.TCP_TIMEOUT;
            outcome.decide(why);
            actions.close();
        }
    }

    // ------------------------------------------------------------------ the application

    /** Graceful disconnect (RFC 5040 §6.2.1); forwarded only while the channel is active. */
    void localDisconnect() {
        if (streamRunning() || state == TERMINATE_PENDING) {
            state = CLOSING;
            outcome.decide(Reason.LOCAL_DISCONNECT);
            actions.queuePairClosing();
            timers.schedule(DISCONNECT, disconnectTimeout);
            actions.pump();
        }
    }

    /** Abortive close; forwarded only while the channel is open. */
    void localAbort() {
        if (state != ENDING && state != CLOSED) {
            outcome.decide(Reason.LOCAL_ABORT);
            abort();
        }
    }

    /** The graceful flush is written (or failed): the stream ends, TCP closes. */
    private void gracefulFlushWritten() {
        if (state != ENDING && state != CLOSED) {
            state = ENDING;
            actions.endStream(Completions.Ending.DISCONNECT);
            actions.close();
        }
    }

    /** A timer ran out. */
    private void timerFired(ConnectionTimer timer) {
        if (!timers.fired(timer)) {
            return;
        }
        switch (timer) {
            case MPA_DECISION -> {
                if (state == AWAITING_DECISION) {
                    actions.rejectUnanswered();
                }
            }
            case DISCONNECT -> {
                if (state != ENDING && state != CLOSED) {
                    outcome.disconnectTimedOut();
                    abort();
                }
            }
            case TERMINATE_LINGER -> actions.close();
            case FIRST_FPDU_NUDGE -> {
                if (!peerSpoke && streamRunning()) {
                    actions.sendNudge();
                }
            }
            case RESPONSE_WATCH -> {
                if (streamRunning()) {
                    if (watchdog.tick(actions.outstandingResponses(), fpdusReceived)) {
                        responseTimedOut();
                    } else {
                        timers.schedule(RESPONSE_WATCH, watchdog.tickInterval());
                    }
                }
            }
        }
    }

    /**
     * RFC 5044 §7.1.2 rule 10 (MPA-39): the peer owes a response and has sent nothing for the whole timeout. It broke
     * no rule we could name in a Terminate, and may not be there to read one: the outstanding request completes with
     * RESPONSE_TIMEOUT, the rest is flushed, the queue pair fails and TCP is closed (a FIN).
     */
    private void responseTimedOut() {
        state = ENDING;
        outcome.decide(Reason.RESPONSE_TIMEOUT);
        actions.endStream(Completions.Ending.RESPONSE_TIMEOUT);
        actions.reportResponseTimeout(ResponseWatchdog.describe(watchdog.timeout()));
        actions.close();
    }

    /**
     * The channel is gone. RFC 5044 §8 code 0x01 (MPA-43, DDP-33): a FIN, RST or TCP failure that ends a running
     * stream reaches RDMAP and the application as the LLP error 0x2/0x0/0x01; not when this side was closing (a
     * disconnect, an abort, a Terminate). Outstanding work is flushed as a transport error if any I/O failure
     * other than a reset was seen while nothing of ours was closing, even one that followed a reset.
     */
    void channelInactive() {
        if (state == CLOSED) {
            return;
        }
        boolean closingNone = state == STARTING || state == AWAITING_DECISION || streamRunning()
                || state == TERMINATE_PENDING;
        boolean reportLlpError = streamRunning();
        outcome.decide(Reason.PEER_CLOSED);
        state = CLOSED;
        timers.cancelAll();
        SetupFailure failure = outcome.fail() ? new SetupFailure(Kind.CONNECTION_CLOSED, null, null) : null;
        actions.closed(new LifecycleActions.Teardown(closingNone && transportFailed ? Completions.Ending.TRANSPORT
                : Completions.Ending.DISCONNECT, reportLlpError, failure, outcome.announced(), outcome.end()));
    }

    /** The stream runs: Full Operation, nothing failed, nothing of ours closing. */
    private boolean streamRunning() {
        return state == AWAITING_RTR || state == ESTABLISHED;
    }

    /** Past MPA's startup, the channel not yet gone (the stream may have ended or never opened: ENDING). */
    private boolean afterStartup() {
        return state != STARTING && state != AWAITING_DECISION && state != CLOSED;
    }

    /** The stream is open and no Terminate went either way. */
    private boolean streamUp() {
        return streamRunning() || state == TERMINATE_PENDING || state == CLOSING || state == CLOSING_FLUSH;
    }

    private void announce() {
        if (outcome.announce()) {
            actions.established();
            if (watchdog != null) {
                timers.schedule(RESPONSE_WATCH, watchdog.tickInterval());
            }
        }
    }

    private void failEstablishment(SetupFailure failure) {
        if (outcome.fail()) {
            actions.setupFailed(failure);
        }
    }

    private void abort() {
        state = ENDING;
        actions.endStream(Completions.Ending.DISCONNECT);
        actions.reset();
    }

    private void enterEnding(Reason why) {
        state = ENDING;
        outcome.decide(why);
    }
}
