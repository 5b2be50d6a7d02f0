package org.iwarp4j.ddp.receive;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.DdpError;
import org.iwarp4j.ddp.DdpException;
import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.ddp.memory.TaggedAccessCheck;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferRegistry;
import org.iwarp4j.ddp.memory.UntaggedBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;

/**
 * The receive half of one DDP stream (RFC 5041): takes each segment the lower layer hands up, checks it
 * (RFC 5041 §7.1), places its payload directly into a registered tagged buffer or a posted untagged
 * buffer, and delivers complete messages to the {@link DdpReceiveListener} in order (RFC 5041 §5.3, §5.4).
 *
 * <h2>Checks, in the order they run</h2>
 * <ol>
 *   <li>The segment holds its complete header (14 octets tagged, 18 untagged) — else
 *       {@link DdpError#LOCAL_CATASTROPHIC} (the RFC has no code for a truncated header).</li>
 *   <li>DV = 1 (RFC 5041 §4.1) — else {@link DdpError#TAGGED_INVALID_DDP_VERSION} /
 *       {@link DdpError#UNTAGGED_INVALID_DDP_VERSION}.</li>
 *   <li>Tagged: TO + payload length does not reach 2^64 ({@link TaggedAccessCheck#wraps}) — else
 *       {@link DdpError#TO_WRAP}.</li>
 *   <li>Untagged: QN valid for the stream (0…queueCount−1) — else {@link DdpError#INVALID_QN}; MO +
 *       payload length below 2^32 ({@link #exceedsMessageLimit}) — else {@link DdpError#MESSAGE_TOO_LONG}.</li>
 *   <li>The ULP's admission ({@link DdpReceiveListener#admitTaggedSegment} / {@code admitUntaggedSegment}).</li>
 *   <li>Tagged, non-empty payload only (RFC 5041 §5.2: STag and TO of a zero-length tagged segment
 *       MUST NOT be checked): {@link TaggedAccessCheck} — unknown / invalidated STag or missing access
 *       right → {@link DdpError#INVALID_STAG}, other PD or stream → {@link DdpError#STAG_NOT_ASSOCIATED},
 *       outside the region → {@link DdpError#BASE_OR_BOUNDS_VIOLATION}.</li>
 *   <li>Untagged (also zero-length: such a message still consumes its buffer): a buffer is posted for
 *       (QN, MSN) → {@link DdpError#INVALID_MSN_NO_BUFFER}, MSN not behind the window →
 *       {@link DdpError#INVALID_MSN_RANGE}, MO ≤ buffer capacity → {@link DdpError#INVALID_MO},
 *       MO + payload ≤ capacity → {@link DdpError#MESSAGE_TOO_LONG}.</li>
 * </ol>
 *
 * <p>Every check up to the admission needs nothing but the segment's octets, and they run before the
 * ULP's and before any that consults registered or posted buffers: RFC 5041 §7.1 lists its checks
 * without an order, and this one makes the Terminate for a segment that fails one of them a function of
 * its octets alone, the same whatever the receiver holds (what {@code iwarp explain} reports).
 *
 * <p>On the first failure the segment's target memory is not touched, the listener gets one
 * {@link DdpReceiveListener#onSegmentRejected}, and every later segment is released without a word
 * (RFC 5041 §7.1); the send side is independent, so the ULP can still send its Terminate.
 *
 * <p>Not thread-safe: a stream lives on one event loop; post buffers from that loop.
 */
public final class DdpReceiver {

    /** Untagged queues of RFC 5040: QN 0 Send, 1 Read Request, 2 Terminate. */
    public static final int QUEUES_RFC5040 = 3;
    /** Untagged queues with RFC 7306: QN 3 Atomic Response added (Atomic Requests share QN 1). */
    public static final int QUEUES_RFC7306 = 4;
    /** The longest DDP message: its length is below 2^32 (RFC 5041 §5.2). */
    public static final long MAX_MESSAGE_LENGTH = 0xFFFF_FFFFL;

    private static final Logger LOG = LoggerFactory.getLogger(DdpReceiver.class);

    private final TaggedBufferRegistry registry;
    private final long protectionDomain;
    private final Object stream;
    private final DdpReceiveListener listener;
    private final UntaggedQueue[] queues;

    private boolean stopped;
    // The tagged message in progress (tagged messages do not interleave): TO of its first segment, octets so far.
    private boolean taggedMessageOpen;
    private long taggedMessageFirstTo;
    private long taggedMessageLength;

