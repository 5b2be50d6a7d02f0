package org.iwarp4j.mpa.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Records what MPA passes up: user events, ULPDUs (copied and released) and exceptions. */
final class Collector extends ChannelInboundHandlerAdapter {
    final List<Object> events = new ArrayList<>();
    final List<byte[]> ulpdus = new ArrayList<>();
    final List<Throwable> errors = new ArrayList<>();
    Consumer<Object> onEvent = e -> { };
    Channel channel;

    ChannelPromise ctxPromise() {
        return channel.newPromise();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf b = (ByteBuf) msg;
        try {
            ulpdus.add(ByteBufUtil.getBytes(b));
        } finally {
            b.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        events.add(evt);
        onEvent.accept(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        errors.add(cause);
    }

    <T> T single(Class<T> type) {
        List<Object> l = events.stream().filter(type::isInstance).toList();
        if (l.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + " but got " + events);
        }
        return type.cast(l.get(0));
    }
}
