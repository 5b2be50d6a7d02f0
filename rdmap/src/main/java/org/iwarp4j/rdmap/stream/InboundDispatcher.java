package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiveListener;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.receive.UntaggedAdmission;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;

/**
 * RDMAP's side of DDP's receive path: validates RDMAP's fields of every segment before anything is
 * placed (RFC 5040 §7.2, RFC 7306 §8.2 [RDMAP-31, EXT-14]) and routes delivered messages to the
 * receive queue (QN 0), the responder (QN 1), the requester (Read/Atomic Responses) or the Terminate
 * handling (QN 2).
 *
 * <p>Checks made at admission, each a Terminate with the offending DDP header (RFC 5040 §4.8, §7.1):
 * <ol>
 *   <li>RV = 01b — else 0x0/0x2/0x05 Invalid RDMAP version (except a Terminate on QN 2, which is read
 *       whatever its RV: it ends the stream anyway);</li>
 *   <li>opcode assigned, RFC 7306 opcodes only if enabled, T flag and QN as the opcode requires —
 *       else 0x0/0x2/0x06 Unexpected OpCode;</li>
 *   <li>the fixed-size RDMAP headers (Read Request 28, Atomic Request 52, Atomic Response 12) arrive
 *       whole in one segment — else 0x0/0x2/0xFF; Immediate Data carries exactly 8 octets [EXT-02] —
 *       else 0x0/0x2/0xFF Unspecified Error (RFC 7306 names no code for it);</li>
 *   <li>a Read Response continues the oldest outstanding Read ({@link Requester#admitReadResponse}).</li>
 * </ol>
 */
final class InboundDispatcher implements DdpReceiveListener {

    private final RdmapStreamConfig config;
    private final RdmapListener listener;
    private final FrameLog frames;
    private final StreamFailures failures;
    private final InboundEvents events;
    // Set once by serve: DDP's receiver needs this dispatcher first, and these need the receiver.
    private Requester requester;
    private Responder responder;
    private ReceiveQueue receives;

    InboundDispatcher(RdmapStreamConfig config, RdmapListener listener, FrameLog frames, StreamFailures failures,
                      InboundEvents events) {
        this.config = config;
        this.listener = listener;
        this.frames = frames;
        this.failures = failures;
        this.events = events;
    }

    /** The parts the segments go to, made after DDP's receiver (which is made with this dispatcher). */
    void serve(Requester requester, Responder responder, ReceiveQueue receives) {
        this.requester = requester;
        this.responder = responder;
        this.receives = receives;
    }

    @Override
    public TaggedAdmission admitTaggedSegment(int rsvdUlp, int stag, long to, int payloadLength, boolean last,
                                              ByteBuf segment) {
        if (!events.operational()) {
            return TaggedAdmission.REJECT;
        }
        events.segmentArriving(true, rsvdUlp, 0, 0, 0, payloadLength, last);
        RdmapOpcode opcode = checkControl(rsvdUlp, segment);
        if (opcode == null) {
            return TaggedAdmission.REJECT;
        }
        if (!opcode.tagged()) {
            failures.failIncoming(TerminateCause.RDMAP_UNEXPECTED_OPCODE, segment, opcode + " on a tagged segment");
            return TaggedAdmission.REJECT;
        }
        if (opcode == RdmapOpcode.RDMA_READ_RESPONSE) {
            return requester.admitReadResponse(stag, to, payloadLength, last, segment);
        }
        // RFC 5040 §5.1: an RDMA Write needs the peer to hold the remote-write right on the region.
        return TaggedAdmission.REMOTE_WRITE;
    }

