package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.receive.TaggedAdmission;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateErrorType;
import org.iwarp4j.rdmap.terminate.TerminateLayer;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.ImmediateDataHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;

import java.util.ArrayDeque;

/**
 * The requester half of a stream: the send queue, its transmission in order, the ORD limit, fences,
 * the matching of Read and Atomic Responses, and local completions in order.
 *
 * <h2>How the ordering rules of RFC 5040 §5.5 / RFC 7306 §5.4 hold on this side</h2>
 * <ul>
 *   <li>Submission order on the wire [RDMAP-20]: entries are started strictly in submission order
 *       ({@code started} only moves forward) and one message is written completely before the next one
 *       starts, so DDP receives messages in submission order.</li>
 *   <li>Completion order [RDMAP-22]: completions are reported only from the oldest entry forward
 *       ({@link #tryComplete()}); a later entry that is done waits for every earlier one.</li>
 *   <li>Write/Send complete when the lower layer took them [RDMAP-21]: an entry completes only once
 *       {@code segmentsWritten} acknowledged its last segment.</li>
 *   <li>Read/Atomic complete when their response was delivered [RDMAP-25, EXT-12]: the entry waits for
 *       the L=1 Read Response segment / the delivered Atomic Response.</li>
 *   <li>Read Responses in order [RDMAP-26]: responses are matched against the outstanding-request queue
 *       (ORQ) head only; a response that does not fit the head is a protocol error.</li>
 *   <li>ORD [RDMAP-16]: a Read/Atomic entry is not started while ORD requests are outstanding; since
 *       later entries may not overtake it, the whole send queue stalls.</li>
 *   <li>Fence: an entry with {@code fence} is not started while any earlier Read/Atomic is outstanding.</li>
 *   <li>Write → Send/Read, Send → Send/Read: need nothing here — submission order on an in-order LLP makes
 *       the peer place/deliver them in that order (its DDP delivers in order, RFC 5041 §5.3).</li>
 * </ul>
 */
final class Requester implements TransmitSource {

    private final RdmapStreamConfig config;
    private final DdpSender sender;
    private final DdpReceiver receiver;
    private final ByteBufAllocator allocator;
    private final RdmapListener listener;
    private final FrameLog frames;
    private final StreamFailures failures;
    private final SendProgress progress;
    /** Entries by sequence number (mask {@link #ringMask}); grows by doubling up to {@link #ringLimit}. */
    private SendWork[] ring;
    private int ringMask;
    private final int ringLimit;
    private long submitted;
    /** Internal entries (the RTR, a zero-length Write) submitted and not yet reported. */
    private int internal;
    private long started;
    private long completed;
    private SendWork current;

    /** Outstanding Read / Atomic requests, oldest first (the ORQ). */
    private final SendWork[] orq;
    private int orqHead;
    private int orqSize;

    /** QN 3 slots for Atomic Responses: posted one per started Atomic Request. */
    private final ArrayDeque<ControlSlot> freeResponseSlots = new ArrayDeque<>();
    private final MsnRing<ControlSlot> postedResponseSlots = new MsnRing<>();
    private int nextAtomicRequestId = 1;

    private final ReadRequestHeader readRequestHeader = new ReadRequestHeader();
    private final AtomicRequestHeader atomicRequestHeader = new AtomicRequestHeader();
    private final AtomicResponseHeader atomicResponseHeader = new AtomicResponseHeader();

    /** The ring's first size (a power of two). */
    static final int INITIAL_RING = 16;

    Requester(RdmapStreamConfig config, DdpSender sender, DdpReceiver receiver, ByteBufAllocator allocator,
              RdmapListener listener, FrameLog frames, StreamFailures failures, SendProgress progress) {
        this.config = config;
        this.sender = sender;
        this.receiver = receiver;
        this.allocator = allocator;
        this.listener = listener;
        this.frames = frames;
        this.failures = failures;
        this.progress = progress;
        int sendQueueDepth = config.sendQueueDepth();
        int ord = config.ord();
        // The internal entries (the RTR, one zero-length Write) never count against the caller's queue depth: room
        // for depth + 2, rounded up to a power of two so that an entry is found with a mask rather than a division.
        // The ring starts small and doubles when the queue outgrows it (room), and entries are made as the queue
        // first reaches them (slot): an idle or shallow stream holds little of the depth it was given, and once the
        // queue has been that deep nothing more is allocated.
        this.ringLimit = Integer.highestOneBit(sendQueueDepth + 1) << 1;
        this.ring = new SendWork[Math.min(ringLimit, INITIAL_RING)];
        this.ringMask = ring.length - 1;
        this.orq = new SendWork[ord + 1];
    }

