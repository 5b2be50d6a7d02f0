package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

/**
 * Sits between the pcap capture ({@code PcapWriteHandler}, which records every outbound {@link ByteBuf}
 * as one TCP packet) and MPA, only when a capture is taken: it joins the parts of one gathered write
 * into one buffer, so the capture shows each FPDU as one TCP segment — as it leaves the socket (one
 * {@code writev}) and as Wireshark's MPA dissector needs it (it does not reassemble an FPDU split over
 * several segments).
 *
 * <p>The FPDU encoder writes the parts of an FPDU but the last with a void promise of its own, and the last
 * part with the promise the FPDU was sent with (one gathered write, RFC 5044 §5.1): a real promise, or the
 * channel's own void promise, which {@code TransmitPump} uses. So a write with a real promise or with
 * the channel's void promise ends a packet; so do a flush and reaching {@link #MAX_PACKET} octets (the
 * most an IPv4 packet of the capture can carry). Costs one {@link CompositeByteBuf} per FPDU: a debugging
 * aid, never on the uncaptured path.
 *
 * <p>A buffer is handed to the capture with its reader index at 0: Netty 4.2.18's {@code PcapWriteHandler}
 * records {@code buf.slice(0, readableBytes)}, absolute indexes, so a buffer framed in place (its first
 * readable octet behind headroom, {@code FpduWriter}) was recorded shifted by its reader index while the
 * socket sent the right octets. A buffer that does not start at 0 goes on as its {@link ByteBuf#slice()}
 * (same memory and reference count, reader index 0).
 */
final class PcapPacketCoalescer extends ChannelOutboundHandlerAdapter {

    /** 65535 − 20 (IPv4 header) − 20 (TCP header). */
    static final int MAX_PACKET = 65_495;

    private CompositeByteBuf pending;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf buf)) {
            emit(ctx);
            ctx.write(msg, promise);
            return;
        }
        if (pending != null && pending.readableBytes() + buf.readableBytes() > MAX_PACKET) {
            emit(ctx);
        }
        boolean endsWrite = !promise.isVoid() || promise == ctx.channel().voidPromise();
        if (!endsWrite) {
            if (pending == null) {
                pending = ctx.alloc().compositeDirectBuffer(Integer.MAX_VALUE);
            }
            pending.addComponent(true, buf);
            return;
        }
        if (pending == null) {
            ctx.write(buf.readerIndex() == 0 ? buf : buf.slice(), promise);
            return;
        }
        pending.addComponent(true, buf);
        CompositeByteBuf packet = pending;
        pending = null;
        ctx.write(packet, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        emit(ctx);
        ctx.flush();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (pending != null) {
            ReferenceCountUtil.safeRelease(pending);
            pending = null;
        }
    }

    private void emit(ChannelHandlerContext ctx) {
        if (pending != null) {
            CompositeByteBuf packet = pending;
            pending = null;
            ctx.write(packet, ctx.voidPromise());
        }
    }
}
