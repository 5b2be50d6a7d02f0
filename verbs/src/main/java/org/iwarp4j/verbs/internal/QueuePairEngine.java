package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.RdmapException;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.OperationType;
import org.iwarp4j.rdmap.stream.RdmapListener;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.TerminateInfo;

import java.util.Optional;

/**
 * The event-loop side of a connected queue pair: owns the {@link RdmapStream} (the protocol core) and
 * the verbs send and receive queues, and is the stream's {@link RdmapListener}: completions go to the
 * completion queues, Terminates become async events and close the connection through the
 * {@link QueuePairHandler}, "something to send" makes the handler pump.
 */
final class QueuePairEngine implements RdmapListener {

    private final QueuePairImpl qp;
    private final QueuePairHandler link;
    private final Completions completions;
    private final SendQueue sendQueue;
    private final PostedReceives receiveQueue;
    private RdmapStream stream;

    QueuePairEngine(QueuePairImpl qp, QueuePairHandler link) {
        this.qp = qp;
        this.link = link;
        this.completions = new Completions(qp);
        this.sendQueue = new SendQueue(qp, completions, qp.config().maxSendWr(), qp.rnic().config().atomicByteOrder());
        this.receiveQueue = new PostedReceives(qp, completions, qp.receiveDepth(), qp.shared());
    }

    void start(RdmapStream s) {
        this.stream = s;
        completions.stream(s);
        sendQueue.stream(s);
        receiveQueue.stream(s);
    }

    RdmapStream stream() {
        return stream;
    }

    Completions completions() {
        return completions;
    }

    /** Takes everything posted so far: receives first (they may be needed by the next inbound Send). */
    void drainInbox() {
        ReceiveWorkRequest r;
        while ((r = qp.pollReceive()) != null) {
            receiveQueue.post(r);
        }
        SendPost p;
        while (!sendQueue.blocked() && (p = qp.pollSend()) != null) {
            sendQueue.submit(p);
        }
    }

    // ------------------------------------------------------------------ RdmapListener

    @Override
    public void onReceiveComplete(long workRequestId, OperationStatus status, RdmapOpcode opcode, int byteLength,
                                  int invalidatedStag, long immediateData) {
        receiveQueue.onComplete(workRequestId, status, opcode, byteLength, invalidatedStag, immediateData);
    }

    @Override
    public void onSendComplete(long workRequestId, OperationType type, OperationStatus status, long byteLength,
                               long atomicOriginalValue) {
        sendQueue.onRdmapComplete(status, atomicOriginalValue);
    }

    /**
     * A Send arrived with no receive posted in RDMAP: receives the application posted before (still in
     * the hand-over queue) go first — postReceive having returned, the receive counts as posted — then a
     * shared receive queue.
     */
    @Override
    public void onReceiveNeeded() {
        ReceiveWorkRequest r = qp.pollReceive();
        if (r != null) {
            receiveQueue.post(r);
            return;
        }
        receiveQueue.supplyFromShared();
    }

    @Override
    public void onTerminateReceived(Terminate terminate) {
        qp.state(QueuePairState.TERMINATE);
        TerminateInfo info = Terminates.received(terminate);
        qp.fireAsync(new AsyncEvent(AsyncEvent.Type.TERMINATE_RECEIVED, qp, Optional.of(info), "the peer sent " + info));
        link.terminateReceived();
    }

    @Override
    public void onTerminateSent(Terminate terminate) {
        link.terminateWritten(terminate);
    }

    @Override
    public void onFatalError(Throwable cause) {
        receiveQueue.streamFailed();
        if (cause instanceof RdmapException e) {
            qp.state(QueuePairState.TERMINATE);
            TerminateInfo info = Terminates.sent(e.terminate());
            qp.fireAsync(new AsyncEvent(AsyncEvent.Type.TERMINATE_SENT, qp, Optional.of(info), e.getMessage()));
        }
    }

    @Override
    public void onRtrSent(RtrType type) {
        link.rtrSent();
    }

    @Override
    public void onTransmitReady() {
        link.requestPump();
    }
}
