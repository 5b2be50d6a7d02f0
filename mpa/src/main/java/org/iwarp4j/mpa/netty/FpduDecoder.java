package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduReader;

/**
 * Netty adapter of {@link FpduReader}: turns the inbound TCP byte stream into ULPDUs, each passed up
 * as a {@link ByteBuf} (a retained slice; a composite of slices when a marker fell inside the ULPDU).
 * The receiver owns and releases each ULPDU.
 *
 * <p><b>Errors.</b> A CRC error (0x02), a marker mismatch (0x03) or a ULPDU_Length above the receive
 * limit (reported as 0x02, see {@link FpduReader}) is fired upward as
 * {@code exceptionCaught(MpaException)}; the decoder then discards everything that follows on this
 * half connection and delivers nothing more (RFC 5044 §8, MPA-44). It does <em>not</em> close the
 * connection (§8, MPA-45): the layer above sends its Terminate (Layer 2 / EType 0 / the code) on the
 * still-working outbound half and closes. A connection that ends inside an FPDU is reported as
 * {@link MpaError#TCP_CONNECTION_LOST} (0x01: "closed, terminated or lost" while data was expected).
 *
 * <p><b>Copies.</b> FPDUs that lie whole inside one read are passed up straight from the read's buffer. Only
 * an FPDU that a read ends inside is copied: its start into a buffer of its own (the carry), then its rest from
 * the next read, so at most one FPDU ({@link FpduReader#maxFpduWireLength()} octets: the receive limit plus the
 * MPA overhead) per read is copied and held, however long the reads. (A cumulating decoder, Netty's
 * {@code ByteToMessageDecoder}, copied every read that followed a partial FPDU into its cumulation, and grew
 * it: on a stream of 4 KiB FPDUs a tenth of the process's CPU.) With {@link #lendUlpdus} a ULPDU is not even
 * sliced: the next handler borrows the read's buffer itself for the length of one call. The carry comes from the
 * allocator of the read's buffer ({@code in.alloc()}), not the channel's: a connection that reads into buffers that
 * keep their {@code ByteBuffer} view for the CRC (pooled ones) gets a carry that does too. On a channel whose reads
 * {@link FpduReadSizes} sizes, the decoder tells it where the next FPDUs end, so that long FPDUs are rarely carried.
 */
public final class FpduDecoder extends ChannelInboundHandlerAdapter {

    private final FpduReader reader;
    private Runnable firstFpduListener;
    private boolean failed;
    private boolean lend;
    private String channelName = "";
    /** The start of the FPDU the last read ended inside (never a whole FPDU), in a buffer of its own; or null. */
    private ByteBuf carry;
    private long carriedOctets;
    private FpduReadSizes readSizes;
    /** The last FPDUs' wire lengths, while {@link #readSizes} sizes the reads. */
    private FpduLengthHistory lengths;

    public FpduDecoder(FpduReader reader) {
        this.reader = reader;
    }

    /** Runs {@code listener} once, right after the first FPDU was validated (used for the Responder hold). */
    public FpduDecoder onFirstFpdu(Runnable listener) {
        this.firstFpduListener = listener;
        return this;
    }