    // ------------------------------------------------------------------ submission

    int queued() {
        return (int) (submitted - completed);
    }

    /** Entries of the caller (not the internal RTR or zero-length Write) not yet completed. */
    int userQueued() {
        return queued() - internal;
    }

    boolean isEmpty() {
        return submitted == 0;
    }

    /** Adds an operation (already validated by the stream) at the tail. */
    void enqueue(RdmapOperation op) {
        SendWork w = next();
        w.reset();
        w.operation = op;
        w.type = op.type();
        w.workRequestId = op.workRequestId();
        w.fence = op.fence();
        w.awaitsResponse = w.type.awaitsResponse();
        if (op.data() != null) {
            w.data = op.data();
            w.byteLength = w.data.readableBytes();
        } else if (op instanceof RdmapOperation.RdmaRead read) {
            w.byteLength = read.length();
        } else if (w.type.isAtomic()) {
            w.byteLength = 8;
        }
        submitted++;
    }

    /** Adds the RFC 6581 RTR; must be the very first entry (MPA-74/75). */
    void enqueueRtr(RtrType type) {
        SendWork w = next();
        w.reset();
        w.rtr = type;
        w.awaitsResponse = type == RtrType.READ;
        internal++;
        submitted++;
    }

    /**
     * Whether the RFC 6581 RTR was queued and has not been handed to the lower layer yet: the stream is
     * still in the enhanced connection setup (RFC 6581 §9.3).
     */
    boolean rtrUnsent() {
        return started == 0 && submitted > 0 && slot(0).rtr != null && !slot(0).zeroLengthWrite;
    }

    /**
     * Adds an internal zero-length RDMA Write (STag 1, TO 0, the Write RTR's format) at the tail: a no-op at
     * every conforming peer (RFC 5041 §5.2 [DDP-20]: STag and TO of a zero-length tagged segment are not
     * checked; RFC 5040 §5.1: a Write is not delivered). At most one may be pending.
     *
     * @return false if one is pending already
     */
    boolean enqueueZeroLengthWrite() {
        for (long s = completed; s < submitted; s++) {
            if (slot(s).zeroLengthWrite) {
                return false;
            }
        }
        SendWork w = next();
        w.reset();
        w.rtr = RtrType.WRITE;
        w.zeroLengthWrite = true;
        internal++;
        submitted++;
        return true;
    }

    /** The entry for the next submission, the ring grown first if every slot holds an unreported entry. */
    private SendWork next() {
        if (submitted - completed >= ring.length && ring.length < ringLimit) {
            SendWork[] bigger = new SendWork[ring.length * 2];
            int biggerMask = bigger.length - 1;
            // the ring is full: every entry is queued, and keeps its place by sequence number
            for (long s = completed; s < submitted; s++) {
                bigger[(int) (s & biggerMask)] = ring[(int) (s & ringMask)];
            }
            ring = bigger;
            ringMask = biggerMask;
        }
        return slot(submitted);
    }

    private SendWork slot(long sequence) {
        int i = (int) (sequence & ringMask);
        SendWork w = ring[i];
        if (w == null) {
            w = new SendWork();
            ring[i] = w;
        }
        return w;
    }

    // ------------------------------------------------------------------ transmission

    @Override
    public boolean hasMessageInProgress() {
        return current != null && current.message != null && current.message.isStarted();
    }

