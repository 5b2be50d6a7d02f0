package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.iwarp4j.ddp.receive.DdpReceiver;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.mpa.netty.FpduSender;

import java.util.ArrayList;
import java.util.List;

/**
 * Test-only glue of DDP onto MPA, standing in for the verbs layer (which will own the real one): the DDP
 * sender writes each segment through MPA's {@link FpduSender} (one FPDU per segment, RFC 5044 §3), and
 * {@link Inbound} hands each ULPDU the FPDU decoder passes up to a {@link DdpReceiver}, and MPA errors to
 * {@link DdpReceiver#lowerLayerFailed} (RFC 5041 §7: LLP errors are passed up).
 */
public final class MpaLlp implements LlpSegmentWriter {

    private final FpduSender sender;
    private final Channel channel;
    private final List<ChannelFuture> writes = new ArrayList<>();

    public MpaLlp(FpduSender sender, Channel channel) {
        this.sender = sender;
        this.channel = channel;
    }

    @Override
    public int mulpdu() {
        return sender.mulpdu();
    }

    @Override
    public void writeSegment(ByteBuf header, ByteBuf payload) {
        var promise = channel.newPromise();
        writes.add(promise);
        sender.send(header, payload, promise);
    }

    public void flush() {
        sender.flush();
    }

    /** Every segment write so far (to check none failed). */
    public List<ChannelFuture> writes() {
        return writes;
    }

    /** Feeds a {@link DdpReceiver} from an MPA pipeline (put it above the FPDU decoder). */
    public static final class Inbound extends ChannelInboundHandlerAdapter {
        private final DdpReceiver receiver;

        public Inbound(DdpReceiver receiver) {
            this.receiver = receiver;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                receiver.receive(b);
            } else {
                ctx.fireChannelRead(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            receiver.lowerLayerFailed(cause);
            ctx.fireExceptionCaught(cause);
        }
    }
}
