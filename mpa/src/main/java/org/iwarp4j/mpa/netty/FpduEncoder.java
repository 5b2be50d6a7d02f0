package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.iwarp4j.mpa.fpdu.FpduWriter;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * Netty adapter of {@link FpduWriter}: frames every outbound {@link ByteBuf} (one ULPDU each) into an
 * FPDU, written as a gathered write of retained slices (the ULPDU is never copied). The
 * allocation-free two-part path is {@link FpduSender#send}.
 *
 * <p><b>Responder hold (RFC 5044 §7.1.2 rule 4, MPA-38).</b> A Responder MUST NOT send any FPDU or
 * marker before it has received and validated one FPDU. When created with {@code hold = true} the
 * encoder queues outbound ULPDUs (with their promises, and remembers flushes) until
 * {@link FpduDecoder} reports the first valid inbound FPDU, then frames and flushes them in order —
 * transparent to the layer above. Queued ULPDUs are released and their promises failed if the
 * handler is removed (e.g. the channel closes) first.
 *
 * <p><b>Gathering small FPDUs.</b> An FPDU of at most {@link #GATHER_LIMIT} octets sent with a void promise is
 * copied into one pooled buffer shared with the FPDUs around it, written at the next flush, at the next FPDU
 * that cannot be gathered, or when it is full: a burst of small messages costs the channel one buffer, one
 * outbound entry and one iovec instead of one per FPDU, and the octets on the wire are the same. Of a longer FPDU
 * only the parts longer than {@link #PART_GATHER_LIMIT} (its payload) are written on their own; its framing (length
 * field, header, PAD, CRC, markers) is gathered with what comes before and after it, so a stream of 8 KiB FPDUs
 * costs two outbound entries per FPDU instead of three. Writes below this handler must go through
 * {@link #writeMarker} so that they stay behind the gathered octets.
 */
public final class FpduEncoder extends ChannelOutboundHandlerAdapter implements FpduSender, FpduWriter.PartSink {

    private record Held(ByteBuf header, ByteBuf payload, ChannelPromise promise, boolean headerRoom) {}

    /**
     * FPDUs up to this many octets on the wire, sent with a void promise, are gathered: one that carries 4 KiB of
     * payload under a tagged or an untagged DDP header (14 or 18 octets), markers included. Copying up to 4 KiB costs
     * less than the slice and outbound entry of a payload written on its own (2 KiB Writes 1.40 → 1.54 Mpps, 3 KiB
     * 1.19 → 1.32, 4 KiB unchanged; see docs/performance.md).
     */
    public static final int GATHER_LIMIT = 4096 + 128;
    /** Parts of an FPDU that is not gathered up to this many octets (its framing and headers) are gathered. */
    static final int PART_GATHER_LIMIT = 128;
    /** The capacity of one gathering buffer. */
    static final int GATHER_CAPACITY = 16 * 1024;
    /** A gathering buffer with at least this much room left stays for the parts that follow what it wrote. */
    static final int REUSE_ROOM = 512;

    private final FpduWriter writer;
    private boolean gather = true;
    private boolean gathering;
    private ByteBuf gathered;
    private ChannelHandlerContext ctx;
    private VoidChannelPromise silentVoid;
    private ChannelPromise currentPromise;
    private boolean holding;
    private boolean flushRequested;
    private ArrayDeque<Held> held;
    private String channelName = "";

    /**
     * @param writer the FPDU writer of this half connection
     * @param hold   hold outbound FPDUs until {@link #releaseHold()} (Responder, RFC 5044 §7.1.2 rule 4)
     */
    public FpduEncoder(FpduWriter writer, boolean hold) {
        this.writer = writer;
        this.holding = hold;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.silentVoid = new VoidChannelPromise(ctx.channel(), false);
        this.channelName = ctx.channel().toString();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        failHeld();
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    /**
     * Whether small FPDUs are gathered (the default); off, each FPDU is its own write, as a capture that makes
     * one packet per FPDU needs. On the event loop.
     */
    public void gatherSmallFpdus(boolean on) {
        if (!on) {
            endGathering();
        }
        gather = on;
    }

    /**
     * Writes {@code promise} below this handler behind every FPDU sent so far (with the gathered FPDUs, or on an
     * empty buffer when none are gathered): it completes once they are written. On the event loop. A marker ends a
     * batch that is flushed next, so the gathering buffer goes whole with it, not as a slice (an object for nothing:
     * the flush would let the buffer go anyway); FPDUs sent before that flush start a new one.
     */
    public void writeMarker(ChannelPromise promise) {
        ByteBuf g = gathered;
        if (g != null && g.isReadable()) {
            gathered = null;
            ctx.write(g, promise);
        } else {
            writeGathered(promise);
        }
    }

    /**
     * Writes the gathered FPDUs, if any, with {@code promise} (null: a void one); else the promise alone. While the
     * gathering buffer has room for more, what it holds goes as a slice and the buffer stays for what follows (a
     * stream of large FPDUs writes the framing between payloads this way, one slice each, from one buffer); it is
     * let go at the flush, so that an idle connection holds none.
     */
    private void writeGathered(ChannelPromise promise) {
        ByteBuf g = gathered;
        if (g != null && g.isReadable()) {
            ByteBuf out;
            if (g.writableBytes() >= REUSE_ROOM) {
                out = g.retainedSlice();
                g.readerIndex(g.writerIndex());
            } else {
                gathered = null;
                out = g;
            }
            ctx.write(out, promise == null ? ctx.voidPromise() : promise);
        } else if (promise != null) {
            ctx.write(Unpooled.EMPTY_BUFFER, promise);
        }
    }

    /** At the flush, or when the buffer is full: writes what is gathered and lets the gathering buffer go. */
    private void endGathering() {
        ByteBuf g = gathered;
        if (g != null) {
            gathered = null;
            if (g.isReadable()) {
                ctx.write(g, ctx.voidPromise()); // the buffer itself: no slice of it
            } else {
                g.release();
            }
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            send(buf, null, promise, false); // a ULPDU from the pipeline: its buffer is not ours to frame in
        } else {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalArgumentException("the FPDU encoder takes ByteBuf ULPDUs, not "
                    + (msg == null ? "null" : msg.getClass().getName())));
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (holding) {
            flushRequested = true;
        } else {
            endGathering();
            ctx.flush();
        }
    }

    @Override
    public void send(ByteBuf header, ByteBuf payload, ChannelPromise promise) {
        send(header, payload, promise, true);
    }

    private void send(ByteBuf header, ByteBuf payload, ChannelPromise promise, boolean headerRoom) {
        ChannelHandlerContext c = ctx;
        if (c == null) {
            release(header, payload);
            promise.tryFailure(new IllegalStateException("FPDU encoder is not in a pipeline"));
            return;
        }
        if (!c.executor().inEventLoop()) {
            c.executor().execute(() -> send(header, payload, promise, headerRoom));
            return;
        }
        if (holding) {
            if (held == null) {
                held = new ArrayDeque<>();
            }
            held.add(new Held(header, payload, promise, headerRoom));
            return;
        }
        frame(header, payload, promise, headerRoom);
    }

    /**
     * A lent payload is copied straight from {@code source} when the FPDU is gathered ({@link #lentPart}); an FPDU
     * that is held, sent from another thread or not gathered gets a retained slice of it, as the default does.
     */
    @Override
    public void send(ByteBuf header, ByteBuf source, int index, int length, ChannelPromise promise) {
        ChannelHandlerContext c = ctx;
        if (c == null || holding || !c.executor().inEventLoop()) {
            FpduSender.super.send(header, source, index, length, promise); // queued or handed over: a retained slice
            return;
        }
        frame(header, null, source, index, length, promise, true);
    }

    /**
     * The ULPDU is written into the gathering buffer and framed around where it lies ({@link FpduWriter#frameInPlace}):
     * an FPDU that would be gathered costs no buffer of its own and is not copied again. Not while FPDUs are held or
     * the frame log is on (it reads what {@link #frame} records), nor with gathering off (a capture tells FPDUs apart
     * by their writes).
     */
    @Override
    public boolean sendInPlace(int length, UlpduContent content) {
        ChannelHandlerContext c = ctx;
        if (c == null || holding || !gather || MpaFrameLog.enabled() || !c.executor().inEventLoop()) {
            return false;
        }
        int wire = writer.inPlaceWireLength(length);
        if (wire < 0 || wire > GATHER_LIMIT) {
            return false;
        }
        ByteBuf g = gatheringBuffer(wire);
        int start = g.writerIndex();
        content.writeUlpdu(g, start + writer.inPlacePrefixLength()); // throws: the writer index did not move
        writer.frameInPlace(g, start, length);
        return true;
    }

    /** Payloads of FPDUs that may be gathered: copied anyway, so lending them saves their slice. */
    @Override
    public int lendLimit() {
        return gather ? GATHER_LIMIT : 0;
    }

    private void frame(ByteBuf header, ByteBuf payload, ChannelPromise promise, boolean headerRoom) {
        frame(header, payload, null, 0, 0, promise, headerRoom);
    }

    private void frame(ByteBuf header, ByteBuf payload, ByteBuf source, int index, int lent, ChannelPromise promise,
                       boolean headerRoom) {
        currentPromise = promise;
        int ulpdu = header.readableBytes() + (payload == null ? lent : payload.readableBytes());
        // the FPDU's octets on the wire at most: a marker before it and one per 508 octets inside, PAD, CRC
        gathering = gather && promise.isVoid() && ulpdu + 2 + 3 + 4 + 4 * (2 + ulpdu / 508) <= GATHER_LIMIT;
        try {
            if (source == null) {
                writer.write(header, payload, ctx.alloc(), this, headerRoom);
            } else {
                writer.writeLent(header, source, index, lent, ctx.alloc(), this);
            }
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            return;
        } finally {
            currentPromise = null;
            gathering = false;
        }
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.outbound(channelName, writer);
        }
    }

    /**
     * The parts before the last carry {@link #silentVoid}, never the channel's void promise: a capture in
     * the pipeline (verbs' pcap packet coalescer) tells the end of each FPDU by that.
     */
    @Override
    public void part(ByteBuf part, boolean last) {
        if (part == gathered) {
            // a trailer written straight into the gathering buffer (trailer): nothing to copy
            if (last && !currentPromise.isVoid()) {
                writeGathered(currentPromise);
            }
            return;
        }
        if (gathering) {
            gather(part);
            return;
        }
        if (gather && part.readableBytes() <= PART_GATHER_LIMIT) {
            // framing of an FPDU too long to gather (its length field and header, PAD and CRC, a marker): copied
            // beside the FPDUs around it, so that a large FPDU costs one outbound entry for its payload and one for
            // the framing between payloads
            gather(part);
            if (last && !currentPromise.isVoid()) {
                writeGathered(currentPromise);
            }
            return;
        }
        writeGathered(null); // what was gathered goes first
        ctx.write(part, last ? currentPromise : silentVoid);
    }

    private void gather(ByteBuf part) {
        try {
            copy(part, part.readerIndex(), part.readableBytes());
        } finally {
            part.release();
        }
    }

    /** Copies {@code length} octets of {@code source} from {@code index} into the gathering buffer. */
    private void copy(ByteBuf source, int index, int length) {
        ByteBuf g = gatheringBuffer(length);
        // The source copies itself into the buffer: a direct source (registered memory) copies by address, where the
        // buffer's writeBytes would ask it for a ByteBuffer view, a new object per FPDU.
        source.getBytes(index, g, g.writerIndex(), length);
        g.writerIndex(g.writerIndex() + length);
    }

    /** A lent payload of a gathered FPDU is copied from where it lies; else a retained slice of it is written. */
    @Override
    public void lentPart(ByteBuf source, int index, int length) {
        if (gathering) {
            copy(source, index, length);
        } else {
            FpduWriter.PartSink.super.lentPart(source, index, length);
        }
    }

    /** The gathering buffer with room for {@code n} more octets: a new one when the current one is full. */
    private ByteBuf gatheringBuffer(int n) {
        ByteBuf g = gathered;
        while (g != null && g.writableBytes() < n) {
            endGathering(); // too full for n: written whole, not as a slice, and let go
            g = gathered;   // null, unless a failed write's handling sent FPDUs meanwhile (they go first)
        }
        if (g == null) {
            g = ctx.alloc().directBuffer(GATHER_CAPACITY);
            gathered = g;
        }
        return g;
    }

    /**
     * The trailer of an FPDU too long to gather goes straight into the gathering buffer, where {@link #part} would
     * copy it: one buffer less per FPDU.
     */
    @Override
    public ByteBuf trailer(ByteBufAllocator alloc, int length) {
        if (!gather || length > PART_GATHER_LIMIT) {
            return alloc.ioBuffer(length);
        }
        return gatheringBuffer(length);
    }

    @Override
    public void flush() {
        ChannelHandlerContext c = ctx;
        if (c == null) {
            return;
        }
        if (!c.executor().inEventLoop()) {
            c.executor().execute(this::flush);
            return;
        }
        flush(c);
    }

    @Override
    public int mulpdu() {
        return writer.maxUlpduLength();
    }

    @Override
    public int headroom() {
        return writer.maxPrefixLength();
    }

    @Override
    public int tailroom() {
        return writer.maxTrailerLength();
    }

    /** Whether outbound FPDUs are still held (Responder before the first inbound FPDU). */
    public boolean holding() {
        return holding;
    }

    /**
     * Ends the Responder hold: frames every queued ULPDU in order and flushes if a flush was
     * requested meanwhile. Called by {@link FpduDecoder} after the first valid inbound FPDU. Must run
     * on the event loop.
     */
    public void releaseHold() {
        if (!holding) {
            return;
        }
        holding = false;
        if (held != null) {
            Held h;
            while ((h = held.poll()) != null) {
                frame(h.header(), h.payload(), h.promise(), h.headerRoom());
            }
            held = null;
        }
        if (flushRequested && ctx != null) {
            flushRequested = false;
            endGathering();
            ctx.flush();
        }
    }

    /** Fails the writes still held when the handler goes. */
    private void failHeld() {
        if (held == null) {
            return;
        }
        if (!held.isEmpty()) { // the exception (its stack trace) only when a write waits for it
            ClosedChannelException closed = new ClosedChannelException();
            Held h;
            while ((h = held.poll()) != null) {
                release(h.header(), h.payload());
                h.promise().tryFailure(closed);
            }
        }
        held = null;
    }

    private static void release(ByteBuf header, ByteBuf payload) {
        ReferenceCountUtil.safeRelease(header);
        if (payload != null) {
            ReferenceCountUtil.safeRelease(payload);
        }
    }

    /** The core writer (stream offset, counters). */
    public FpduWriter writer() {
        return writer;
    }
}
