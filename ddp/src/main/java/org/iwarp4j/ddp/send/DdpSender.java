package org.iwarp4j.ddp.send;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.ddp.header.TaggedHeaderFlyweight;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;

import java.util.Arrays;
import java.util.Objects;

/**
 * The send half of one DDP stream (RFC 5041 §5): creates {@link OutboundMessage}s that cut a ULP message
 * into segments no larger than the lower layer's MULPDU and hand them to the {@link LlpSegmentWriter}.
 *
 * <p>It owns the send-side MSN counters: for each untagged queue the first message gets MSN 1 and each
 * further message +1 modulo 2^32 (RFC 5041 §4.3). The MSN is taken when the message's first segment is
 * written, so MSNs follow transmission order whatever order messages were created in.
 *
 * <p>Interleaving (Linux siw drops the connection otherwise): at most one tagged and one
 * untagged message may be partly written at a time; starting a second one of the same model throws
 * {@link IllegalStateException}. {@link OutboundMessage#abandon()} ends a message early (e.g. before a
 * Terminate).
 *
 * <p>{@link #shutdown()} (RFC 5041 §6.2.1: after the ULP's close, further ULP requests MUST fail): no new
 * message can be created and no further segment written. RDMAP calls it right after writing its Terminate.
 *
 * <p>Not thread-safe: used from the stream's event loop.
 */
public final class DdpSender {

    private final LlpSegmentWriter llp;
    private final ByteBufAllocator allocator;
    private final int[] nextMsn;

    private final TaggedHeaderFlyweight taggedHeader = new TaggedHeaderFlyweight();
    private final UntaggedHeaderFlyweight untaggedHeader = new UntaggedHeaderFlyweight();

    private OutboundMessage taggedInProgress;
    private OutboundMessage untaggedInProgress;
    private boolean shutdown;

    /**
     * @param llp        the lower layer
     * @param allocator  where segment headers come from (a pooled allocator)
     * @param queueCount untagged queues (3 for RFC 5040, 4 with RFC 7306)
     */
    public DdpSender(LlpSegmentWriter llp, ByteBufAllocator allocator, int queueCount) {
        if (queueCount < 1) {
            throw new IllegalArgumentException("queueCount must be at least 1: " + queueCount);
        }
        this.llp = Objects.requireNonNull(llp, "llp");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.nextMsn = new int[queueCount];
        Arrays.fill(nextMsn, 1); // RFC 5041 §4.3: the first message on each queue has MSN 1
    }

    /**
     * A tagged message (RFC 5041 §4.2, §5.2): {@code message}'s readable octets go to the Data Sink's
     * buffer {@code stag} starting at Tagged Offset {@code startTo}. Takes ownership of {@code message}
     * (released once its last segment is written or the message is abandoned — also if this method throws).
     *
     * @param rsvdUlp the ULP's octet 1 (RDMAP control field), the same on every segment (RFC 5041 §4.2)
     * @throws IllegalArgumentException if {@code startTo} + length wraps 2^64 (the sink would reject it,
     *                                  RFC 5041 §7.1)
     */
    public OutboundMessage tagged(int rsvdUlp, int stag, long startTo, ByteBuf message) {
        return tagged(rsvdUlp, stag, startTo, message, null);
    }

    /**
     * {@link #tagged(int, int, long, ByteBuf)} that may return {@code recycle} re-initialised instead of a new
     * object: a message of this sender that is done and that the caller holds no more (a send queue keeps
     * one per entry, so messages cost no allocation). A {@code recycle} that is null, another sender's or
     * not done is left alone.
     */
    public OutboundMessage tagged(int rsvdUlp, int stag, long startTo, ByteBuf message, OutboundMessage recycle) {
        return tagged(rsvdUlp, stag, startTo, message, message.readerIndex(), message.readableBytes(), recycle);
    }

    /**
     * {@link #tagged(int, int, long, ByteBuf, OutboundMessage)} for {@code length} octets of {@code memory} from
     * absolute {@code index}, without a slice of them (an object per message): the message takes one reference of
     * {@code memory}, which the caller retains for it, and never moves its indexes. For a Read Response from
     * registered memory.
     */
    public OutboundMessage tagged(int rsvdUlp, int stag, long startTo, ByteBuf memory, int index, int length,
                                  OutboundMessage recycle) {
        ByteBuf message = memory;
        if (shutdown) {
            message.release();
            throw new IllegalStateException("DDP stream is shut down: no further messages (RFC 5041 §6.2.1)");
        }
        if (length > 0 && Long.compareUnsigned(startTo + length, startTo) < 0) {
            message.release();
            throw new IllegalArgumentException(String.format(
                    "TO 0x%016x + %d octets wraps 2^64 (RFC 5041 §7.1 check 5)", startTo, length));
        }
        if (index < 0 || length < 0 || index > message.capacity() - length) {
            message.release();
            throw new IndexOutOfBoundsException("octets " + index + " + " + length + " of a buffer of "
                    + message.capacity());
        }
        return make(recycle, true, rsvdUlp, stag, startTo, 0, 0, message, index, length);
    }

