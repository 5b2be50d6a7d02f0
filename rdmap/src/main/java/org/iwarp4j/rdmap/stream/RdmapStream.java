package org.iwarp4j.rdmap.stream;

import org.iwarp4j.common.RtrType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.memory.TaggedAccessCheck;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.DdpSender;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.ddp.send.OutboundMessage;
import org.iwarp4j.rdmap.RdmapException;
import org.iwarp4j.rdmap.atomic.AtomicExecutor;
import org.iwarp4j.rdmap.atomic.AtomicMath;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;
import org.iwarp4j.rdmap.terminate.TerminateDecoder;
import org.iwarp4j.rdmap.terminate.TerminateEncoder;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.TerminateHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One RDMAP stream (RFC 5040 + RFC 7306) over one DDP stream: the pure protocol core of an iWARP queue
 * pair. It knows no Netty channel; the verbs layer drives it:
 *
 * <ul>
 *   <li><b>Out</b>: {@link #submit} operations and {@link #postReceive} receives; while the channel is
 *       writable call {@link #writeNextSegment()}, which hands at most one DDP segment to the
 *       {@link LlpSegmentWriter} (the MPA adapter) — backpressure is the caller not pulling; report with
 *       {@link #segmentsWritten(int)} how many of those segments the lower layer has taken (write
 *       futures completed, in order).</li>
 *   <li><b>In</b>: feed every received ULPDU (one DDP segment, MPA framing removed) to
 *       {@link #receive(ByteBuf)}.</li>
 *   <li><b>Events</b>: the {@link RdmapListener} hears completions, Terminates, errors and "something
 *       to send".</li>
 *   <li><b>Lower layer</b>: {@link #abort} for errors that must be reported with a Terminate carrying
 *       no header — MPA's CRC/marker errors (0x2/0x0/0x02, 0x03) and the RFC 6581 setup errors the
 *       initiator sends as its first FPDU (0x2/0x0/0x05, 0x06, 0x07; MPA-69/74/76);
 *       {@link #connectionLost} when nothing can be sent any more.</li>
 * </ul>
 *
 * <p><b>Error handling</b> (RFC 5040 §7, RFC 7306 §8): the first error wins [RDMAP-30]. It moves the
 * stream to {@link RdmapStreamState#TERMINATING}: DDP stops placing, every outstanding operation and
 * receive completes (in order; flushed unless already done), and exactly one Terminate — with the
 * M/D/R flags and copied headers of RFC 5040 Fig 10 — is the next message out; after it nothing is sent
 * [RDMAP-19] and the state is {@link RdmapStreamState#ERROR}. A received Terminate moves straight to
 * ERROR, stops sending and flushes (RFC 5040 §5.4).
 *
 * <p><b>Threading</b>: not thread-safe; one stream lives on one event loop. No exception
 * escapes {@link #receive}: protocol errors become Terminates, internal failures a Local Catastrophic
 * Terminate.
 */
public final class RdmapStream {

    private static final Logger LOG = LoggerFactory.getLogger(RdmapStream.class);

    /**
     * The STag of a zero-length Write RTR and the source STag of a zero-length Read RTR (RFC 6581 §9.3 leaves the
     * format open; Linux siw and cxgb4 send 1: non-zero, as some hardware treats STag 0 specially).
     */
    static final int RTR_STAG = 1;

    private final RdmapStreamConfig config;
    private final RdmapMemory memory;
    private final AtomicExecutor atomics;
    private final ByteBufAllocator allocator;
    private final RdmapListener listener;
    private final CountingLlp llp;
    private final DdpSender sender;
    private final DdpReceiver receiver;
    private final FrameLog frames;
    private final Requester requester;
    private final Responder responder;
    private final ReceiveQueue receives;
    private final Transmitter transmitter;

    private RdmapStreamState state = RdmapStreamState.OPERATIONAL;
    private long segmentsAcknowledged;
    private Terminate terminateSent;
    private Terminate terminateReceived;
    private RdmapException firstError;
    private Set<RtrType> expectedRtr;
    private boolean firstMessageSeen;

    /**
     * @param config    limits and identity of the stream
     * @param memory    the registered memory (STag lookup, remote invalidation)
     * @param atomics   the RNIC-wide atomic executor, shared by all streams of the RNIC [EXT-05]
     * @param llp       the lower layer (MPA adapter): MULPDU and one call per DDP segment
     * @param allocator for headers of outbound segments and RDMAP control messages (pooled)
     * @param listener  the verbs layer
     */
    public RdmapStream(RdmapStreamConfig config, RdmapMemory memory, AtomicExecutor atomics, LlpSegmentWriter llp,
                       ByteBufAllocator allocator, RdmapListener listener) {
        this.config = Objects.requireNonNull(config, "config");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.atomics = Objects.requireNonNull(atomics, "atomics");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.llp = new CountingLlp(Objects.requireNonNull(llp, "llp"));
        this.frames = new FrameLog(config.streamIdentity());
        int queues = config.rfc7306() ? DdpReceiver.QUEUES_RFC7306 : DdpReceiver.QUEUES_RFC5040;
        this.sender = new DdpSender(this.llp, allocator, queues);
        // Each part gets the resources it uses and, of the stream itself, only the narrow view it needs.
        Parts parts = new Parts();
        InboundDispatcher dispatcher = new InboundDispatcher(config, listener, frames, parts, parts);
        this.receiver = new DdpReceiver(memory, config.protectionDomain(), config.streamIdentity(), queues, dispatcher);
        this.requester = new Requester(config, sender, receiver, allocator, listener, frames, parts, parts);
        this.responder = new Responder(config, memory, atomics, sender, receiver, allocator, listener, frames, parts,
                parts);
        this.receives = new ReceiveQueue(config, memory, receiver, listener, frames, parts, parts);
        dispatcher.serve(requester, responder, receives);
        this.transmitter = new Transmitter(parts, parts, parts, requester, responder);
        responder.start(config.ird());
        // RFC 5040 §5.4: RDMAP MUST guarantee that a Terminate can be placed: one QN 2 buffer, always.
        receiver.post(RdmapOpcode.QN_TERMINATE, new ControlSlot(TerminateHeader.MAX_LENGTH));
    }

    // ------------------------------------------------------------------ verbs-facing API

    public RdmapStreamState state() {
        return state;
    }

    public RdmapStreamConfig config() {
        return config;
    }

    /** The Terminate this stream sent, or {@code null}. */
    public Terminate terminateSent() {
        return terminateSent;
    }

    /** The Terminate the peer sent, or {@code null}. */
    public Terminate terminateReceived() {
        return terminateReceived;
    }

    /** The error that moved the stream out of OPERATIONAL on this side, or {@code null}. */
    public RdmapException firstError() {
        return firstError;
    }

    /**
     * Posts a receive on QN 0: the next Send or Immediate Data message goes into {@code buffer}
     * (RFC 5040 §5.3). Completed by {@link RdmapListener#onReceiveComplete} with {@code workRequestId}.
     * On a failed stream it completes at once as {@link OperationStatus#FLUSHED}.
     *
     * @throws IllegalStateException if {@link RdmapStreamConfig#receiveQueueDepth()} receives are posted
     */
    public void postReceive(long workRequestId, UntaggedBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        if (state != RdmapStreamState.OPERATIONAL) {
            listener.onReceiveComplete(workRequestId, OperationStatus.FLUSHED, null, 0, 0, 0);
            return;
        }
        receives.post(workRequestId, buffer);
    }

    /**
     * Queues an operation on the send queue. Takes ownership of its data buffer (released also when this
     * method throws). On a failed stream the operation completes at once as FLUSHED (like posting to a
     * verbs QP in the error state).
     *
     * @throws IllegalArgumentException for an operation that cannot be built: RFC 7306 operation on a
     *                                  plain RFC 5040 stream, Read/Atomic with ORD 0, misaligned atomic
     *                                  target [EXT-04], Read length
     *                                  beyond 2^32−1 or a local sink that is not registered with local-write
     *                                  access and large enough, a sink TO range that wraps 2^64
     * @throws IllegalStateException    if the send queue is full
     */
    public void submit(RdmapOperation operation) {
        Objects.requireNonNull(operation, "operation");
        try {
            validate(operation);
            if (state == RdmapStreamState.OPERATIONAL && requester.userQueued() >= config.sendQueueDepth()) {
                throw new IllegalStateException("send queue full (" + config.sendQueueDepth() + " operations)");
            }
        } catch (RuntimeException e) {
            releaseData(operation);
            throw e;
        }
        if (state != RdmapStreamState.OPERATIONAL) {
            releaseData(operation);
            listener.onSendComplete(operation.workRequestId(), operation.type(), OperationStatus.FLUSHED, 0, 0);
            return;
        }
        requester.enqueue(operation);
        transmitReady();
    }

    private void validate(RdmapOperation op) {
        if (op.type().isRfc7306() && !config.rfc7306()) {
            throw new IllegalArgumentException(op.type() + " needs RFC 7306, which is not enabled on this stream");
        }
        if (op.type().awaitsResponse() && config.ord() == 0) {
            // RFC 5040 §6.1: with an outbound limit of 0 the request could never be sent
            throw new IllegalArgumentException(op.type() + " needs an ORD of at least 1; this stream's ORD is 0");
        }
        if (op instanceof RdmapOperation.RdmaWrite w) {
            checkSink(w.data(), w.sinkTaggedOffset());
        } else if (op instanceof RdmapOperation.RdmaWriteWithImmediate w) {
            checkSink(w.data(), w.sinkTaggedOffset());
        } else if (op instanceof RdmapOperation.Send s) {
            Objects.requireNonNull(s.data(), "data");
        } else if (op instanceof RdmapOperation.RdmaRead r) {
            if (r.length() < 0 || r.length() > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("RDMA Read length must be in [0, 2^32-1]: " + r.length());
            }
            if (r.length() > 0) {
                TaggedAccessCheck.Outcome outcome = TaggedAccessCheck.check(memory.lookup(r.sinkStag()),
                        r.sinkTaggedOffset(), r.length(), TaggedBufferAccess.LOCAL_WRITE,
                        config.protectionDomain(), config.streamIdentity());
                if (outcome != TaggedAccessCheck.Outcome.OK) {
                    String stag = Integer.toHexString(r.sinkStag()); // not String.format: refusals are common
                    throw new IllegalArgumentException("RDMA Read sink STag 0x" + "00000000".substring(stag.length())
                            + stag + " TO 0x" + Long.toHexString(r.sinkTaggedOffset()) + " length " + r.length() + ": "
                            + outcome);
                }
            }
        } else if (op instanceof RdmapOperation.AtomicFetchAdd a) {
            checkAligned(a.remoteTaggedOffset());
        } else if (op instanceof RdmapOperation.AtomicCompareSwap a) {
            checkAligned(a.remoteTaggedOffset());
        }
    }

    private static void checkSink(ByteBuf data, long to) {
        Objects.requireNonNull(data, "data");
        int length = data.readableBytes();
        if (length > 0 && Long.compareUnsigned(to + length, to) < 0) {
            throw new IllegalArgumentException("TO 0x" + Long.toHexString(to) + " + " + length + " octets wraps 2^64");
        }
    }

    private static void checkAligned(long to) {
        // RFC 7306 §5.1 [EXT-04]: refused at submission instead of costing the stream a Terminate.
        if (!AtomicMath.isAligned(to)) {
            throw new IllegalArgumentException("atomic target TO 0x" + Long.toHexString(to)
                    + " is not 8-octet aligned");
        }
    }

    private static void releaseData(RdmapOperation op) {
        ByteBuf data = op.data();
        if (data != null && data.refCnt() > 0) {
            data.release();
        }
    }

    /**
     * Initiator in RFC 6581 peer-to-peer mode: send {@code type}'s RTR as the very first message
     * [MPA-74, MPA-75]. Must be called before anything else is submitted; the listener hears
     * {@link RdmapListener#onRtrSent} once it was handed to the lower layer.
     */
    public void sendRtr(RtrType type) {
        Objects.requireNonNull(type, "type");
        if (!requester.isEmpty() || llp.produced() > 0) {
            throw new IllegalStateException("the RTR must be the first message of the stream (RFC 6581 §5)");
        }
        requester.enqueueRtr(type);
        transmitReady();
    }

    /**
     * Sends one internal zero-length RDMA Write (STag 1, TO 0, no completion) after everything already
     * submitted. RFC 5041 §5.2 [DDP-20] forbids checking the STag and TO of a zero-length tagged segment and
     * RFC 5040 §5.1 delivers nothing for a Write, so it is a no-op at every conforming peer; its only effect
     * is that octets arrive. A verbs layer uses it to wake a Linux siw Responder whose accept race left the
     * Initiator's first FPDU unread in its socket (interop/FINDINGS.md M15).
     *
     * @return whether it was queued (false when the stream is not operational or one is pending already)
     */
    public boolean sendZeroLengthWrite() {
        if (state != RdmapStreamState.OPERATIONAL || !requester.enqueueZeroLengthWrite()) {
            return false;
        }
        transmitReady();
        return true;
    }

    /**
     * Responder in RFC 6581 peer-to-peer mode: the peer's first message is the RTR of one of
     * {@code possible} (the types the MPA Reply allowed; the initiator picks one, RFC 6581 §9.2). The
     * listener hears {@link RdmapListener#onRtrReceived} when it arrives. If a Send RTR is possible, user
     * receives posted before the first segment are held back; when the first segment is the zero-length
     * Send RTR (QN 0, MSN 1) an internal receive absorbs it, so the RTR never consumes a user receive and
     * the peer's first real Send (MSN 2) lands in the first user receive. Call before {@link #postReceive}.
     */
    public void expectRtr(Set<RtrType> possible) {
        if (possible.isEmpty()) {
            throw new IllegalArgumentException("no RTR type");
        }
        if (receives.posted() > 0 || firstMessageSeen) {
            throw new IllegalStateException("expectRtr must come before the first postReceive and the first message");
        }
        expectedRtr = EnumSet.copyOf(possible);
        if (expectedRtr.contains(RtrType.SEND)) {
            receives.hold();
        }
    }

    /** {@link #expectRtr(Set)} for exactly one type. */
    public void expectRtr(RtrType type) {
        expectRtr(EnumSet.of(type));
    }

    /**
     * Hands at most one DDP segment to the lower layer. Call while the channel is writable.
     *
     * @return whether a segment was written (false: nothing to send now)
     */
    public boolean writeNextSegment() {
        if (state == RdmapStreamState.CLOSED || state == RdmapStreamState.ERROR) {
            return false;
        }
        return transmitter.writeNextSegment();
    }

    /**
     * Whether a message is partly written (some of its segments handed to the lower layer, not all).
     * A graceful close (RFC 5040 §6.2.1) keeps calling {@link #writeNextSegment()} while
     * this is true — that finishes the message and starts no new one — then closes.
     */
    public boolean isMessageInProgress() {
        return state != RdmapStreamState.CLOSED && transmitter.messageInProgress();
    }

    /** Whether {@link #writeNextSegment()} has something to write. */
    public boolean hasPendingTransmit() {
        return state != RdmapStreamState.CLOSED && state != RdmapStreamState.ERROR && transmitter.hasPending();
    }

    /**
     * The lower layer took responsibility for {@code count} more segments, in the order
     * {@link #writeNextSegment()} produced them (RFC 5040 §5.5: a Write or Send completes locally only
     * then [RDMAP-21]).
     */
    public void segmentsWritten(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
        segmentsAcknowledged += count;
        if (state == RdmapStreamState.OPERATIONAL) {
            requester.tryComplete();
        }
    }

    /** Processes one received DDP segment (one ULPDU). Takes ownership of {@code ulpdu}. */
    public void receive(ByteBuf ulpdu) {
        if (state == RdmapStreamState.CLOSED) {
            ulpdu.release();
            return;
        }
        try {
            receiver.receive(ulpdu);
        } catch (RuntimeException e) {
            LOG.error("internal error while processing an incoming segment", e);
            failLocal(localCatastrophicCause(), "internal error: " + e);
        }
    }

    /**
     * Terminates the stream with {@code cause} and no copied header (RFC 5040 §7.1 case 1 / Fig 10):
     * an LLP error MPA reported (CRC, marker mismatch), an RFC 6581 setup failure of the initiator
     * (Insufficient IRD, No matching RTR, Local catastrophic — sent as the first FPDU), or a local
     * catastrophic error. Ignored if the stream already failed (first error wins).
     */
    public void abort(TerminateCause cause, String reason) {
        failLocal(Objects.requireNonNull(cause, "cause"), reason);
    }

    /**
     * The lower layer failed (RFC 5044 §8 code 0x01: TCP closed, reset or lost): nothing can be sent any
     * more, so no Terminate; everything outstanding is flushed and the listener hears
     * {@link RdmapListener#onFatalError}.
     */
    public void connectionLost(Throwable cause) {
        if (state != RdmapStreamState.OPERATIONAL && state != RdmapStreamState.TERMINATING) {
            return;
        }
        stop(RdmapStreamState.ERROR);
        listener.onFatalError(cause);
        flushAll();
    }

    /** Releases everything: outstanding work is flushed, nothing more is sent or received. */
    public void close() {
        if (state == RdmapStreamState.CLOSED) {
            return;
        }
        stop(RdmapStreamState.CLOSED);
        flushAll();
    }

    /** Read and Atomic Requests we sent and that are not answered yet (≤ ORD). */
    public int outstandingRequests() {
        return requester.outstandingRequests();
    }

    /** Read and Atomic Requests of the peer accepted and not fully answered yet (≤ IRD). */
    public int pendingInboundRequests() {
        return responder.pending();
    }

    // ------------------------------------------------------------------ the parts' view of the stream

    /** DDP's receiver, for tests that look at what is posted on a queue. */
    DdpReceiver receiver() {
        return receiver;
    }

    /**
     * The stream as its parts see it: each part is given only the interfaces it uses (the send side's progress,
     * the inbound side's events, the failures, the Terminate), never the stream.
     */
    private final class Parts implements StreamFailures, SendProgress, InboundEvents, TerminateWriter {

        @Override
        public boolean operational() {
            return state == RdmapStreamState.OPERATIONAL;
        }

        @Override
        public long segmentsProduced() {
            return llp.produced();
        }

        @Override
        public long segmentsAcknowledged() {
            return segmentsAcknowledged;
        }

        @Override
        public void transmitReady() {
            RdmapStream.this.transmitReady();
        }

        @Override
        public void messageReceived() {
            firstMessageSeen = true;
        }

        @Override
        public void rtrReceived(RtrType type) {
            if (!firstMessageSeen && expectedRtr != null && expectedRtr.contains(type)) {
                listener.onRtrReceived(type);
            }
        }

        /** The first admitted segment tells whether held receives follow a Send RTR (see {@link #expectRtr(Set)}). */
        @Override
        public void segmentArriving(boolean tagged, int rdmapControl, int qn, int msn, int mo, int payloadLength,
                                    boolean last) {
            if (receives.holding()) {
                boolean sendRtr = !tagged && qn == RdmapOpcode.QN_SEND && msn == 1 && mo == 0 && payloadLength == 0
                        && last && RdmapControl.opcodeCode(rdmapControl) == RdmapOpcode.SEND.code();
                receives.release(sendRtr);
            }
        }

        @Override
        public void failIncoming(TerminateCause cause, ByteBuf segment, String detail) {
            int length = segment.readableBytes();
            int headerLength = TerminateHeader.ddpHeaderLength(segment.getUnsignedByte(segment.readerIndex()));
            byte[] header = null;
            if (length >= headerLength) {
                header = new byte[headerLength];
                segment.getBytes(segment.readerIndex(), header);
            }
            failWithHeader(cause, length, header, null, detail);
        }

        @Override
        public void failCaptured(TerminateCause cause, PostedSlot slot, byte[] readRequestHeader, String detail) {
            failWithHeader(cause, slot.capturedSegmentLength(), slot.capturedHeader(), readRequestHeader, detail);
        }

        @Override
        public void failWithHeader(TerminateCause cause, int segmentLength, byte[] ddpHeader, byte[] readRequestHeader,
                                   String detail) {
            fail(new RdmapException(Terminate.forIncomingMessage(cause, segmentLength, ddpHeader, readRequestHeader),
                    detail));
        }

        @Override
        public void failLocal(TerminateCause cause, String detail) {
            RdmapStream.this.failLocal(cause, detail);
        }

        @Override
        public void failFromDdp(DdpException e) {
            TerminateCause cause = TerminateCause.of(e.layer(), e.errorType(), e.errorCode());
            if (cause == null) {
                cause = TerminateCause.DDP_LOCAL_CATASTROPHIC;
            }
            byte[] header = e.hasTerminatedDdpHeader() ? e.terminatedDdpHeader() : null;
            fail(new RdmapException(Terminate.forIncomingMessage(cause, e.ddpSegmentLength(), header, null),
                    e.getMessage()));
        }

        @Override
        public TerminateCause localCatastrophicCause() {
            return RdmapStream.this.localCatastrophicCause();
        }

        @Override
        public void writeTerminate(Terminate terminate) {
            RdmapStream.this.writeTerminate(terminate);
        }

        @Override
        public void terminateReceived(ByteBuf segment, int msn, int payloadLength) {
            RdmapStream.this.terminateReceived(segment, msn, payloadLength);
        }
    }

    private void transmitReady() {
        if (state == RdmapStreamState.OPERATIONAL || transmitter.terminatePending()) {
            listener.onTransmitReady();
        }
    }

    // ------------------------------------------------------------------ errors

    /**
     * The cause of a local failure (an exception while building, writing or processing a message):
     * during the RFC 6581 enhanced setup of an initiator, i.e. before its RTR went out, it is MPA's
     * "Local catastrophic error" 0x2/0x0/0x05 (RFC 6581 §8, §9.3 [MPA-76]); afterwards RDMAP's Local
     * Catastrophic Error 0x0/0x0/0x00 (RFC 5040 §4.8).
     */
    private TerminateCause localCatastrophicCause() {
        return requester.rtrUnsent() ? TerminateCause.MPA_LOCAL_CATASTROPHIC : TerminateCause.RDMAP_LOCAL_CATASTROPHIC;
    }

    private void failLocal(TerminateCause cause, String detail) {
        fail(RdmapException.local(cause, detail));
    }

    /** The first error wins (RFC 5040 §7.1); later ones are only logged. */
    private void fail(RdmapException e) {
        if (state != RdmapStreamState.OPERATIONAL) {
            if (LOG.isDebugEnabled()) { // getMessage() formats the Terminate: not for a disabled log
                LOG.debug("further error after the first one, not reported: {}", e.getMessage());
            }
            return;
        }
        state = RdmapStreamState.TERMINATING;
        firstError = e;
        receiver.stopPlacement(); // RFC 5041 §7.1: drop every later segment
        transmitter.prepareTerminate(e.terminate());
        if (LOG.isDebugEnabled()) {
            LOG.debug("RDMAP stream fails: {}", e.getMessage());
        }
        listener.onFatalError(e);
        flushAll();
        listener.onTransmitReady();
    }

    /** Writes our one Terminate (QN 2, MSN 1) and shuts the send side [RDMAP-19]. */
    private void writeTerminate(Terminate terminate) {
        ByteBuf body = allocator.buffer(terminate.encodedLength());
        try {
            TerminateEncoder.encode(terminate, body);
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
        try {
            OutboundMessage m = sender.untagged(RdmapOpcode.QN_TERMINATE, RdmapControl.encode(RdmapOpcode.TERMINATE), 0,
                    body);
            m.writeAll();
            frames.terminate(true, m.msn(), terminate);
        } catch (RuntimeException e) {
            LOG.warn("could not send the Terminate {}", terminate, e);
        }
        sender.shutdown();
        state = RdmapStreamState.ERROR;
        terminateSent = terminate;
        listener.onTerminateSent(terminate);
    }

    /** A Terminate arrived on QN 2 (called at admission with the whole segment). */
    private void terminateReceived(ByteBuf segment, int msn, int payloadLength) {
        Terminate t = TerminateDecoder.decode(segment, segment.readerIndex() + 18, payloadLength,
                config.peerTerminateLayout(), !firstMessageSeen && llp.produced() == 0
                        ? TerminateDecoder.Phase.SETUP : TerminateDecoder.Phase.RUNNING);
        frames.terminate(false, msn, t);
        if (terminateReceived == null) {
            terminateReceived = t;
        }
        if (state != RdmapStreamState.OPERATIONAL && state != RdmapStreamState.TERMINATING) {
            return;
        }
        // RFC 5040 §5.4: the receiver of a Terminate may stop sending; it never answers with its own.
        stop(RdmapStreamState.ERROR);
        requester.attribute(t);
        listener.onTerminateReceived(t);
        flushAll();
    }

    /**
     * The one way a stream stops (a close, a lost connection, a Terminate received): it enters {@code next},
     * places nothing more (RFC 5041 §7.1), abandons a partly written message and shuts DDP's send side. The caller
     * then tells the listener and flushes what was outstanding.
     */
    private void stop(RdmapStreamState next) {
        state = next;
        receiver.stopPlacement();
        transmitter.abandonAll();
        sender.shutdown();
    }

    private void flushAll() {
        requester.flush();
        responder.flush();
        receives.flush(receiver.removePosted(RdmapOpcode.QN_SEND));
        for (int qn = 1; qn < receiver.queueCount(); qn++) {
            receiver.removePosted(qn);
        }
    }

    /** Counts the segments handed to the lower layer (completions are matched against the count). */
    private static final class CountingLlp implements LlpSegmentWriter {
        private final LlpSegmentWriter delegate;
        private long produced;

        CountingLlp(LlpSegmentWriter delegate) {
            this.delegate = delegate;
        }

        long produced() {
            return produced;
        }

        @Override
        public int mulpdu() {
            return delegate.mulpdu();
        }

        @Override
        public void writeSegment(ByteBuf header, ByteBuf payload) {
            produced++;
            delegate.writeSegment(header, payload);
        }

        @Override
        public void writeSegment(ByteBuf header, ByteBuf source, int index, int length) {
            produced++;
            delegate.writeSegment(header, source, index, length);
        }

        @Override
        public boolean writeSegmentInPlace(int length, SegmentContent content) {
            if (!delegate.writeSegmentInPlace(length, content)) {
                return false;
            }
            produced++;
            return true;
        }

        @Override
        public int lendLimit() {
            return delegate.lendLimit();
        }

        @Override
        public int headroom() {
            return delegate.headroom();
        }

        @Override
        public int tailroom() {
            return delegate.tailroom();
        }
    }
}
