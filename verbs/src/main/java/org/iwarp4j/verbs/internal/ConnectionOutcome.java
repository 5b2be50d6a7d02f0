package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.verbs.internal.ConnectionEnd.Reason;

/**
 * What a connection promised its application (the established future) and why it ended: the bookkeeping that
 * {@link ConnectionLifecycle} keeps beside its state. The first decision on the reason wins.
 */
final class ConnectionOutcome {

    /** REFUSED: a Responder's Request was rejected; no accept can follow. */
    private enum Establishment { NONE, REFUSED, PENDING, ANNOUNCED, FAILED }

    private Establishment establishment;
    private Reason reason;
    private Terminate queued;
    private Terminate sent;
    private Terminate received;

    /** {@code future}: the established future exists from the start (the Initiator's connect() returns it). */
    ConnectionOutcome(boolean future) {
        this.establishment = future ? Establishment.PENDING : Establishment.NONE;
    }

    /** Responder: the application accepted; its established future now waits. */
    void bind() {
        if (establishment == Establishment.NONE) {
            establishment = Establishment.PENDING;
        }
    }

    /** Responder: the Request was rejected (by MPA or the application), so it is never accepted. */
    void refuse() {
        if (establishment == Establishment.NONE) {
            establishment = Establishment.REFUSED;
        }
    }

    boolean hasFuture() {
        return establishment != Establishment.NONE && establishment != Establishment.REFUSED;
    }

    /** The established future waits and nothing has decided the end yet (a connection going is not established). */
    boolean mayEstablish() {
        return establishment == Establishment.PENDING && reason == null;
    }

    boolean announced() {
        return establishment == Establishment.ANNOUNCED;
    }

    /** Whether ESTABLISHED is to be announced now (once, and never after a failure). */
    boolean announce() {
        return move(Establishment.ANNOUNCED);
    }

    /** Whether the established future is to fail now (once, and never after ESTABLISHED). */
    boolean fail() {
        return move(Establishment.FAILED);
    }

    private boolean move(Establishment to) {
        if (establishment != Establishment.PENDING) {
            return false;
        }
        establishment = to;
        return true;
    }

    /** A connection that was never established ended in its setup, whatever ended it. */
    void decide(Reason why) {
        if (reason == null) {
            reason = announced() ? why : Reason.SETUP_FAILED;
        }
    }

    /** The disconnect timer turned a graceful disconnect abortive: that is why it ended. */
    void disconnectTimedOut() {
        if (reason == Reason.LOCAL_DISCONNECT) {
            reason = Reason.DISCONNECT_TIMEOUT;
        }
        decide(Reason.DISCONNECT_TIMEOUT);
    }

    void terminateQueued(Terminate t) {
        if (queued == null) {
            queued = t;
        }
    }

    void terminateSent(Terminate t) {
        sent = t;
    }

    void terminateReceived(Terminate t) {
        received = t;
    }

    boolean terminateWasSent() {
        return sent != null;
    }

    /** Why the connection ended, or {@code null} while that is not decided. */
    ConnectionEnd end() {
        if (reason == null) {
            return null;
        }
        Terminate t = switch (reason) {
            case TERMINATE_SENT -> sent;
            case TERMINATE_WITHHELD -> queued;
            case TERMINATE_RECEIVED -> received;
            default -> sent != null ? sent : received != null ? received : queued;
        };
        return new ConnectionEnd(reason, t);
    }
}