    /**
     * An untagged message (RFC 5041 §4.3, §5.2) for queue {@code qn}. {@code message} is the whole DDP
     * payload — for RDMAP control messages its own header (Read Request 28 octets, Terminate, Atomic
     * Request 52, Atomic Response 12, Immediate Data 8), for Sends the user data. Takes ownership of
     * {@code message} as {@link #tagged} does.
     *
     * @param rsvdUlp     octet 1 (RDMAP control field)
     * @param rsvdUlpWord octets 2–5 (RDMAP Invalidate STag, else 0)
     */
    public OutboundMessage untagged(int qn, int rsvdUlp, int rsvdUlpWord, ByteBuf message) {
        return untagged(qn, rsvdUlp, rsvdUlpWord, message, null);
    }

    /**
     * {@link #untagged(int, int, int, ByteBuf)} that may return {@code recycle}, as
     * {@link #tagged(int, int, long, ByteBuf, OutboundMessage)}.
     */
    public OutboundMessage untagged(int qn, int rsvdUlp, int rsvdUlpWord, ByteBuf message, OutboundMessage recycle) {
        if (shutdown) {
            message.release();
            throw new IllegalStateException("DDP stream is shut down: no further messages (RFC 5041 §6.2.1)");
        }
        if (qn < 0 || qn >= nextMsn.length) {
            message.release();
            throw new IllegalArgumentException("no untagged queue " + Integer.toUnsignedString(qn));
        }
        return make(recycle, false, rsvdUlp, 0, 0, qn, rsvdUlpWord, message, message.readerIndex(),
                message.readableBytes());
    }

    private OutboundMessage make(OutboundMessage recycle, boolean tagged, int rsvdUlp, int stag, long startTo, int qn,
                                 int rsvdUlpWord, ByteBuf message, int start, int length) {
        if (recycle != null && recycle.reusableBy(this)) {
            recycle.init(tagged, rsvdUlp, stag, startTo, qn, rsvdUlpWord, message, start, length);
            return recycle;
        }
        return new OutboundMessage(this, tagged, rsvdUlp, stag, startTo, qn, rsvdUlpWord, message, start, length);
    }

    /** The MSN the next message written on {@code qn} will carry. */
    public int nextMsn(int qn) {
        return nextMsn[qn];
    }

    /** Sets the MSN of the next message written on {@code qn}; for tests of the 2^32 wrap. */
    void restartQueueAt(int qn, int msn) {
        nextMsn[qn] = msn;
    }

    /** No further message may be created or written (RFC 5041 §6.2.1; RDMAP: after the Terminate). */
    public void shutdown() {
        shutdown = true;
    }

    public boolean isShutdown() {
        return shutdown;
    }

    public int queueCount() {
        return nextMsn.length;
    }

    // ------------------------------------------------------------------ used by OutboundMessage

    LlpSegmentWriter llp() {
        return llp;
    }

    ByteBufAllocator allocator() {
        return allocator;
    }

    TaggedHeaderFlyweight taggedHeader() {
        return taggedHeader;
    }

    UntaggedHeaderFlyweight untaggedHeader() {
        return untaggedHeader;
    }

    /** Called before a message writes its first segment: checks interleaving and assigns the MSN. */
    int begin(OutboundMessage message) {
        if (shutdown) {
            throw new IllegalStateException("DDP stream is shut down: no further segments (RFC 5041 §6.2.1)");
        }
        if (message.isTagged()) {
            if (taggedInProgress != null) {
                throw new IllegalStateException("another tagged message is partly written: " + taggedInProgress);
            }
            taggedInProgress = message;
            return 0;
        }
        if (untaggedInProgress != null) {
            throw new IllegalStateException("another untagged message is partly written: " + untaggedInProgress);
        }
        untaggedInProgress = message;
        int qn = message.queueNumber();
        int msn = nextMsn[qn];
        nextMsn[qn] = msn + 1; // RFC 5041 §4.3: +1 per message, modulo 2^32
        return msn;
    }

    void checkOpen() {
        if (shutdown) {
            throw new IllegalStateException("DDP stream is shut down: no further segments (RFC 5041 §6.2.1)");
        }
    }

    /** Called when a started message wrote its last segment or was abandoned. */
    void end(OutboundMessage message) {
        if (taggedInProgress == message) {
            taggedInProgress = null;
        } else if (untaggedInProgress == message) {
            untaggedInProgress = null;
        }
    }

    static int headerLength(boolean tagged) {
        return tagged ? TaggedHeaderFlyweight.HEADER_LENGTH : UntaggedHeaderFlyweight.HEADER_LENGTH;
    }
}
