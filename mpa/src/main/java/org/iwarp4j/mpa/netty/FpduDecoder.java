package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.fpdu.FpduReader;

import java.util.List;

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
 * <p>The decoder never holds more than one incomplete FPDU ({@link FpduReader#maxFpduWireLength()}
 * octets: the receive limit plus the MPA overhead) once a read has been processed.
 */
public final class FpduDecoder extends ByteToMessageDecoder {

    private final FpduReader reader;
    private Runnable firstFpduListener;
    private boolean failed;
    private String channelName = "";

    public FpduDecoder(FpduReader reader) {
        this.reader = reader;
    }

    /** Runs {@code listener} once, right after the first FPDU was validated (used for the Responder hold). */
    public FpduDecoder onFirstFpdu(Runnable listener) {
        this.firstFpduListener = listener;
        return this;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        channelName = ctx.channel().toString();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        ByteBuf ulpdu;
        try {
            ulpdu = reader.read(in, ctx.alloc());
        } catch (MpaException e) {
            fail(ctx, in, e);
            return;
        }
        if (ulpdu == null) {
            return;
        }
        if (MpaFrameLog.enabled()) {
            MpaFrameLog.inbound(channelName, reader);
        }
        out.add(ulpdu);
        if (firstFpduListener != null) {
            Runnable l = firstFpduListener;
            firstFpduListener = null;
            l.run();
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!failed && in.isReadable()) {
            fail(ctx, in, new MpaException(MpaError.TCP_CONNECTION_LOST, "the connection ended inside an FPDU ("
                    + in.readableBytes() + " octets of it received)", Integer.toUnsignedLong(reader.streamOffset())));
        }
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, MpaException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
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
}
