package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.iwarp4j.ddp.memory.TaggedAccessCheck;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.wire.AtomicOpcode;
import org.iwarp4j.rdmap.wire.AtomicRequestHeader;
import org.iwarp4j.rdmap.wire.AtomicResponseHeader;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.ReadRequestHeader;

/**
 * The responder half of a stream: accepts Read Requests (RFC 5040 §5.2) and Atomic Requests (RFC 7306
 * §5) on QN 1, validates them, and answers them in arrival order with Read Responses (tagged, zero-copy
 * slices of the registered source) and Atomic Responses (QN 3).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>IRD [RDMAP-15, RDMAP-16]: exactly IRD QN-1 buffers are posted; one is re-posted only after the
 *       response to the request it carried has been written. A request beyond IRD therefore finds no
 *       buffer and DDP reports 0x1/0x2/0x02 (RFC 5041 §7.2).</li>
 *   <li>Requests are processed only after DDP delivered them [RDMAP-24, EXT-12] (so every earlier
 *       message of the stream was delivered first: Send → Read, Send → Atomic).</li>
 *   <li>Responses in arrival order [RDMAP-15, EXT-11]: one FIFO for Read and Atomic Requests; the head's
 *       response is written completely before the next one starts (Read → Read, Read → Atomic,
 *       Atomic → Read, Atomic → Atomic).</li>
 *   <li>An atomic is executed when its response is generated, i.e. after every earlier response was
 *       generated, under the RNIC-wide {@link org.iwarp4j.rdmap.atomic.AtomicExecutor} [EXT-05].</li>
 *   <li>Zero-size Reads are not validated and get one zero-length Read Response [RDMAP-14].</li>
 * </ul>
 */
final class Responder implements TransmitSource {

    /** Largest RDMAP header on QN 1: the Atomic Request (52); a Read Request is 28. */
    static final int SLOT_CAPACITY = AtomicRequestHeader.LENGTH;

    private final RdmapStreamConfig config;
    private final RdmapMemory memory;
    private final AtomicExecutor atomics;
    private final DdpSender sender;
    private final DdpReceiver receiver;
    private final ByteBufAllocator allocator;
    private final RdmapListener listener;
    private final FrameLog frames;
    private final StreamFailures failures;
    private final SendProgress progress;
    private final MsnRing<ControlSlot> posted = new MsnRing<>();
    private final InboundRequest[] queue;
    private int head;
    private int size;
    private InboundRequest current;
    /** IRD: the most QN 1 slots this stream makes ({@link #start}), and how many it has made. */
    private int slotLimit;
    private int slotsMade;
    private OutboundMessage message;
    /** The last response once done, handed back to DDP for the next one (no allocation per response). */
    private OutboundMessage spare;

    private final ReadRequestHeader readRequestHeader = new ReadRequestHeader();
    private final AtomicRequestHeader atomicRequestHeader = new AtomicRequestHeader();

    Responder(RdmapStreamConfig config, RdmapMemory memory, AtomicExecutor atomics, DdpSender sender,
              DdpReceiver receiver, ByteBufAllocator allocator, RdmapListener listener, FrameLog frames,
              StreamFailures failures, SendProgress progress) {
        this.config = config;
        this.memory = memory;
        this.atomics = atomics;
        this.sender = sender;
        this.receiver = receiver;
        this.allocator = allocator;
        this.listener = listener;
        this.frames = frames;
        this.failures = failures;
        this.progress = progress;
        int ird = config.ird();
        // An entry is made when a request first needs it (onDelivered) and reused from then on: a stream the
        // peer never reads from holds none of its IRD entries.
        this.queue = new InboundRequest[Math.max(ird, 1)];
    }

    /**
     * Provisions the IRD slots on QN 1 (RFC 5040 §5.2: the responder provisions at least IRD buffers). They are
     * made and posted as the peer's requests arrive ({@link #admit}), not all at once: the window of MSNs DDP
     * accepts on QN 1 is the same as with IRD slots posted up front (RFC 5041 §7.1 checks 2 and 5), but a stream
     * whose peer never reads holds none.
     */
    void start(int ird) {
        this.slotLimit = ird;
    }

    /**
     * Posts new slots, while fewer than IRD were made, until {@code msn} is in QN 1's window: the slots posting
     * all IRD at the start would have provided for it.
     */
    private void provision(int msn) {
        int next = receiver.expectedMsn(RdmapOpcode.QN_READ_REQUEST)
                + receiver.postedCount(RdmapOpcode.QN_READ_REQUEST);
        int ahead = msn - next; // serial arithmetic (RFC 5041 §4.3: MSNs wrap at 2^32)
        while (ahead >= 0 && slotsMade < slotLimit) {
            slotsMade++;
            post(new ControlSlot(SLOT_CAPACITY));
            ahead--;
        }
    }

