package org.iwarp4j.rdmap.stream;

import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.rdmap.terminate.Terminate;

/**
 * Chooses what goes out next, one DDP segment per call (the adapter pulls while the channel is
 * writable, so nothing queues up unboundedly below RDMAP).
 *
 * <ul>
 *   <li>Two sources — the send queue and the responses to the peer's Read/Atomic Requests — take turns
 *       message by message. The two directions of a stream are not ordered against each other
 *       (RFC 5040 §5.5), so this is pure fairness; within a source, order is kept by the source.</li>
 *   <li>A message is always finished before its source starts the next one, and at most one message is
 *       in progress (DDP never sees interleaved messages, nor does Linux siw, which drops a connection that
 *       interleaves).</li>
 *   <li>A Terminate is the next message once an error is detected ("as soon as possible, ideally the
 *       next outgoing message", RFC 5040 §7.1). A partly written untagged message is finished first:
 *       receivers such as siw reject an untagged message that is interrupted by another untagged one
 *       ("packet intersection"). A partly written tagged message is abandoned. After the Terminate
 *       nothing is sent [RDMAP-19].</li>
 * </ul>
 */
final class Transmitter {

    private final SendProgress progress;
    private final TerminateWriter terminates;
    private final StreamFailures failures;
    private final TransmitSource requests;
    private final TransmitSource responses;
    private TransmitSource active;
    private boolean responsesFirst;
    private OutboundMessage draining;
    private Terminate pendingTerminate;

    Transmitter(SendProgress progress, TerminateWriter terminates, StreamFailures failures, TransmitSource requests,
                TransmitSource responses) {
        this.progress = progress;
        this.terminates = terminates;
        this.failures = failures;
        this.requests = requests;
        this.responses = responses;
    }

    boolean hasPending() {
        if (pendingTerminate != null) {
            return true;
        }
        return progress.operational() && (active != null || requests.canWrite() || responses.canWrite());
    }

    /** A message is partly written: its source, or the untagged message drained before a Terminate. */
    boolean messageInProgress() {
        return (draining != null && !draining.isDone()) || (active != null && active.hasMessageInProgress());
    }

    boolean terminatePending() {
        return pendingTerminate != null;
    }

    /** Writes at most one segment; true if one was handed to the lower layer. */
    boolean writeNextSegment() {
        for (int attempt = 0; attempt < 3; attempt++) {
            long before = progress.segmentsProduced();
            step();
            if (progress.segmentsProduced() != before) {
                return true;
            }
            if (!hasPending()) {
                return false;
            }
        }
        return false;
    }

    private void step() {
        if (pendingTerminate != null) {
            if (draining != null && !draining.isDone()) {
                draining.writeNextSegment();
                return;
            }
            draining = null;
            Terminate t = pendingTerminate;
            pendingTerminate = null;
            terminates.writeTerminate(t);
            return;
        }
        if (!progress.operational()) {
            return;
        }
        if (active == null) {
            TransmitSource first = responsesFirst ? responses : requests;
            TransmitSource second = responsesFirst ? requests : responses;
            if (first.canWrite()) {
                active = first;
            } else if (second.canWrite()) {
                active = second;
            } else {
                return;
            }
            responsesFirst = active == requests; // take turns message by message
        }
        TransmitSource source = active;
        try {
            source.writeSegment();
        } catch (RuntimeException e) {
            // e.g. a MULPDU too small for a header, or a buffer released behind our back
            OutboundMessage m = source.inProgressMessage();
            source.detachInProgress();
            if (m != null) {
                m.abandon();
            }
            active = null;
            failures.failLocal(failures.localCatastrophicCause(), "cannot write a segment: " + e);
            return;
        }
        if (active == source && !source.hasMessageInProgress()) {
            active = null;
        }
    }

    /** An error was detected: the Terminate goes next, after the untagged message in progress (if any). */
    void prepareTerminate(Terminate terminate) {
        pendingTerminate = terminate;
        if (active != null) {
            OutboundMessage inProgress = active.inProgressMessage();
            active.detachInProgress();
            active = null;
            if (inProgress != null) {
                if (inProgress.isTagged()) {
                    inProgress.abandon();
                } else {
                    draining = inProgress;
                }
            }
        }
    }

    /** Nothing more will be sent (Terminate received, connection lost, close). */
    void abandonAll() {
        pendingTerminate = null;
        if (draining != null) {
            draining.abandon();
            draining = null;
        }
        if (active != null) {
            OutboundMessage inProgress = active.inProgressMessage();
            active.detachInProgress();
            active = null;
            if (inProgress != null) {
                inProgress.abandon();
            }
        }
    }
}
