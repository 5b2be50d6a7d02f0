package org.iwarp4j.verbs.internal;

import org.iwarp4j.rdmap.RdmapException;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateLayer;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.WorkCompletionException;

import java.util.function.BooleanSupplier;

/**
 * Turns RDMAP's completion statuses into verbs {@link CompletionStatus}es that name the cause, and
 * writes work completions into a completion queue. The rules (documented on {@link CompletionStatus}):
 *
 * <ul>
 *   <li>RDMAP attributed the peer's Terminate to this operation → REMOTE_ACCESS_ERROR (RDMAP Remote
 *       Protection, DDP tagged buffer errors), REMOTE_INVALID_REQUEST (DDP untagged buffer errors,
 *       RDMAP version / unexpected opcode), else REMOTE_OPERATION_ERROR.</li>
 *   <li>RDMAP blamed an incoming message on this receive / operation (our Terminate) → LOCAL_PROTECTION_ERROR
 *       ("STag cannot be Invalidated"), BAD_RESPONSE (a malformed Read / Atomic Response), else
 *       LOCAL_QP_OPERATION_ERROR.</li>
 *   <li>Flushed: the first receive flushed after we rejected a too-long Send gets LOCAL_LENGTH_ERROR, the
 *       first Read/Atomic flushed after we rejected its response gets BAD_RESPONSE; the others
 *       TERMINATE_SENT / TERMINATE_RECEIVED when a Terminate ended the stream (TERMINATE_WITHHELD when ours
 *       could not go out, RFC 5044 §7.1.2 rule 4), TRANSPORT_ERROR after an
 *       I/O failure, else WORK_REQUEST_FLUSHED (a disconnect).</li>
 * </ul>
 * Loop-confined (one per queue pair).
 */
final class Completions {

    /** Why the stream ended when no Terminate was involved. */
    /** How outstanding work is flushed; RESPONSE_TIMEOUT: the oldest Read or atomic is named as the one that waited. */
    enum Ending { NONE, DISCONNECT, TRANSPORT, RESPONSE_TIMEOUT }

    private static final WorkCompletionAccess WC = WorkCompletionAccess.get();

    private final QueuePairImpl qp;
    private final RdmapStream stream;
    private final BooleanSupplier held;
    private Ending ending = Ending.NONE;
    private boolean lengthErrorReported;
    private boolean badResponseReported;
    private boolean responseTimeoutReported;

    /**
     * {@code stream} is {@code null} for work that never reached a stream (the connection never started);
     * {@code held}: whether MPA still holds this side's FPDUs (a Responder before the Initiator's first, RFC 5044
     * §7.1.2 rule 4), so that a Terminate of ours cannot have gone out.
     */
    Completions(QueuePairImpl qp, RdmapStream stream, BooleanSupplier held) {
        this.held = held;
        this.qp = qp;
        this.stream = stream;
    }

    void ending(Ending e) {
        if (ending == Ending.NONE) {
            ending = e;
        }
    }

    /** The Terminate that ended the stream: ours (first error) wins over the peer's. */
    TerminateInfo terminate() {
        if (stream == null) {
            return null;
        }
        RdmapException first = stream.firstError();
        if (first != null) {
            return held.getAsBoolean() ? Terminates.withheld(first.terminate()) : Terminates.sent(first.terminate());
        }
        Terminate received = stream.terminateReceived();
        return received == null ? null : Terminates.received(received);
    }

    CompletionStatus sendStatus(OperationStatus s, CompletionOpcode opcode) {
        return switch (s) {
            case SUCCESS -> CompletionStatus.SUCCESS;
            case REMOTE_ACCESS_ERROR, REMOTE_OPERATION_ERROR -> remote(stream.terminateReceived());
            case LOCAL_ERROR -> responseOperation(opcode) && firstErrorNamesResponse()
                    ? CompletionStatus.BAD_RESPONSE : local();
            case FLUSHED -> {
                if (!badResponseReported && responseOperation(opcode) && firstErrorNamesResponse()) {
                    badResponseReported = true;
                    yield CompletionStatus.BAD_RESPONSE;
                }
                if (!responseTimeoutReported && ending == Ending.RESPONSE_TIMEOUT && responseOperation(opcode)) {
                    responseTimeoutReported = true; // the oldest Read or atomic: the one whose response never came
                    yield CompletionStatus.RESPONSE_TIMEOUT;
                }
                yield flushed();
            }
        };
    }

    CompletionStatus receiveStatus(OperationStatus s) {
        return switch (s) {
            case SUCCESS -> CompletionStatus.SUCCESS;
            case REMOTE_ACCESS_ERROR, REMOTE_OPERATION_ERROR -> remote(stream.terminateReceived());
            case LOCAL_ERROR -> local();
            case FLUSHED -> {
                if (!lengthErrorReported && firstCause() == TerminateCause.DDP_MESSAGE_TOO_LONG) {
                    // RFC 5041 §7.2: the Send we rejected was longer than this, the next receive.
                    lengthErrorReported = true;
                    yield CompletionStatus.LOCAL_LENGTH_ERROR;
                }
                yield flushed();
            }
        };
    }

    /** The status of work that never reached RDMAP because the stream was gone. */
    CompletionStatus flushed() {
        if (stream != null && stream.firstError() != null) {
            return held.getAsBoolean() ? CompletionStatus.TERMINATE_WITHHELD : CompletionStatus.TERMINATE_SENT;
        }
        if (stream != null && stream.terminateReceived() != null) {
            return CompletionStatus.TERMINATE_RECEIVED;
        }
        return ending == Ending.TRANSPORT ? CompletionStatus.TRANSPORT_ERROR : CompletionStatus.WORK_REQUEST_FLUSHED;
    }