    @Override
    public boolean canWrite() {
        if (current != null) {
            return true;
        }
        if (started == submitted) {
            return false;
        }
        SendWork next = slot(started);
        if (next.fence && orqSize > 0) {
            return false; // fence: wait for every earlier Read/Atomic to complete
        }
        if (next.awaitsResponse) {
            // RFC 5040 §6.1 [RDMAP-16]: never more than ORD outstanding. The Read RTR takes an ORD slot
            // too (RFC 6581 §9.2: a zero-length Read); MPA made sure the peer's IRD is at least 1 for it.
            int limit = next.rtr != null ? Math.max(1, config.ord()) : config.ord();
            return orqSize < limit;
        }
        return true;
    }

    @Override
    public OutboundMessage inProgressMessage() {
        return hasMessageInProgress() ? current.message : null;
    }

    @Override
    public void detachInProgress() {
        if (current != null) {
            current.message = null;
        }
    }

    @Override
    public void writeSegment() {
        if (current == null) {
            current = slot(started);
        }
        SendWork w = current;
        if (w.message == null) {
            try {
                w.message = buildMessage(w);
            } catch (RuntimeException e) {
                w.failure = OperationStatus.LOCAL_ERROR;
                current = null;
                failures.failLocal(failures.localCatastrophicCause(),
                        "cannot build the message of work request " + w.workRequestId + ": " + e);
                return;
            }
        }
        OutboundMessage m = w.message;
        boolean first = !m.isStarted();
        m.writeNextSegment();
        if (first) {
            logOutbound(w, m);
        }
        if (!m.isDone()) {
            return;
        }
        w.message = null;
        w.spare = m;
        if (w.type == OperationType.RDMA_WRITE_WITH_IMMEDIATE && w.phase == 0) {
            w.phase = 1; // RFC 7306 §6: the Immediate Data follows the Write
            return;
        }
        w.transmitted = true;
        w.lastSegment = progress.segmentsProduced();
        started++;
        current = null;
        if (w.rtr != null && !w.zeroLengthWrite) {
            listener.onRtrSent(w.rtr);
        }
        tryComplete();
    }

    private OutboundMessage buildMessage(SendWork w) {
        if (w.rtr != null) {
            return buildRtr(w);
        }
        RdmapOperation op = w.operation;
        if (op instanceof RdmapOperation.RdmaWrite write) {
            return tagged(w, RdmapOpcode.RDMA_WRITE, write.sinkStag(), write.sinkTaggedOffset());
        }
        if (op instanceof RdmapOperation.Send send) {
            RdmapOpcode opcode = opcodeOf(send);
            ByteBuf data = takeData(w);
            w.requestQueue = RdmapOpcode.QN_SEND;
            // RFC 5040 §4.1 [RDMAP-04]: the Invalidate STag is 0 unless this is a "with Invalidate" Send.
            return sender.untagged(RdmapOpcode.QN_SEND, RdmapControl.encode(opcode),
                    send.invalidate() ? send.invalidateStag() : 0, data, takeSpare(w));
        }
        if (op instanceof RdmapOperation.ImmediateData imm) {
            return immediate(w, imm.immediateData(), imm.solicitedEvent());
        }
        if (op instanceof RdmapOperation.RdmaWriteWithImmediate wwi) {
            return w.phase == 0 ? tagged(w, RdmapOpcode.RDMA_WRITE, wwi.sinkStag(), wwi.sinkTaggedOffset())
                    : immediate(w, wwi.immediateData(), wwi.solicitedEvent());
        }
        if (op instanceof RdmapOperation.RdmaRead read) {
            return readRequest(w, read.sinkStag(), read.sinkTaggedOffset(), read.length(), read.sourceStag(),
                    read.sourceTaggedOffset());
        }
        if (op instanceof RdmapOperation.AtomicFetchAdd fa) {
            return atomicRequest(w, AtomicOpcode.FETCH_ADD, fa.remoteStag(), fa.remoteTaggedOffset(), fa.addData(),
                    fa.addMask(), 0L, -1L);
        }
        RdmapOperation.AtomicCompareSwap cs = (RdmapOperation.AtomicCompareSwap) op;
        return atomicRequest(w, AtomicOpcode.CMP_SWAP, cs.remoteStag(), cs.remoteTaggedOffset(), cs.swapData(),
                cs.swapMask(), cs.compareData(), cs.compareMask());
    }