    private void post(ControlSlot slot) {
        slot.clearCapture();
        slot.msn = receiver.post(RdmapOpcode.QN_READ_REQUEST, slot);
        posted.add(slot);
    }

    /** Inbound requests accepted and not yet fully answered (never above IRD). */
    int pending() {
        return size;
    }

    /** Remembers the DDP header of an incoming Read/Atomic Request segment (for a Terminate about it). */
    void admit(int msn, ByteBuf segment) {
        ControlSlot slot = posted.find(msn);
        if (slot == null && slotsMade < slotLimit) {
            provision(msn);
            slot = posted.find(msn);
        }
        if (slot != null) {
            slot.captureHeader(segment);
        }
    }

    // ------------------------------------------------------------------ delivery

    /** A Read or Atomic Request was delivered on QN 1: validate it and queue its response. */
    void onDelivered(ControlSlot slot, int msn, RdmapOpcode opcode) {
        posted.remove(slot);
        int index = (head + size) % queue.length;
        InboundRequest r = queue[index];
        if (r == null) {
            r = new InboundRequest();
            queue[index] = r;
        }
        r.reset();
        r.slot = slot;
        r.msn = msn;
        boolean accepted = opcode == RdmapOpcode.ATOMIC_REQUEST ? acceptAtomic(r, slot) : acceptRead(r, slot);
        if (accepted) {
            size++;
            progress.transmitReady();
        } else {
            r.reset();
        }
    }

    private boolean acceptRead(InboundRequest r, ControlSlot slot) {
        ReadRequestHeader h = readRequestHeader.wrap(slot.bytes, 0);
        r.sinkStag = h.sinkStag();
        r.sinkTaggedOffset = h.sinkTaggedOffset();
        r.size = Integer.toUnsignedLong(h.messageSize());
        r.sourceStag = h.sourceStag();
        r.sourceTaggedOffset = h.sourceTaggedOffset();
        frames.readRequest(false, r.msn, r.sinkStag, r.sinkTaggedOffset, r.size, r.sourceStag,
                r.sourceTaggedOffset);
        if (r.size > 0) {
            // RFC 5040 §7.2 [RDMAP-31]: the source TO + size must not wrap. Checked first, as the sink's wrap
            // below: both need only the request's octets, so its Terminate does not depend on what is registered.
            if (TaggedAccessCheck.wraps(r.sourceTaggedOffset, r.size)) {
                failRead(r, TerminateCause.RDMAP_TO_WRAP, 0, "Read Request source TO + size reaches 2^64: "
                        + describe(r));
                return false;
            }
            // No RFC rule makes the responder check the sink (the requester's DDP does, RFC 5041 §7.1), but a
            // Read Response at sink TOs reaching 2^64 could never be placed (RFC 5040 §4.5): refused here with the
            // same Remote Protection TO wrap, which the RFC leaves open and Fig 10 allows for a Read Request.
            if (TaggedAccessCheck.wraps(r.sinkTaggedOffset, r.size)) {
                failRead(r, TerminateCause.RDMAP_TO_WRAP, 0, String.format(
                        "Read Request sink TO 0x%x + size %d reaches 2^64 (source %s)", r.sinkTaggedOffset, r.size,
                        describe(r)));
                return false;
            }
            // RFC 5040 §5.2 / §7.2 [RDMAP-31]: source STag valid, bound to this stream, remote-read access,
            // TO and TO + size inside the region.
            TaggedBuffer source = memory.lookup(r.sourceStag);
            TaggedAccessCheck.Outcome outcome = TaggedAccessCheck.check(source, r.sourceTaggedOffset, r.size,
                    TaggedBufferAccess.REMOTE_READ, config.protectionDomain(), config.streamIdentity());
            if (outcome != TaggedAccessCheck.Outcome.OK) {
                failRead(r, remoteProtectionCause(outcome), 0, "Read Request source " + describe(r) + ": " + outcome);
                return false;
            }
            r.source = source;
        }
        listener.onReadRequestArrived(r.sinkStag, r.sinkTaggedOffset, r.size, r.sourceStag,
                r.sourceTaggedOffset);
        return true;
    }

