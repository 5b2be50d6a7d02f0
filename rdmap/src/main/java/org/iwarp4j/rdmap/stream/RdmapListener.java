package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.RdmapOpcode;

/**
 * What an {@link RdmapStream} tells the verbs layer, in the style of Netty's {@code Http2FrameListener}:
 * one typed call per event, primitives only, no per-segment objects.
 *
 * <p><b>Threading.</b> Every call happens on the stream's event loop, synchronously inside the
 * {@link RdmapStream} method that caused it ({@code receive}, {@code writeNextSegment},
 * {@code segmentsWritten}, {@code submit}, {@code postReceive}, {@code abort}, {@code close}, ...).
 * Listeners may call back into the stream (post a receive, submit an operation) from a callback; they
 * must not block.
 *
 * <p><b>Order.</b> Send completions come in submission order [RDMAP-22]; receive completions in the
 * order the messages were sent [RDMAP-23]. When the stream fails, {@link #onFatalError} or
 * {@link #onTerminateReceived} comes first, then the flush completions of everything outstanding.
 */
public interface RdmapListener {

    /**
     * A posted receive completed (RFC 5040 §5.3, RFC 7306 §6): a Send variant or Immediate Data message
     * was delivered into it, or it was flushed.
     *
     * @param workRequestId   the id given to {@link RdmapStream#postReceive}
     * @param status          {@link OperationStatus#SUCCESS} or {@link OperationStatus#FLUSHED}
     * @param opcode          the message's opcode (Send variants, Immediate Data variants); {@code null} when flushed.
     *                        Solicited event = {@code opcode.solicitedEvent()}.
     * @param byteLength      octets placed into the receive buffer (0 for Immediate Data)
     * @param invalidatedStag the STag invalidated by a Send with Invalidate (only when
     *                        {@code opcode.carriesInvalidateStag()})
     * @param immediateData   the 8 octets of an Immediate Data message as a big-endian long (only for
     *                        the Immediate Data opcodes)
     */
    void onReceiveComplete(long workRequestId, OperationStatus status, RdmapOpcode opcode, int byteLength,
                           int invalidatedStag, long immediateData);

    /**
     * A submitted operation completed: Write/Send/Immediate Data once the lower layer took its last
     * segment [RDMAP-21], Read/Atomic once the response was delivered [RDMAP-25, EXT-12]; or it failed /
     * was flushed.
     *
     * @param byteLength          octets written, sent or read
     * @param atomicOriginalValue for atomics with status SUCCESS: the target's value before the operation
     */
    void onSendComplete(long workRequestId, OperationType type, OperationStatus status, long byteLength,
                        long atomicOriginalValue);

    /** An incoming RDMA Write was placed (RFC 5040 §5.1: not delivered to the ULP; for tracing). */
    default void onRdmaWritePlaced(int stag, long firstTaggedOffset, long length) {
    }

    /** A valid Read Request arrived and was queued for a response (statistics/tracing). */
    default void onReadRequestArrived(int sinkStag, long sinkTaggedOffset, long size, int sourceStag,
                                      long sourceTaggedOffset) {
    }

    /** A valid Atomic Request arrived and was queued (statistics/tracing). */
    default void onAtomicRequestArrived(AtomicOpcode opcode, int stag, long taggedOffset) {
    }

    /**
     * The peer sent a Terminate (RFC 5040 §5.4): the stream is now in {@link RdmapStreamState#ERROR}.
     * The verbs layer should close the connection gracefully (RFC 5040 §6.2.1).
     */
    void onTerminateReceived(Terminate terminate);

    /**
     * Our Terminate was handed to the lower layer; nothing more will be sent [RDMAP-19]. The verbs layer
     * should close the connection gracefully once it is written, so that it arrives (RFC 5040 §6.2.1).
     */
    default void onTerminateSent(Terminate terminate) {
    }

    /**
     * The stream failed: an error this side detected (an {@link org.iwarp4j.rdmap.RdmapException} whose
     * Terminate is being sent), or the lower layer failed ({@link RdmapStream#connectionLost}).
     */
    void onFatalError(Throwable cause);

    /** Initiator: the RTR (RFC 6581) was handed to the lower layer; the ULP may be told "connected" [MPA-75]. */
    default void onRtrSent(RtrType type) {
    }

    /** Responder: the first message arrived and it is the expected RTR. */
    default void onRtrReceived(RtrType type) {
    }

    /**
     * A Send or Immediate Data message arrived on QN 0 and no receive is posted for its MSN. The verbs
     * layer may post one right now with {@link RdmapStream#postReceive} (a queue pair attached to a
     * shared receive queue takes one from it as the message arrives); if it does not, DDP reports
     * "Invalid MSN - no buffer available" (RFC 5041 §7.2, 0x1/0x2/0x02), as iWARP has no RNR.
     */
    default void onReceiveNeeded() {
    }

    /**
     * Something is waiting to be sent (an operation was submitted, a response or a Terminate queued):
     * the adapter should call {@link RdmapStream#writeNextSegment()} while the channel is writable.
     */
    default void onTransmitReady() {
    }
}