    /**
     * Lends each ULPDU to the next handler instead of handing it over (off by default): the ULPDU is then the
     * buffer the FPDU was read into, retained once, its indexes around the ULPDU, and the next handler must read
     * it before its {@code channelRead} returns, release it, and never keep it, its indexes or a derived buffer of
     * it (a retained copy is fine), since the decoder moves that buffer on to the next FPDU afterwards. No object
     * and no copy per FPDU ({@link FpduReader#lend}). For a handler that consumes each segment at once, as a DDP
     * receiver does; one that queues ULPDUs must not ask for this. On the event loop, before the first FPDU.
     */
    public FpduDecoder lendUlpdus(boolean on) {
        this.lend = on;
        return this;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channelName = ctx.channel().toString();
        if (ctx.channel().config().getRecvByteBufAllocator() instanceof FpduReadSizes sizes) {
            readSizes = sizes;
            lengths = new FpduLengthHistory();
            sizes.follow(this);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (readSizes != null) {
            readSizes.follow(null);
            readSizes = null;
            lengths = null;
        }
        releaseCarry();
    }

    /**
     * The size of the next read that ends where an FPDU ends ({@link FpduReadSizes#readSize}): the rest of the
     * carried FPDU, then the FPDUs the last ones' lengths predict; 0 for no preference.
     */
    int nextReadSize() {
        if (failed || lengths == null) {
            return 0;
        }
        if (carry == null) {
            return FpduReadSizes.readSize(0, 0, reader.markersEnabled(), lengths);
        }
        int need = reader.nextFrameLength(carry);
        int missing = need - carry.readableBytes();
        return need > 0 && missing > 0 ? FpduReadSizes.readSize(missing, need, reader.markersEnabled(), lengths) : 0;
    }

    /** Octets copied into carries so far: those of every FPDU a read ended inside. */
    public long carriedOctets() {
        return carriedOctets;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        try {
            if (failed || (carry != null && !completeCarry(ctx, in))) {
                return;
            }
            while (!failed && in.isReadable() && !ctx.isRemoved() && decodeOne(ctx, in)) {
                // each whole FPDU of this read goes up from the read's own buffer
            }
            if (!failed && in.isReadable() && !ctx.isRemoved()) {
                int rest = in.readableBytes();
                carry = in.alloc().buffer(Math.max(rest, reader.nextFrameLength(in)), reader.maxFpduWireLength());
                moveInto(carry, in, rest);
            }
        } finally {
            in.release();
        }
    }

    /**
     * Tops the carried FPDU start up from {@code in}, taking no more than that FPDU's octets, and passes it up once
     * whole. Returns false when {@code in} ran out first (the carry keeps what it has) or the FPDU failed.
     */
    private boolean completeCarry(ChannelHandlerContext ctx, ByteBuf in) {
        while (true) {
            int need = reader.nextFrameLength(carry);
            int missing = need - carry.readableBytes();
            if (need > 0 && missing > 0) {
                int take = Math.min(missing, in.readableBytes());
                moveInto(carry, in, take);
                if (take < missing) {
                    return false;
                }
                continue; // the length field may just have come in: ask again
            }
            // the whole FPDU (or a length field the reader refuses, which it reports now)
            boolean decoded = decodeOne(ctx, carry);
            releaseCarry();
            return decoded;
        }
    }

    /** Passes up the FPDU at {@code buf}'s reader index; false if it is not whole yet or failed. */
    private boolean decodeOne(ChannelHandlerContext ctx, ByteBuf buf) {
        ByteBuf ulpdu;
        int start = buf.readerIndex();
        int writer = buf.writerIndex();
        try {
            ulpdu = lend ? reader.lend(buf, ctx.alloc()) : reader.read(buf, ctx.alloc());
        } catch (MpaException e) {
            fail(ctx, e);
            return false;
        }
        if (ulpdu == null) {
            return false;
        }
        if (lengths != null) {
            lengths.add(reader.lastWireLength());
        }
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.inbound(channelName, reader);
        }
        if (firstFpduListener != null) {
            Runnable l = firstFpduListener;
            firstFpduListener = null;
            l.run();
        }
        if (ulpdu != buf) {
            ctx.fireChannelRead(ulpdu);
            return true;
        }
        try {
            ctx.fireChannelRead(ulpdu); // lent: read during this call
        } finally {
            buf.setIndex(start + reader.lastWireLength(), writer);
        }
        return true;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputEnded(ctx);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inputEnded(ctx);
        ctx.fireChannelInactive();
    }

    /** No more octets will come: a carried FPDU start can never be completed. */
    private void inputEnded(ChannelHandlerContext ctx) {
        if (!failed && carry != null) {
            fail(ctx, new MpaException(MpaError.TCP_CONNECTION_LOST, "the connection ended inside an FPDU ("
                    + carry.readableBytes() + " octets of it received)",
                    Integer.toUnsignedLong(reader.streamOffset())));
        }
        releaseCarry();
    }

    private void releaseCarry() {
        if (carry != null) {
            carry.release();
            carry = null;
        }
    }

    private void fail(ChannelHandlerContext ctx, MpaException e) {
        failed = true;
        releaseCarry();
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.error(channelName, e);
        }
        ctx.fireExceptionCaught(e);
    }

    /** Whether an error was reported (the half connection delivers nothing more). */
    public boolean failed() {
        return failed;
    }

    /** The core reader (stream offset, counters). */
    public FpduReader reader() {
        return reader;
    }

    /**
     * Moves {@code length} octets from {@code in} to the end of {@code carry}, as {@code carry.writeBytes(in, length)}
     * would, but asks the source to copy ({@code getBytes}): between direct buffers that is a copy by address, where
     * Netty 4.2's adaptive buffer, asked to take octets from a buffer of another allocator, makes two
     * {@code ByteBuffer} views for each copy.
     */
    private void moveInto(ByteBuf carry, ByteBuf in, int length) {
        carriedOctets += length;
        carry.ensureWritable(length);
        in.getBytes(in.readerIndex(), carry, carry.writerIndex(), length);
        carry.writerIndex(carry.writerIndex() + length);
        in.skipBytes(length);
    }
}