    private boolean acceptAtomic(InboundRequest r, ControlSlot slot) {
        AtomicRequestHeader h = atomicRequestHeader.wrap(slot.bytes, 0);
        r.atomic = true;
        int aopcode = h.atomicOpcodeCode();
        r.atomicOpcode = AtomicOpcode.fromCode(aopcode);
        r.requestId = h.requestId();
        r.remoteStag = h.remoteStag();
        r.remoteTaggedOffset = h.remoteTaggedOffset();
        r.addOrSwapData = h.addOrSwapData();
        r.addOrSwapMask = h.addOrSwapMask();
        r.compareData = h.compareData();
        r.compareMask = h.compareMask();
        frames.atomicRequest(false, r.msn, r.atomicOpcode, aopcode, r.requestId, r.remoteStag,
                r.remoteTaggedOffset, r.addOrSwapData, r.addOrSwapMask, r.compareData, r.compareMask);
        if (r.atomicOpcode == null) {
            // RFC 7306 §5.2.1 [EXT-10]: an unknown AOpCode is an error; reported as Unexpected OpCode.
            failures.failCaptured(TerminateCause.RDMAP_UNEXPECTED_OPCODE, slot, null,
                    "Atomic Request with AOpCode " + aopcode);
            return false;
        }
        if (!AtomicMath.isAligned(r.remoteTaggedOffset)) {
            // RFC 7306 §5.1, §8.2 [EXT-04]: not performed, memory untouched, Remote Operation / 0x07.
            failures.failCaptured(TerminateCause.RDMAP_CATASTROPHIC_LOCALIZED, slot, null, String.format(
                    "Atomic Request target TO 0x%x is not 8-octet aligned", r.remoteTaggedOffset));
            return false;
        }
        // RFC 7306 §8.2: the target is validated as a Read's source; TaggedAccessCheck decides a wrap (only
        // TO 0xFFFFFFFFFFFFFFF8 once aligned: its 8 octets end at 2^64) first, from the octets alone.
        TaggedBuffer target = memory.lookup(r.remoteStag);
        TaggedAccessCheck.Outcome outcome = TaggedAccessCheck.check(target, r.remoteTaggedOffset, 8,
                TaggedBufferAccess.REMOTE_ATOMIC, config.protectionDomain(), config.streamIdentity());
        if (outcome != TaggedAccessCheck.Outcome.OK) {
            // RFC 7306 §8.2: validated like a Read source; Fig 10 copies no RDMA header for it.
            failures.failCaptured(remoteProtectionCause(outcome), slot, null, String.format(
                    "Atomic Request target STag 0x%08x TO 0x%x: %s", r.remoteStag, r.remoteTaggedOffset, outcome));
            return false;
        }
        r.target = target;
        listener.onAtomicRequestArrived(r.atomicOpcode, r.remoteStag, r.remoteTaggedOffset);
        return true;
    }

    static TerminateCause remoteProtectionCause(TaggedAccessCheck.Outcome outcome) {
        return switch (outcome) {
            case INVALID_STAG -> TerminateCause.RDMAP_INVALID_STAG;
            case NOT_ASSOCIATED -> TerminateCause.RDMAP_STAG_NOT_ASSOCIATED;
            case ACCESS_DENIED -> TerminateCause.RDMAP_ACCESS_RIGHTS_VIOLATION;
            case BASE_OR_BOUNDS -> TerminateCause.RDMAP_BASE_OR_BOUNDS_VIOLATION;
            case TO_WRAP -> TerminateCause.RDMAP_TO_WRAP;
            case OK -> throw new IllegalArgumentException("not an error");
        };
    }

    /**
     * Terminates the stream for a Read Request, copying its DDP header and its Read Request header
     * (RFC 5040 Fig 10: R=1). If {@code sent} octets of the response were already written, the copied
     * RDMA header reflects that progress: sink and source TO advanced, size reduced [RDMAP-11].
     */
    private void failRead(InboundRequest r, TerminateCause cause, long sent, String detail) {
        byte[] rdmaHeader = new byte[ReadRequestHeader.LENGTH];
        r.slot.bytes.getBytes(0, rdmaHeader);
        if (sent > 0) {
            new ReadRequestHeader().wrap(Unpooled.wrappedBuffer(rdmaHeader), 0)
                    .sinkTaggedOffset(r.sinkTaggedOffset + sent)
                    .messageSize((int) (r.size - sent))
                    .sourceTaggedOffset(r.sourceTaggedOffset + sent);
        }
        failures.failCaptured(cause, r.slot, rdmaHeader, detail);
    }

    private static String describe(InboundRequest r) {
        return String.format("STag 0x%08x TO 0x%x size %d", r.sourceStag, r.sourceTaggedOffset, r.size);
    }

    // ------------------------------------------------------------------ transmission

    @Override
    public boolean hasMessageInProgress() {
        return message != null && message.isStarted();
    }

    @Override
    public boolean canWrite() {
        return message != null || size > 0;
    }

    @Override
    public OutboundMessage inProgressMessage() {
        return hasMessageInProgress() ? message : null;
    }

    @Override
    public void detachInProgress() {
        message = null;
    }

