package org.iwarp4j.verbs.internal;

import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.rdmap.RdmapException;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.OperationType;
import org.iwarp4j.rdmap.stream.RdmapListener;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.TerminateInfo;

import java.util.Optional;

/**
 * The event-loop side of a connected queue pair: owns the {@link RdmapStream} (the protocol core) and
 * the verbs send and receive queues, and is the stream's {@link RdmapListener}: completions go to the
 * completion queues, Terminates become async events and go to the connection's {@link Lifecycle},
 * "something to send" to the transmit pump. Created when MPA reaches Full Operation, with its stream.
 */
final class QueuePairEngine implements RdmapListener {

    /** What the stream's life means for the connection. */
    interface Lifecycle {
        /** RFC 6581 §9.3: the Initiator's RTR was handed to MPA. */
        void rtrSent();

        /** RFC 5040 §7.1: this side detected an error; {@code queued} is its Terminate. */
        void rdmapFailed(Terminate queued);

        /** Our Terminate was handed to MPA; nothing more will be sent [RDMAP-19]. */
        void terminateSent(Terminate terminate);

        /** RFC 5040 §5.4: the peer's Terminate arrived. */
        void terminateReceived(Terminate terminate);
    }

    private final QueuePairImpl qp;
    private final Lifecycle lifecycle;
    private final Runnable transmitReady;
    private final RdmapStream stream;
    private final Completions completions;
    private final SendQueue sendQueue;
    private final PostedReceives receiveQueue;

    /**
     * @param params        what MPA negotiated
     * @param peer          the peer, as the stream's frame log names it
     * @param layout        how to read the peer's Terminates
     * @param llp           MPA as RDMAP sees it (and whether it holds our FPDUs)
     * @param transmitReady asks for the transmit pump to run
     */
    QueuePairEngine(QueuePairImpl qp, MpaParameters params, Object peer, TerminateLayout layout,
                    TransmitPump.Segments llp, Lifecycle lifecycle, Runnable transmitReady) {
        this.qp = qp;
        this.lifecycle = lifecycle;
        this.transmitReady = transmitReady;
        RnicImpl rnic = qp.rnic();
        int ird = Math.min(params.ird(), RdmapStreamConfig.MAX_READ_DEPTH);
        int ord = Math.min(params.ord(), RdmapStreamConfig.MAX_READ_DEPTH);
        // The identity names the stream in the RDMAP frame log ("[qp3 /127.0.0.1:41234] >> SEND ...").
        Object identity = new StreamName(qp.number(), peer);
        RdmapStreamConfig config = new RdmapStreamConfig(ird, ord, qp.config().rfc7306(), qp.pd().number(), identity,
                qp.config().maxSendWr(), qp.receiveDepth(), layout);
        // The stream calls its listener only from its methods, never while it is constructed: this engine may
        // listen before its queues exist.
        this.stream = new RdmapStream(config, rnic.memory(), rnic.atomics(), llp, rnic.allocator(), this);
        this.completions = new Completions(qp, stream, llp::held);
        this.sendQueue = new SendQueue(qp, completions, stream, qp.config().maxSendWr(),
                rnic.config().atomicByteOrder());
        this.receiveQueue = new PostedReceives(qp, completions, stream, qp.receiveDepth(), qp.shared());
    }

    RdmapStream stream() {
        return stream;
    }

    /**
     * Full Operation: the stream's first message as MPA negotiated it, then what the application posted goes to
     * RDMAP. Returns whether the Initiator's RTR must go out before ESTABLISHED (RFC 6581 §5, §9.3, MPA-74/75).
     */
    boolean begin(MpaParameters params, boolean initiator) {
        boolean rtrFirst = initiator && params.rtr() != null;
        if (rtrFirst) {
            stream.sendRtr(params.rtr());
        } else if (!initiator && params.peerToPeer() && !params.rtrTypes().isEmpty()) {
            // RFC 6581 §9.3: the Initiator picks one of the mutually supported RTRs; none consumes a user receive.
            stream.expectRtr(params.rtrTypes());
        }
        qp.start(this);
        return rtrFirst;
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

    /** A receive posted on the loop, taken at once (nothing handed over waits before it). */
    void postReceive(ReceiveWorkRequest r) {
        receiveQueue.post(r);
    }

    /** Whether a send may be taken at once: no fenced request holds the send queue. */
    boolean takesSendsNow() {
        return !sendQueue.blocked();
    }

    /** A send posted on the loop, taken at once (nothing handed over waits before it, the queue not held). */
    void submit(SendPost p) {
        sendQueue.submit(p);
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
        qp.fireAsync(new AsyncEvent(AsyncEvent.Type.TERMINATE_RECEIVED, qp, Optional.of(info), "the peer sent a"
                + " Terminate: " + info.codes() + " " + info.description()));
        lifecycle.terminateReceived(terminate);
    }

    @Override
    public void onTerminateSent(Terminate terminate) {
        lifecycle.terminateSent(terminate);
    }

    @Override
    public void onFatalError(Throwable cause) {
        receiveQueue.streamFailed();
        if (cause instanceof RdmapException e) {
            qp.state(QueuePairState.TERMINATE);
            TerminateInfo info = completions.terminate();
            AsyncEvent.Type type = info.direction() == TerminateInfo.Direction.WITHHELD
                    ? AsyncEvent.Type.TERMINATE_WITHHELD : AsyncEvent.Type.TERMINATE_SENT;
            qp.fireAsync(new AsyncEvent(type, qp, Optional.of(info), e.getMessage()));
            lifecycle.rdmapFailed(e.terminate());
        }
    }

    @Override
    public void onRtrSent(RtrType type) {
        lifecycle.rtrSent();
    }

    @Override
    public void onTransmitReady() {
        transmitReady.run();
    }

    /**
     * A stream's identity (compared by reference) that prints as its queue pair and peer; the text is made only
     * when something prints it (the frame log, an error), not for every connection.
     */
    private static final class StreamName {
        private final int queuePair;
        private final Object peer;

        StreamName(int queuePair, Object peer) {
            this.queuePair = queuePair;
            this.peer = peer;
        }

        @Override
        public String toString() {
            return "qp" + queuePair + " " + peer;
        }
    }
}