    /**
     * @param registry         STag lookup for tagged placement
     * @param protectionDomain the protection domain of this stream (RFC 5041 §8.2)
     * @param stream           the identity of this stream, compared with {@link TaggedBuffer#associatedStream()}
     * @param queueCount       number of valid untagged queues: {@link #QUEUES_RFC5040} or {@link #QUEUES_RFC7306}
     * @param listener         the ULP
     */
    public DdpReceiver(TaggedBufferRegistry registry, long protectionDomain, Object stream, int queueCount,
                       DdpReceiveListener listener) {
        if (queueCount < 1) {
            throw new IllegalArgumentException("queueCount must be at least 1: " + queueCount);
        }
        this.registry = Objects.requireNonNull(registry, "registry");
        this.protectionDomain = protectionDomain;
        this.stream = stream;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.queues = new UntaggedQueue[queueCount];
        for (int qn = 0; qn < queueCount; qn++) {
            queues[qn] = new UntaggedQueue();
        }
    }

    // ------------------------------------------------------------------ untagged buffers

    /**
     * Posts a buffer on untagged queue {@code qn}; it will receive the message with the returned MSN
     * (the n-th buffer posted on a queue receives MSN n, RFC 5041 §4.3). The verbs layer posts receive
     * work requests on QN 0; RDMAP provisions QN 1 (one slot per inbound Read / Atomic Request it accepts,
     * i.e. IRD), QN 2 (one slot for the peer's Terminate) and QN 3 (one slot per outstanding Atomic Request).
     */
    public int post(int qn, UntaggedBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        return queue(qn).post(buffer);
    }

    /** Buffers posted on {@code qn} and not yet delivered. */
    public int postedCount(int qn) {
        return queue(qn).count();
    }

    /** The MSN of the next message {@code qn} will deliver (1 before the first one). */
    public int expectedMsn(int qn) {
        return queue(qn).headMsn();
    }

    /**
     * Removes every buffer posted on {@code qn} and not delivered, oldest first, so the layer above can
     * complete them in error (RFC 5041 §6.2.2).
     */
    public List<UntaggedBuffer> removePosted(int qn) {
        return queue(qn).removeAll();
    }

    public int queueCount() {
        return queues.length;
    }

    /** Restarts queue {@code qn} (nothing posted) at MSN {@code firstMsn}; for tests of the 2^32 wrap. */
    void restartQueueAt(int qn, int firstMsn) {
        if (queue(qn).count() != 0) {
            throw new IllegalStateException("queue " + qn + " has posted buffers");
        }
        queues[qn] = new UntaggedQueue(firstMsn);
    }

    private UntaggedQueue queue(int qn) {
        if (qn < 0 || qn >= queues.length) {
            throw new IllegalArgumentException("no untagged queue " + Integer.toUnsignedString(qn)
                    + " (queues 0.." + (queues.length - 1) + ")");
        }
        return queues[qn];
    }

    // ------------------------------------------------------------------ stream state

    /**
     * Stops placement: every later segment is dropped silently (RFC 5041 §7.1). For errors the ULP finds
     * after delivery (e.g. RDMAP: an invalid Read Request source STag) and for teardown.
     */
    public void stopPlacement() {
        stopped = true;
    }

    /** True after an error or {@link #stopPlacement()}: segments are dropped. */
    public boolean isStopped() {
        return stopped;
    }

    /** The lower layer failed: stop placement and pass the error up (RFC 5041 §7). */
    public void lowerLayerFailed(Throwable cause) {
        boolean wasStopped = stopped;
        stopped = true;
        if (!wasStopped) {
            listener.onLowerLayerFailure(cause);
        }
    }

    // ------------------------------------------------------------------ receive path

    /**
     * Processes one DDP segment: the whole ULPDU from its reader index to its writer index. Takes
     * ownership and releases it on every path. Protocol errors go to
     * {@link DdpReceiveListener#onSegmentRejected}; nothing is thrown for them.
     */
    public void receive(ByteBuf segment) {
        try {
            if (stopped) {
                return; // RFC 5041 §7.1: silently drop all later segments of the stream.
            }
            int length = segment.readableBytes();
            if (length == 0) {
                reject(DdpError.LOCAL_CATASTROPHIC, segment, "empty segment: no DDP header");
                return;
            }
            int base = segment.readerIndex();
            int control = segment.getUnsignedByte(base + TaggedHeaderFlyweight.CONTROL_OFFSET);
            if (DdpControl.isTagged(control)) { // RFC 5041 §4.1: T selects the buffer model
                receiveTagged(segment, base, length, control);
            } else {
                receiveUntagged(segment, base, length, control);
            }
        } finally {
            segment.release();
        }
    }

