package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.RdmapOpcode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The receive side of QN 0 (RFC 5040 §5.3, RFC 7306 §6): receives posted by the verbs layer, wrapped in
 * {@link ReceiveSlot}s and posted to DDP, and their completion when a Send or Immediate Data message is
 * delivered.
 *
 * <p>Guarantees: each message consumes exactly one receive (DDP's MSN matching); receives complete in
 * the order the messages were sent, only after DDP delivered them [RDMAP-17, RDMAP-23, EXT-07]; a Send
 * with Invalidate invalidates its STag before its completion is reported [RDMAP-18].
 */
final class ReceiveQueue {

    private final RdmapStreamConfig config;
    private final RdmapMemory memory;
    private final DdpReceiver receiver;
    private final RdmapListener listener;
    private final FrameLog frames;
    private final StreamFailures failures;
    private final InboundEvents events;
    private final MsnRing<ReceiveSlot> posted = new MsnRing<>();
    private final ArrayDeque<ReceiveSlot> free = new ArrayDeque<>();
    private final int depth;
    private int userPosted;
    /** Responder awaiting an RFC 6581 RTR that may be a Send: receives wait here until the first segment. */
    private ArrayDeque<ReceiveSlot> held;

    ReceiveQueue(RdmapStreamConfig config, RdmapMemory memory, DdpReceiver receiver, RdmapListener listener,
                 FrameLog frames, StreamFailures failures, InboundEvents events) {
        this.config = config;
        this.memory = memory;
        this.receiver = receiver;
        this.listener = listener;
        this.frames = frames;
        this.failures = failures;
        this.events = events;
        this.depth = config.receiveQueueDepth();
    }

    int posted() {
        return userPosted;
    }

    void post(long workRequestId, UntaggedBuffer buffer) {
        if (userPosted >= depth) {
            throw new IllegalStateException("receive queue full (" + depth + " receives posted)");
        }
        ReceiveSlot slot = take();
        slot.reset(workRequestId, buffer, false);
        userPosted++;
        if (held != null) {
            held.add(slot);
        } else {
            postToDdp(slot);
        }
    }

    private void postToDdp(ReceiveSlot slot) {
        slot.msn = receiver.post(RdmapOpcode.QN_SEND, slot);
        posted.add(slot);
    }

    /**
     * Responder in RFC 6581 peer-to-peer mode whose initiator may choose a Send RTR: a zero-length Send
     * with QN 0 MSN 1 that must not consume a user receive — but only if it really is the RTR. Receives
     * are held back until the first segment arrives ({@link #release}).
     */
    void hold() {
        if (held == null) {
            held = new ArrayDeque<>();
        }
    }

    boolean holding() {
        return held != null;
    }

    /**
     * The first segment arrived: if it is the Send RTR an internal zero-capacity receive takes QN 0 MSN 1
     * (posted before DDP looks the MSN up), then the held receives follow in order.
     */
    void release(boolean sendRtr) {
        ArrayDeque<ReceiveSlot> waiting = held;
        held = null;
        if (sendRtr) {
            ReceiveSlot slot = take();
            slot.reset(0, null, true);
            postToDdp(slot);
        }
        for (ReceiveSlot slot : waiting) {
            postToDdp(slot);
        }
    }

    private ReceiveSlot take() {
        ReceiveSlot slot = free.poll();
        return slot != null ? slot : new ReceiveSlot();
    }

    /** Admission of a QN 0 segment: switch the slot to Immediate Data mode / capture the header. */
    void admit(RdmapOpcode opcode, int msn, boolean last, ByteBuf segment) {
        ReceiveSlot slot = posted.find(msn);
        if (slot == null && isNextUnposted(msn)) {
            // A shared receive queue supplies receives on demand, as the message arrives.
            listener.onReceiveNeeded();
            slot = posted.find(msn);
        }
        if (slot == null) {
            return; // DDP will report "no buffer" / "MSN range" itself
        }
        if (opcode == RdmapOpcode.IMMEDIATE_DATA || opcode == RdmapOpcode.IMMEDIATE_DATA_WITH_SE) {
            slot.immediate = true;
        }
        if (last && opcode.carriesInvalidateStag()) {
            slot.captureHeader(segment);
        }
    }

    /** Whether {@code msn} is the MSN the next posted receive would get (RFC 5041 §4.3). */
    private boolean isNextUnposted(int msn) {
        int qn = RdmapOpcode.QN_SEND;
        return msn == receiver.expectedMsn(qn) + receiver.postedCount(qn);
    }

    /** A Send variant or Immediate Data message was delivered into {@code slot}. */
    void onDelivered(ReceiveSlot slot, int msn, RdmapOpcode opcode, int length, int invalidateStag) {
        posted.remove(slot);
        if (!slot.rtr) {
            userPosted--;
        }
        boolean immediate = slot.immediate;
        long immediateData = slot.immediateData;
        long id = slot.workRequestId;
        boolean rtr = slot.rtr;
        FrameLog log = frames;
        if (immediate) {
            log.immediateData(false, opcode, msn, immediateData);
        } else if (opcode.carriesInvalidateStag()) {
            log.sendWithInvalidate(false, opcode, msn, length, invalidateStag);
        } else {
            log.untagged(false, opcode, msn, length);
        }
        if (opcode.carriesInvalidateStag() && !invalidate(invalidateStag)) {
            // RFC 5040 §5.3 [RDMAP-18]: the receive is consumed by an erroneous message. EType 0x1 Remote
            // Protection (not 0x2 Remote Operation, which also has a code 0x09): RFC 5040 Fig 10 lists Send
            // with Invalidate among the only messages that can cause Remote Protection errors, the failure
            // is a protection check on an STag, and Linux siw reports it the same way.
            byte[] header = slot.capturedHeader();
            int segmentLength = slot.capturedSegmentLength();
            recycle(slot);
            if (!rtr) {
                listener.onReceiveComplete(id, OperationStatus.LOCAL_ERROR, opcode, length, invalidateStag, 0);
            }
            failures.failWithHeader(TerminateCause.RDMAP_STAG_CANNOT_BE_INVALIDATED, segmentLength, header, null,
                    String.format("Send with Invalidate names STag 0x%08x, which this stream may not invalidate",
                            invalidateStag));
            return;
        }
        recycle(slot);
        if (rtr) {
            events.rtrReceived(RtrType.SEND);
            return;
        }
        listener.onReceiveComplete(id, OperationStatus.SUCCESS, opcode, immediate ? 0 : length,
                opcode.carriesInvalidateStag() ? invalidateStag : 0, immediate ? immediateData : 0);
    }

    /**
     * RFC 5040 §5.3 / §7.2: the STag must be valid and associated with this stream's PD (or bound to this
     * stream); RFC 5040 §8.1.1: the memory owner may still refuse remote invalidation.
     */
    private boolean invalidate(int stag) {
        TaggedBuffer buffer = memory.lookup(stag);
        if (buffer == null || !buffer.isValid() || buffer.protectionDomain() != config.protectionDomain()) {
            return false;
        }
        Object bound = buffer.associatedStream();
        if (bound != null && bound != config.streamIdentity()) {
            return false;
        }
        return memory.invalidate(buffer);
    }

    private void recycle(ReceiveSlot slot) {
        slot.reset(0, null, false);
        free.add(slot);
    }

    /** The stream failed: every posted receive completes FLUSHED, oldest first. */
    void flush(List<UntaggedBuffer> removed) {
        posted.clear();
        List<UntaggedBuffer> all = new ArrayList<>(removed);
        if (held != null) {
            all.addAll(held);
            held.clear();
        }
        for (UntaggedBuffer buffer : all) {
            if (buffer instanceof ReceiveSlot slot) {
                long id = slot.workRequestId;
                boolean rtr = slot.rtr;
                recycle(slot);
                if (!rtr) {
                    userPosted--;
                    listener.onReceiveComplete(id, OperationStatus.FLUSHED, null, 0, 0, 0);
                }
            }
        }
    }
}