    @Override
    public void writeSegment() {
        if (message == null) {
            current = queue[head];
            if (!startResponse(current)) {
                return;
            }
        }
        InboundRequest r = current;
        OutboundMessage m = message;
        if (!r.atomic && r.source != null && !r.source.isValid()) {
            // The source was invalidated/deregistered while we answer: RFC 5040 §7.1 with the progress made.
            long sent = m.sentOctets();
            m.abandon();
            message = null;
            failRead(r, TerminateCause.RDMAP_INVALID_STAG, sent, String.format(
                    "Read source STag 0x%08x became invalid after %d of %d octets", r.sourceStag, sent, r.size));
            return;
        }
        boolean first = !m.isStarted();
        m.writeNextSegment();
        if (first && !r.atomic) {
            frames.tagged(true, RdmapOpcode.RDMA_READ_RESPONSE, r.sinkStag, r.sinkTaggedOffset, r.size);
        }
        if (m.isDone()) {
            spare = m;
            finishResponse();
        }
    }

    /** Read Responses of up to this many octets are copied from the registered memory, longer ones sliced. */
    static final int COPIED_RESPONSE_LIMIT = 512;

    private boolean startResponse(InboundRequest r) {
        if (r.atomic) {
            return startAtomicResponse(r);
        }
        ByteBuf payload = Unpooled.EMPTY_BUFFER;
        if (r.size > 0) {
            if (!r.source.isValid()) {
                failRead(r, TerminateCause.RDMAP_INVALID_STAG, 0, String.format(
                        "Read source STag 0x%08x became invalid before the response", r.sourceStag));
                return false;
            }
            int offset = (int) (r.sourceTaggedOffset - r.source.baseTaggedOffset());
            if (r.size <= COPIED_RESPONSE_LIMIT) {
                // A small response is copied into a pooled buffer now: a slice would be a heap object per Read
                // (the segments copy so few octets next to their headers anyway).
                payload = allocator.directBuffer((int) r.size);
                r.source.memory().getBytes(offset, payload, 0, (int) r.size);
                payload.writerIndex((int) r.size);
            } else {
                // Zero-copy: the response is the registered memory itself, from offset (no slice of it), and its
                // segments slices of that, or lent to MPA where it copies them anyway. STag and first TO as below.
                message = sender.tagged(RdmapControl.encode(RdmapOpcode.RDMA_READ_RESPONSE), r.sinkStag,
                        r.sinkTaggedOffset, r.source.memory().retain(), offset, (int) r.size, takeSpare());
                return true;
            }
        }
        // RFC 5040 §4.5 [RDMAP-06]: STag and first TO are the request's Data Sink STag and TO.
        message = sender.tagged(RdmapControl.encode(RdmapOpcode.RDMA_READ_RESPONSE), r.sinkStag,
                r.sinkTaggedOffset, payload, takeSpare());
        return true;
    }

    private boolean startAtomicResponse(InboundRequest r) {
        TaggedBuffer target = r.target;
        if (!target.isValid()) {
            failures.failCaptured(TerminateCause.RDMAP_INVALID_STAG, r.slot, null, String.format(
                    "Atomic target STag 0x%08x became invalid before the operation", r.remoteStag));
            return false;
        }
        int index = (int) (r.remoteTaggedOffset - target.baseTaggedOffset());
        long original = r.atomicOpcode == AtomicOpcode.FETCH_ADD
                ? atomics.fetchAdd(target.memory(), index, r.addOrSwapData, r.addOrSwapMask)
                : atomics.compareSwap(target.memory(), index, r.compareData, r.compareMask,
                        r.addOrSwapData, r.addOrSwapMask);
        ByteBuf header = allocator.buffer(AtomicResponseHeader.LENGTH);
        header.writeInt(r.requestId).writeLong(original);
        // RFC 7306 §5.2.2: untagged QN 3; its MSN is the position of the request among atomic requests.
        message = sender.untagged(RdmapOpcode.QN_ATOMIC_RESPONSE,
                RdmapControl.encode(RdmapOpcode.ATOMIC_RESPONSE), 0, header, takeSpare());
        frames.atomicResponse(true, sender.nextMsn(RdmapOpcode.QN_ATOMIC_RESPONSE), r.requestId,
                original);
        return true;
    }

    private OutboundMessage takeSpare() {
        OutboundMessage m = spare;
        spare = null;
        return m;
    }

    private void finishResponse() {
        InboundRequest r = current;
        message = null;
        current = null;
        ControlSlot slot = r.slot;
        r.reset();
        head = (head + 1) % queue.length;
        size--;
        post(slot); // RFC 5040 §6.1: the IRD slot is free again once the response has gone out
    }

    /** The stream failed: drop every queued request (their slots are dropped with DDP's queues). */
    void flush() {
        if (message != null) {
            message.abandon();
            message = null;
        }
        current = null;
        for (int i = 0; i < size; i++) {
            queue[(head + i) % queue.length].reset();
        }
        head = 0;
        size = 0;
        posted.clear();
    }
}