    private OutboundMessage buildRtr(SendWork w) {
        return switch (w.rtr) {
            case SEND -> {
                w.requestQueue = RdmapOpcode.QN_SEND;
                yield sender.untagged(RdmapOpcode.QN_SEND, RdmapControl.encode(RdmapOpcode.SEND), 0,
                        Unpooled.EMPTY_BUFFER);
            }
            // siw: a non-zero STag (1) and TO 0; RFC 5041 §5.2 forbids checking them at the sink.
            case WRITE -> sender.tagged(RdmapControl.encode(RdmapOpcode.RDMA_WRITE), RdmapStream.RTR_STAG, 0,
                    Unpooled.EMPTY_BUFFER);
            case READ -> readRequest(w, 0, 0, 0, RdmapStream.RTR_STAG, 0);
        };
    }

    private OutboundMessage tagged(SendWork w, RdmapOpcode opcode, int stag, long to) {
        return sender.tagged(RdmapControl.encode(opcode), stag, to, takeData(w), takeSpare(w));
    }

    private static OutboundMessage takeSpare(SendWork w) {
        OutboundMessage spare = w.spare;
        w.spare = null;
        return spare;
    }

    private OutboundMessage immediate(SendWork w, long data, boolean solicited) {
        RdmapOpcode opcode = solicited ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE : RdmapOpcode.IMMEDIATE_DATA;
        ByteBuf header = allocator.buffer(ImmediateDataHeader.LENGTH);
        header.writeLong(data);
        w.requestQueue = RdmapOpcode.QN_SEND;
        return sender.untagged(RdmapOpcode.QN_SEND, RdmapControl.encode(opcode), 0, header, takeSpare(w));
    }

    private OutboundMessage readRequest(SendWork w, int sinkStag, long sinkTo, long length, int srcStag, long srcTo) {
        ByteBuf header = allocator.buffer(ReadRequestHeader.LENGTH);
        header.writerIndex(ReadRequestHeader.LENGTH);
        readRequestHeader.wrap(header, 0).sinkStag(sinkStag).sinkTaggedOffset(sinkTo).messageSize((int) length)
                .sourceStag(srcStag).sourceTaggedOffset(srcTo);
        OutboundMessage m = sender.untagged(RdmapOpcode.QN_READ_REQUEST,
                RdmapControl.encode(RdmapOpcode.RDMA_READ_REQUEST), 0, header, takeSpare(w));
        w.requestQueue = RdmapOpcode.QN_READ_REQUEST;
        w.sinkStag = sinkStag;
        w.sinkTaggedOffset = sinkTo;
        w.expectedTaggedOffset = sinkTo;
        w.remaining = length;
        pushOutstanding(w);
        return m;
    }

    private OutboundMessage atomicRequest(SendWork w, AtomicOpcode opcode, int stag, long to, long data, long mask,
                                          long compare, long compareMask) {
        // RFC 7306 §5.2.2 [EXT-11]: the requester provisions a QN 3 buffer for every outstanding atomic.
        ControlSlot slot = freeResponseSlots.poll();
        if (slot == null) {
            slot = new ControlSlot(AtomicResponseHeader.LENGTH);
        }
        slot.clearCapture();
        slot.msn = receiver.post(RdmapOpcode.QN_ATOMIC_RESPONSE, slot);
        postedResponseSlots.add(slot);
        w.atomicRequestId = nextAtomicRequestId++;
        ByteBuf header = allocator.buffer(AtomicRequestHeader.LENGTH);
        header.writerIndex(AtomicRequestHeader.LENGTH);
        atomicRequestHeader.wrap(header, 0).atomicOpcode(opcode).requestId(w.atomicRequestId).remoteStag(stag)
                .remoteTaggedOffset(to).addOrSwapData(data).addOrSwapMask(mask).compareData(compare)
                .compareMask(compareMask);
        OutboundMessage m = sender.untagged(RdmapOpcode.QN_READ_REQUEST,
                RdmapControl.encode(RdmapOpcode.ATOMIC_REQUEST), 0, header, takeSpare(w));
        w.requestQueue = RdmapOpcode.QN_READ_REQUEST;
        pushOutstanding(w);
        return m;
    }

    private ByteBuf takeData(SendWork w) {
        ByteBuf data = w.data;
        w.data = null; // DDP owns it from here on
        return data;
    }