    @Override
    public UntaggedAdmission admitUntaggedSegment(int rsvdUlp, int rsvdUlpWord, int qn, int msn, int mo,
                                                  int payloadLength, boolean last, ByteBuf segment) {
        if (!events.operational()) {
            return UntaggedAdmission.REJECT;
        }
        events.segmentArriving(false, rsvdUlp, qn, msn, mo, payloadLength, last);
        if (qn == RdmapOpcode.QN_TERMINATE && RdmapControl.opcodeCode(rsvdUlp) == RdmapOpcode.TERMINATE.code()) {
            // RFC 5040 §5.4: a Terminate ends the stream; read it leniently, whatever else is wrong with it.
            events.terminateReceived(segment, msn, payloadLength);
            return UntaggedAdmission.REJECT;
        }
        RdmapOpcode opcode = checkControl(rsvdUlp, segment);
        if (opcode == null) {
            return UntaggedAdmission.REJECT;
        }
        if (opcode.tagged() || opcode.queueNumber() != qn) {
            failures.failIncoming(TerminateCause.RDMAP_UNEXPECTED_OPCODE, segment,
                    opcode + " on untagged queue " + Integer.toUnsignedString(qn));
            return UntaggedAdmission.REJECT;
        }
        switch (opcode) {
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> {
                // RFC 7306 §6.2 [EXT-02]: exactly 8 octets after the untagged header.
                if (!wholeHeader(mo, payloadLength, last, ImmediateDataHeader.LENGTH)) {
                    failures.failIncoming(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, segment,
                            "Immediate Data must carry exactly 8 octets in one segment, got MO " + mo + " length "
                                    + payloadLength + (last ? " L" : ""));
                    return UntaggedAdmission.REJECT;
                }
                receives.admit(opcode, msn, last, segment);
            }
            case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE ->
                    receives.admit(opcode, msn, last, segment);
            case RDMA_READ_REQUEST, ATOMIC_REQUEST -> {
                int length =
                        opcode == RdmapOpcode.RDMA_READ_REQUEST ? ReadRequestHeader.LENGTH : AtomicRequestHeader.LENGTH;
                if (!wholeHeader(mo, payloadLength, last, length)) {
                    failures.failIncoming(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, segment, opcode
                            + " needs its " + length + "-octet header in one segment, got MO " + mo + " length "
                            + payloadLength);
                    return UntaggedAdmission.REJECT;
                }
                responder.admit(msn, segment);
            }
            case ATOMIC_RESPONSE -> {
                if (!wholeHeader(mo, payloadLength, last, AtomicResponseHeader.LENGTH)) {
                    failures.failIncoming(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, segment,
                            "Atomic Response needs its 12-octet header in one segment, got MO " + mo + " length "
                                    + payloadLength);
                    return UntaggedAdmission.REJECT;
                }
                requester.admitAtomicResponse(msn, segment);
            }
            default -> {
                // TERMINATE elsewhere than on QN 2 was rejected above by the queue check.
                failures.failIncoming(TerminateCause.RDMAP_UNEXPECTED_OPCODE, segment, opcode + " unexpected");
                return UntaggedAdmission.REJECT;
            }
        }
        return UntaggedAdmission.PLACE;
    }

    private static boolean wholeHeader(int mo, int payloadLength, boolean last, int length) {
        return mo == 0 && last && payloadLength == length;
    }

    /** RV and opcode checks shared by both models; returns null after failing the stream. */
    private RdmapOpcode checkControl(int rsvdUlp, ByteBuf segment) {
        // RFC 5040 §4.1 [RDMAP-01]: RV must be 01b; Rsv is ignored [RDMAP-02].
        if (RdmapControl.version(rsvdUlp) != RdmapControl.RDMAP_VERSION) {
            failures.failIncoming(TerminateCause.RDMAP_INVALID_VERSION, segment,
                    "RV=" + RdmapControl.version(rsvdUlp));
            return null;
        }
        RdmapOpcode opcode = RdmapControl.opcode(rsvdUlp);
        if (opcode == null || (opcode.isRfc7306() && !config.rfc7306())) {
            failures.failIncoming(TerminateCause.RDMAP_UNEXPECTED_OPCODE, segment, "opcode 0x"
                    + Integer.toHexString(RdmapControl.opcodeCode(rsvdUlp))
                    + (opcode == null ? " is not assigned" : " needs RFC 7306, which is not enabled"));
            return null;
        }
        return opcode;
    }

    @Override
    public void onTaggedMessageDelivered(int rsvdUlp, int stag, long firstTo, long messageLength) {
        RdmapOpcode opcode = RdmapControl.opcode(rsvdUlp);
        frames.tagged(false, opcode, stag, firstTo, messageLength);
        if (opcode == RdmapOpcode.RDMA_READ_RESPONSE) {
            requester.onReadResponseDelivered();
        } else {
            listener.onRdmaWritePlaced(stag, firstTo, messageLength);
            if (messageLength == 0) {
                events.rtrReceived(RtrType.WRITE);
            }
        }
        events.messageReceived();
    }

    @Override
    public void onUntaggedMessageDelivered(int qn, int msn, int rsvdUlp, int rsvdUlpWord, int messageLength,
                                           UntaggedBuffer buffer) {
        RdmapOpcode opcode = RdmapControl.opcode(rsvdUlp);
        switch (qn) {
            case RdmapOpcode.QN_SEND ->
                    receives.onDelivered((ReceiveSlot) buffer, msn, opcode, messageLength, rsvdUlpWord);
            case RdmapOpcode.QN_READ_REQUEST -> {
                responder.onDelivered((ControlSlot) buffer, msn, opcode);
                if (opcode == RdmapOpcode.RDMA_READ_REQUEST
                        && ((ControlSlot) buffer).bytes.getInt(ReadRequestHeader.MESSAGE_SIZE_OFFSET) == 0) {
                    events.rtrReceived(RtrType.READ);
                }
            }
            case RdmapOpcode.QN_ATOMIC_RESPONSE -> requester.onAtomicResponseDelivered((ControlSlot) buffer, msn);
            default -> {
                // QN 2: Terminates are handled at admission and never delivered.
            }
        }
        events.messageReceived();
    }

    @Override
    public void onSegmentRejected(DdpException error) {
        failures.failFromDdp(error);
    }
}