    private void receiveTagged(ByteBuf segment, int base, int length, int control) {
        if (!headerUsable(segment, length, control, TaggedHeaderFlyweight.HEADER_LENGTH,
                DdpError.TAGGED_INVALID_DDP_VERSION)) {
            return;
        }
        boolean last = DdpControl.isLast(control);
        int rsvdUlp = segment.getUnsignedByte(base + TaggedHeaderFlyweight.RSVD_ULP_OFFSET);
        int stag = segment.getInt(base + TaggedHeaderFlyweight.STAG_OFFSET);
        long to = segment.getLong(base + TaggedHeaderFlyweight.TO_OFFSET);
        int payloadLength = length - TaggedHeaderFlyweight.HEADER_LENGTH;
        if (TaggedAccessCheck.wraps(to, payloadLength)) {
            // RFC 5041 §7.1 check 5, before the ULP and the STag: the octets alone decide it.
            reject(DdpError.TO_WRAP, segment, String.format("STag 0x%08x TO 0x%016x + %d octets reaches 2^64", stag, to,
                    payloadLength));
            return;
        }

        TaggedAdmission admission = listener.admitTaggedSegment(rsvdUlp, stag, to, payloadLength, last, segment);
        if (admission == TaggedAdmission.REJECT) {
            stopped = true;
            return;
        }
        // RFC 5041 §5.2: for a zero-length tagged segment STag and TO MUST NOT be checked.
        if (payloadLength > 0) {
            TaggedBuffer target = registry.lookup(stag);
            TaggedAccessCheck.Outcome outcome = TaggedAccessCheck.check(target, to, payloadLength,
                    admission.requiredAccess(), protectionDomain, stream);
            if (outcome != TaggedAccessCheck.Outcome.OK) {
                reject(taggedError(outcome), segment, taggedDetail(outcome, stag, to, payloadLength, admission));
                return;
            }
            // RFC 5041 §5.2: place the payload of every valid segment — one copy, straight into the region.
            target.memory().setBytes((int) (to - target.baseTaggedOffset()), segment,
                    base + TaggedHeaderFlyweight.HEADER_LENGTH, payloadLength);
        }
        if (!taggedMessageOpen) {
            taggedMessageOpen = true;
            taggedMessageFirstTo = to;
            taggedMessageLength = 0;
        }
        taggedMessageLength += payloadLength;
        listener.onTaggedSegmentPlaced(rsvdUlp, stag, to, payloadLength, last);
        if (last) {
            // RFC 5041 §5.4: a tagged message is delivered once its last segment is placed.
            taggedMessageOpen = false;
            listener.onTaggedMessageDelivered(rsvdUlp, stag, taggedMessageFirstTo, taggedMessageLength);
        }
    }

    private void receiveUntagged(ByteBuf segment, int base, int length, int control) {
        if (!headerUsable(segment, length, control, UntaggedHeaderFlyweight.HEADER_LENGTH,
                DdpError.UNTAGGED_INVALID_DDP_VERSION)) {
            return;
        }
        boolean last = DdpControl.isLast(control);
        int rsvdUlp = segment.getUnsignedByte(base + UntaggedHeaderFlyweight.RSVD_ULP_OFFSET);
        int rsvdUlpWord = segment.getInt(base + UntaggedHeaderFlyweight.RSVD_ULP_WORD_OFFSET);
        int qn = segment.getInt(base + UntaggedHeaderFlyweight.QN_OFFSET);
        int msn = segment.getInt(base + UntaggedHeaderFlyweight.MSN_OFFSET);
        int mo = segment.getInt(base + UntaggedHeaderFlyweight.MO_OFFSET);
        int payloadLength = length - UntaggedHeaderFlyweight.HEADER_LENGTH;

        // RFC 5041 §7.1 check 1: "The QN in the DDP Header is valid for this stream".
        if (Integer.compareUnsigned(qn, queues.length) >= 0) {
            reject(DdpError.INVALID_QN, segment, "QN " + Integer.toUnsignedString(qn) + " (valid: 0.."
                    + (queues.length - 1) + ")");
            return;
        }
        if (exceedsMessageLimit(mo, payloadLength)) {
            // RFC 5041 §5.2: a message is shorter than 2^32 octets, so §7.1 check 4 (MO + payload inside the
            // buffer) fails for every buffer; decided here, before the ULP and the MSN, from the octets alone.
            reject(DdpError.MESSAGE_TOO_LONG, segment, "MO " + Integer.toUnsignedString(mo) + " + " + payloadLength
                    + " payload octets reaches 2^32: no DDP message is that long");
            return;
        }
        UntaggedAdmission admission = listener.admitUntaggedSegment(rsvdUlp, rsvdUlpWord, qn, msn, mo,
                payloadLength, last, segment);
        if (admission == UntaggedAdmission.REJECT) {
            stopped = true;
            return;
        }
        UntaggedQueue queue = queues[qn];
        // RFC 5041 §7.1 checks 2 and 5: a buffer is posted for (QN, MSN), the MSN is in the legal range.
        int slot = queue.locate(msn);
        if (slot < 0) {
            reject(UntaggedQueue.decode(slot), segment, "QN " + qn + " MSN " + Integer.toUnsignedString(msn)
                    + ", posted MSNs " + window(queue));
            return;
        }
        UntaggedBuffer buffer = queue.buffer(slot);
        long capacity = buffer.capacity();
        long offset = Integer.toUnsignedLong(mo);
        // RFC 5041 §7.1 check 3: "The MO falls in the range of legal offsets associated with the Untagged Buffer".
        if (offset > capacity) {
            reject(DdpError.INVALID_MO, segment, "MO " + offset + " beyond the " + capacity + "-octet buffer");
            return;
        }
        // RFC 5041 §7.1 check 4: "The sum of the DDP Segment payload length and the MO falls in the range".
        if (offset + payloadLength > capacity) {
            reject(DdpError.MESSAGE_TOO_LONG, segment, "MO " + offset + " + " + payloadLength
                    + " payload octets > " + capacity + "-octet buffer");
            return;
        }
        if (payloadLength > 0) {
            buffer.place(mo, segment, base + UntaggedHeaderFlyweight.HEADER_LENGTH, payloadLength);
        }
        listener.onUntaggedSegmentPlaced(qn, msn, mo, payloadLength, last);
        if (last) {
            // RFC 5041 §5.4: the message length is MO + payload length of the L = 1 segment.
            queue.complete(slot, mo + payloadLength, rsvdUlp, rsvdUlpWord);
            // RFC 5041 §5.3: deliver at most once and in order: only once all earlier messages are delivered.
            while (!stopped && queue.headComplete()) {
                queue.deliverHead(qn, listener);
            }
        }
    }