    private static RdmapOpcode opcodeOf(RdmapOperation.Send send) {
        if (send.invalidate()) {
            return send.solicitedEvent() ? RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE : RdmapOpcode.SEND_WITH_INVALIDATE;
        }
        return send.solicitedEvent() ? RdmapOpcode.SEND_WITH_SE : RdmapOpcode.SEND;
    }

    private void pushOutstanding(SendWork w) {
        orq[(orqHead + orqSize) % orq.length] = w;
        orqSize++;
    }

    private SendWork outstandingHead() {
        return orqSize == 0 ? null : orq[orqHead];
    }

    private void popOutstanding() {
        orq[orqHead] = null;
        orqHead = (orqHead + 1) % orq.length;
        orqSize--;
    }

    /** Read and Atomic Requests sent and not yet answered (never above ORD, RFC 5040 §6.1). */
    int outstandingRequests() {
        return orqSize;
    }

    private void logOutbound(SendWork w, OutboundMessage m) {
        FrameLog log = frames;
        if (w.requestQueue >= 0) {
            w.requestMsn = m.msn();
        }
        if (!log.enabled()) {
            return;
        }
        if (w.rtr != null) {
            switch (w.rtr) {
                case SEND -> log.untagged(true, RdmapOpcode.SEND, m.msn(), 0);
                case WRITE -> log.tagged(true, RdmapOpcode.RDMA_WRITE, RdmapStream.RTR_STAG, 0, 0);
                default -> log.readRequest(true, m.msn(), 0, 0, 0, RdmapStream.RTR_STAG, 0);
            }
            return;
        }
        RdmapOperation op = w.operation;
        if (op instanceof RdmapOperation.RdmaWrite wr) {
            log.tagged(true, RdmapOpcode.RDMA_WRITE, wr.sinkStag(), wr.sinkTaggedOffset(), m.length());
        } else if (op instanceof RdmapOperation.RdmaWriteWithImmediate wwi) {
            if (w.phase == 0) {
                log.tagged(true, RdmapOpcode.RDMA_WRITE, wwi.sinkStag(), wwi.sinkTaggedOffset(), m.length());
            } else {
                log.immediateData(true, wwi.solicitedEvent() ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE
                        : RdmapOpcode.IMMEDIATE_DATA, m.msn(), wwi.immediateData());
            }
        } else if (op instanceof RdmapOperation.Send send) {
            if (send.invalidate()) {
                log.sendWithInvalidate(true, opcodeOf(send), m.msn(), m.length(), send.invalidateStag());
            } else {
                log.untagged(true, opcodeOf(send), m.msn(), m.length());
            }
        } else if (op instanceof RdmapOperation.ImmediateData imm) {
            log.immediateData(true, imm.solicitedEvent() ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE
                    : RdmapOpcode.IMMEDIATE_DATA, m.msn(), imm.immediateData());
        } else if (op instanceof RdmapOperation.RdmaRead r) {
            log.readRequest(true, m.msn(), r.sinkStag(), r.sinkTaggedOffset(), r.length(), r.sourceStag(),
                    r.sourceTaggedOffset());
        } else if (op instanceof RdmapOperation.AtomicFetchAdd fa) {
            log.atomicRequest(true, m.msn(), AtomicOpcode.FETCH_ADD, 0, w.atomicRequestId, fa.remoteStag(),
                    fa.remoteTaggedOffset(), fa.addData(), fa.addMask(), 0, -1);
        } else if (op instanceof RdmapOperation.AtomicCompareSwap cs) {
            log.atomicRequest(true, m.msn(), AtomicOpcode.CMP_SWAP, 2, w.atomicRequestId, cs.remoteStag(),
                    cs.remoteTaggedOffset(), cs.swapData(), cs.swapMask(), cs.compareData(), cs.compareMask());
        }
    }

    // ------------------------------------------------------------------ responses