    private static CompletionStatus remote(Terminate t) {
        if (t == null) {
            return CompletionStatus.REMOTE_OPERATION_ERROR;
        }
        int layer = t.layer();
        int etype = t.errorType();
        if (layer == TerminateLayer.DDP.value()) {
            return etype == 1 ? CompletionStatus.REMOTE_ACCESS_ERROR
                    : etype == 2 ? CompletionStatus.REMOTE_INVALID_REQUEST : CompletionStatus.REMOTE_OPERATION_ERROR;
        }
        if (layer == TerminateLayer.RDMAP.value()) {
            if (etype == 1) {
                return CompletionStatus.REMOTE_ACCESS_ERROR;
            }
            if (etype == 2 && (t.errorCode() == 0x05 || t.errorCode() == 0x06)) {
                return CompletionStatus.REMOTE_INVALID_REQUEST;
            }
        }
        return CompletionStatus.REMOTE_OPERATION_ERROR;
    }

    private CompletionStatus local() {
        TerminateCause cause = firstCause();
        if (cause == TerminateCause.RDMAP_STAG_CANNOT_BE_INVALIDATED) {
            return CompletionStatus.LOCAL_PROTECTION_ERROR;
        }
        return CompletionStatus.LOCAL_QP_OPERATION_ERROR;
    }

    private TerminateCause firstCause() {
        RdmapException first = stream == null ? null : stream.firstError();
        return first == null ? null : first.cause();
    }

    private static boolean responseOperation(CompletionOpcode opcode) {
        return opcode == CompletionOpcode.RDMA_READ || opcode == CompletionOpcode.ATOMIC_FETCH_ADD
                || opcode == CompletionOpcode.ATOMIC_CMP_SWAP;
    }

    /** Our Terminate copied the header of a Read Response or an Atomic Response (RFC 5040 §4.8). */
    private boolean firstErrorNamesResponse() {
        RdmapException first = stream == null ? null : stream.firstError();
        byte[] h = first == null ? null : first.terminate().terminatedDdpHeader();
        if (h == null || h.length < 2) {
            return false;
        }
        int opcode = h[1] & 0x0F;
        return opcode == RdmapOpcode.RDMA_READ_RESPONSE.code() || opcode == RdmapOpcode.ATOMIC_RESPONSE.code();
    }

    // ------------------------------------------------------------------ writing

    /**
     * A send completion: to the future of a {@link QueuePairImpl#postSendAsync} request, else to the send
     * completion queue, where the request's {@code slots} of the send queue stay taken until it is polled.
     */
    void send(long wrId, CompletionStatus status, CompletionOpcode opcode, long length, long atomicOriginal,
              LoopSafeFuture<WorkCompletion> future, int slots) {
        boolean ok = status == CompletionStatus.SUCCESS;
        if (future != null) {
            qp.releaseSendSlots(slots);
            WorkCompletion wc = new WorkCompletion();
            fillSend(wc, wrId, status, opcode, length, atomicOriginal);
            if (ok) {
                future.complete(wc);
            } else {
                future.completeExceptionally(new WorkCompletionException(wc));
            }
            return;
        }
        CompletionQueueImpl cq = qp.sendCq();
        long seq = cq.claim();
        if (seq < 0) {
            qp.releaseSendSlots(slots); // lost with the overflow
            return;
        }
        fillSend(cq.entry(seq), wrId, status, opcode, length, atomicOriginal);
        cq.holdSendSlots(seq, qp, slots);
        cq.publish(seq, !ok);
    }

    private void fillSend(WorkCompletion wc, long wrId, CompletionStatus status, CompletionOpcode opcode, long length,
                          long atomicOriginal) {
        boolean ok = status == CompletionStatus.SUCCESS;
        WC.set(wc, wrId, status, opcode, ok ? length : 0, qp.number(), qp.rnic().queuePairLookup(),
                ok ? null : terminate());
        if (ok) {
            WC.atomicOriginalValue(wc, atomicOriginal);
        }
    }

    void receive(long wrId, CompletionStatus status, RdmapOpcode opcode, int length, int invalidatedStag,
                 long immediate) {
        CompletionQueueImpl cq = qp.receiveCq();
        long seq = cq.claim();
        boolean slot = qp.shared() == null; // a shared receive queue's receives hold no slot of the queue pair
        if (seq < 0) {
            if (slot) {
                qp.releaseReceiveSlot(); // lost with the overflow
            }
            return;
        }
        if (slot) {
            cq.holdReceiveSlot(seq, qp);
        }
        WorkCompletion wc = cq.entry(seq);
        boolean ok = status == CompletionStatus.SUCCESS;
        boolean isImmediate = opcode == RdmapOpcode.IMMEDIATE_DATA || opcode == RdmapOpcode.IMMEDIATE_DATA_WITH_SE;
        WC.set(wc, wrId, status, isImmediate ? CompletionOpcode.RECV_WITH_IMMEDIATE : CompletionOpcode.RECV,
                ok ? length : 0, qp.number(), qp.rnic().queuePairLookup(), ok ? null : terminate());
        boolean solicited = opcode != null && opcode.solicitedEvent();
        if (ok) {
            if (isImmediate) {
                WC.immediate(wc, immediate);
            }
            if (opcode.carriesInvalidateStag()) {
                WC.invalidated(wc, invalidatedStag);
            }
            WC.solicited(wc, solicited);
        }
        cq.publish(seq, solicited || !ok);
    }
}