    /**
     * Whether an untagged segment's payload of {@code payloadLength} octets at Message Offset {@code mo}
     * (unsigned) ends at or beyond 2^32, i.e. belongs to a message longer than any DDP carries
     * ({@link #MAX_MESSAGE_LENGTH}, RFC 5041 §5.2). Decided by the octets alone.
     */
    public static boolean exceedsMessageLimit(int mo, int payloadLength) {
        return Integer.toUnsignedLong(mo) + Integer.toUnsignedLong(payloadLength) > MAX_MESSAGE_LENGTH;
    }

    /** The segment holds its whole header and speaks DDP version 1; otherwise rejects it. */
    private boolean headerUsable(ByteBuf segment, int length, int control, int headerLength, DdpError versionError) {
        if (length < headerLength) {
            // RFC 5041 §4: every segment carries a complete header; no RFC code exists for a truncated one.
            reject(DdpError.LOCAL_CATASTROPHIC, segment, "segment of " + length + " octets is shorter than its "
                    + headerLength + "-octet DDP header");
            return false;
        }
        // RFC 5041 §4.1: DV MUST be 1 (RFC 5041 §7.2: "Invalid DDP version", tagged 0x04 / untagged 0x06).
        if (DdpControl.version(control) != DdpControl.DDP_VERSION) {
            reject(versionError, segment, "DV=" + DdpControl.version(control));
            return false;
        }
        return true;
    }

    private static String window(UntaggedQueue queue) {
        if (queue.count() == 0) {
            return "none";
        }
        return Integer.toUnsignedString(queue.headMsn()) + ".."
                + Integer.toUnsignedString(queue.headMsn() + queue.count() - 1);
    }

    private void reject(DdpError error, ByteBuf segment, String detail) {
        stopped = true;
        DdpException exception = DdpException.of(error, segment, detail);
        if (LOG.isDebugEnabled()) { // getMessage() formats: not for a disabled log
            LOG.debug("DDP segment rejected, stream stops placing: {}", exception.getMessage());
        }
        listener.onSegmentRejected(exception);
    }

    private static DdpError taggedError(TaggedAccessCheck.Outcome outcome) {
        return switch (outcome) {
            // RFC 5041 §7.2 has no access-right code: a region without the write right is an Invalid STag
            // (as Linux siw reports it).
            case INVALID_STAG, ACCESS_DENIED -> DdpError.INVALID_STAG;
            case NOT_ASSOCIATED -> DdpError.STAG_NOT_ASSOCIATED;
            case BASE_OR_BOUNDS -> DdpError.BASE_OR_BOUNDS_VIOLATION;
            case TO_WRAP -> DdpError.TO_WRAP;
            case OK -> throw new IllegalArgumentException("not an error");
        };
    }

    private static String taggedDetail(TaggedAccessCheck.Outcome outcome, int stag, long to, int length,
                                       TaggedAdmission admission) {
        String access = outcome == TaggedAccessCheck.Outcome.ACCESS_DENIED
                ? " (region lacks " + admission.requiredAccess() + ")" : "";
        return String.format("STag 0x%08x TO 0x%016x length %d%s", stag, to, length, access);
    }
}