    /**
     * Admission of an incoming Read Response segment (RFC 5040 §4.5, §5.2.2): it must continue the Read at
     * the ORQ head — same sink STag, contiguous TO, not beyond the requested size, and the L=1 segment
     * must end exactly at it (the requester MAY check; Linux siw does, with DDP tagged-buffer codes).
     */
    TaggedAdmission admitReadResponse(int stag, long to, int payloadLength, boolean last, ByteBuf segment) {
        SendWork head = outstandingHead();
        if (head == null || !head.isRead()) {
            failures.failIncoming(TerminateCause.RDMAP_UNEXPECTED_OPCODE, segment,
                    head == null ? "Read Response with no Read outstanding"
                    : "Read Response while an Atomic is the oldest outstanding request");
            return TaggedAdmission.REJECT;
        }
        if (payloadLength > 0) {
            if (stag != head.sinkStag) {
                failures.failIncoming(TerminateCause.DDP_INVALID_STAG, segment, String.format(
                        "Read Response STag 0x%08x, the Read's sink STag is 0x%08x", stag, head.sinkStag));
                return TaggedAdmission.REJECT;
            }
            if (to != head.expectedTaggedOffset || payloadLength > head.remaining) {
                failures.failIncoming(TerminateCause.DDP_BASE_OR_BOUNDS_VIOLATION, segment, String.format(
                        "Read Response TO 0x%x length %d, expected TO 0x%x with %d octets left", to,
                        payloadLength, head.expectedTaggedOffset, head.remaining));
                return TaggedAdmission.REJECT;
            }
        }
        if (last && head.remaining != payloadLength) {
            failures.failIncoming(TerminateCause.DDP_BASE_OR_BOUNDS_VIOLATION, segment, "Read Response ends "
                    + (head.remaining - payloadLength) + " octets short of the requested size");
            return TaggedAdmission.REJECT;
        }
        head.expectedTaggedOffset += payloadLength;
        head.remaining -= payloadLength;
        // The sink belongs to us: in verbs terms placing into it needs local-write access.
        return TaggedAdmission.LOCAL_WRITE;
    }

    /** The L=1 Read Response segment was placed: the Read at the ORQ head is complete [RDMAP-25]. */
    void onReadResponseDelivered() {
        SendWork head = outstandingHead();
        if (head == null) {
            return; // cannot happen: admission checked the head
        }
        popOutstanding();
        head.responseDone = true;
        tryComplete();
        progress.transmitReady(); // an ORD slot or a fence may have opened
    }

    /** Remembers the DDP header of an incoming Atomic Response segment (for a Terminate about it). */
    void admitAtomicResponse(int msn, ByteBuf segment) {
        ControlSlot slot = postedResponseSlots.find(msn);
        if (slot != null) {
            slot.captureHeader(segment);
        }
    }

    /** An Atomic Response was delivered on QN 3 (RFC 7306 §5.2.2): completes the Atomic at the ORQ head. */
    void onAtomicResponseDelivered(ControlSlot slot, int msn) {
        postedResponseSlots.remove(slot);
        freeResponseSlots.add(slot);
        atomicResponseHeader.wrap(slot.bytes, 0);
        int requestId = atomicResponseHeader.originalRequestId();
        long original = atomicResponseHeader.originalRemoteData();
        frames.atomicResponse(false, msn, requestId, original);
        SendWork head = outstandingHead();
        if (head == null || !head.isAtomic()) {
            failures.failCaptured(TerminateCause.RDMAP_UNEXPECTED_OPCODE, slot, null,
                    "Atomic Response while " + (head == null ? "nothing" : "a Read")
                    + " is the oldest outstanding request");
            return;
        }
        if (requestId != head.atomicRequestId) {
            head.failure = OperationStatus.LOCAL_ERROR;
            failures.failCaptured(TerminateCause.RDMAP_REMOTE_OPERATION_UNSPECIFIED, slot, null,
                    "Atomic Response for request " + Integer.toUnsignedString(requestId) + ", expected "
                            + Integer.toUnsignedString(head.atomicRequestId));
            return;
        }
        popOutstanding();
        head.atomicOriginalValue = original;
        head.responseDone = true;
        tryComplete();
        progress.transmitReady();
    }

    // ------------------------------------------------------------------ completions

    /** Reports every completed entry from the oldest forward, stopping at the first incomplete one. */
    void tryComplete() {
        long acked = progress.segmentsAcknowledged();
        while (completed < started) {
            SendWork w = slot(completed);
            if (!w.isComplete(acked)) {
                return;
            }
            completed++;
            report(w, OperationStatus.SUCCESS);
        }
    }

    private void report(SendWork w, OperationStatus status) {
        RtrType rtr = w.rtr;
        OperationType type = w.type;
        long id = w.workRequestId;
        long length = w.byteLength;
        long original = w.atomicOriginalValue;
        w.reset();
        if (rtr != null) {
            internal--;
        } else {
            listener.onSendComplete(id, type, status, length, status == OperationStatus.SUCCESS ? original : 0);
        }
    }

    /**
     * Marks the entry whose message a peer's Terminate copied (matched by QN and MSN of the copied
     * untagged header, or by STag and TO range of a copied tagged header).
     */
    void attribute(Terminate terminate) {
        byte[] h = terminate.terminatedDdpHeader();
        if (h == null || h.length < TaggedHeaderFlyweight.HEADER_LENGTH) {
            return;
        }
        TerminateCause cause = terminate.cause();
        boolean protection = cause != null && (cause.errorType() == TerminateErrorType.RDMAP_REMOTE_PROTECTION
                || cause.layer() == TerminateLayer.DDP);
        OperationStatus status = protection ? OperationStatus.REMOTE_ACCESS_ERROR
                : OperationStatus.REMOTE_OPERATION_ERROR;
        ByteBuf header = Unpooled.wrappedBuffer(h);
        boolean tagged = (h[0] & 0x80) != 0;
        byte[] rr = terminate.terminatedRdmaHeader();
        if (rr != null) {
            // A Read Request: match by its header (siw rebuilds the copied DDP header with the read size in
            // the MSN field, interop/FINDINGS.md F2, so the MSN cannot be trusted).
            ReadRequestHeader copied = new ReadRequestHeader().wrap(Unpooled.wrappedBuffer(rr), 0);
            for (long s = completed; s < started; s++) {
                SendWork w = slot(s);
                if (w.isRead() && !w.responseDone && w.sinkStag == copied.sinkStag()
                        && w.operation instanceof RdmapOperation.RdmaRead read
                        && read.sourceStag() == copied.sourceStag()) {
                    w.failure = status;
                    return;
                }
            }
        }
        for (long s = completed; s < submitted; s++) {
            SendWork w = slot(s);
            boolean sent = w.transmitted || w == current;
            if (!sent) {
                return; // later entries never reached the wire
            }
            if (!tagged && h.length == UntaggedHeaderFlyweight.HEADER_LENGTH) {
                if (w.requestQueue == header.getInt(UntaggedHeaderFlyweight.QN_OFFSET)
                        && w.requestMsn == header.getInt(UntaggedHeaderFlyweight.MSN_OFFSET)) {
                    w.failure = status;
                    return;
                }
            } else if (tagged && w.isWrite() && w.sinkStagOf() == header.getInt(TaggedHeaderFlyweight.STAG_OFFSET)
                    && Long.compareUnsigned(header.getLong(TaggedHeaderFlyweight.TO_OFFSET) - w.sinkToOf(),
                    Math.max(1, w.byteLength)) < 0) {
                w.failure = status;
                return;
            }
        }
    }

    /**
     * The stream failed: completes every entry in order — done ones with SUCCESS, the one an error was
     * attributed to with its status, all others FLUSHED — releasing data DDP never took.
     */
    void flush() {
        long acked = progress.segmentsAcknowledged();
        if (current != null && current.message != null) {
            current.message.abandon();
            current.message = null;
        }
        current = null;
        while (completed < submitted) {
            SendWork w = slot(completed);
            completed++;
            if (w.data != null) {
                w.data.release();
                w.data = null;
            }
            if (w.message != null) {
                w.message.abandon();
                w.message = null;
            }
            OperationStatus status = w.failure != null ? w.failure
                    : w.isComplete(acked) ? OperationStatus.SUCCESS : OperationStatus.FLUSHED;
            report(w, status);
        }
        started = submitted;
        while (orqSize > 0) {
            popOutstanding();
        }
        postedResponseSlots.clear();
    }
}
