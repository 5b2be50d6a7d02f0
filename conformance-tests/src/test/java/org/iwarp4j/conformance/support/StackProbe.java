package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.netty.MpaEstablishedEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The test's view of the stack from above MPA (where DDP would sit): records, in order, every user
 * event, every ULPDU passed up (copied and released), every exception and the channel's end, and lets a
 * test wait (bounded) for them. Works on an EmbeddedChannel and on a real socket channel alike.
 */
public final class StackProbe extends ChannelInboundHandlerAdapter {

    /** A ULPDU the stack passed up. */
    public record Received(byte[] octets) {
        @Override
        public String toString() {
            return "ULPDU(" + octets.length + ") " + HexFormat.of().formatHex(octets, 0, Math.min(32, octets.length));
        }
    }

    /** Channel state changes. */
    public enum Signal { INACTIVE, INPUT_SHUTDOWN }

    public static final Duration WAIT = Duration.ofSeconds(5);

    private final List<Object> log = new ArrayList<>();
    private volatile Channel channel;
    private volatile Consumer<Object> onEvent = e -> { };
    private volatile Consumer<Received> onUlpdu = u -> { };

    /** Runs on the event loop for each user event (after it is logged). */
    public StackProbe onEvent(Consumer<Object> action) {
        onEvent = action;
        return this;
    }

    /** Runs on the event loop for each ULPDU (after it is logged). */
    public StackProbe onUlpdu(Consumer<Received> action) {
        onUlpdu = action;
        return this;
    }

    /** On Full Operation, writes and flushes these ULPDUs (from the event loop, before anything else). */
    public StackProbe sendOnEstablished(byte[]... ulpdus) {
        return onEvent(e -> {
            if (e instanceof MpaEstablishedEvent) {
                for (byte[] u : ulpdus) {
                    channel.write(Bytes.direct(u));
                }
                channel.flush();
            }
        });
    }

    /** Writes and flushes one ULPDU from above MPA (any thread). */
    public ChannelFuture send(byte[] ulpdu) {
        return channel.writeAndFlush(Bytes.direct(ulpdu));
    }

    public Channel channel() {
        return channel;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            Received r;
            try {
                r = new Received(ByteBufUtil.getBytes(b));
            } finally {
                b.release();
            }
            add(r);
            onUlpdu.accept(r);
            wakeWaiters(); // the callback may have changed what a waiter waits for
        } else {
            add(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        add(evt instanceof ChannelInputShutdownEvent ? Signal.INPUT_SHUTDOWN : evt);
        onEvent.accept(evt);
        wakeWaiters();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        add(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        add(Signal.INACTIVE);
    }

    private void add(Object o) {
        synchronized (log) {
            log.add(o);
            log.notifyAll();
        }
    }

    private void wakeWaiters() {
        synchronized (log) {
            log.notifyAll();
        }
    }

    /** A copy of everything recorded so far. */
    public List<Object> log() {
        synchronized (log) {
            return new ArrayList<>(log);
        }
    }

    /** Waits (bounded) until {@code condition} holds for the log; fails with the log otherwise. */
    public List<Object> await(Predicate<List<Object>> condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        synchronized (log) {
            while (!condition.test(log)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out after " + WAIT + " waiting for " + what + "; stack log: "
                            + log);
                }
                try {
                    log.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
            return new ArrayList<>(log);
        }
    }

    public <T> List<T> all(Class<T> type) {
        return log().stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The one recorded object of {@code type}, waiting for it; fails if there are several. */
    public <T> T awaitOne(Class<T> type) {
        List<Object> l = await(x -> x.stream().anyMatch(type::isInstance), "a " + type.getSimpleName());
        List<Object> matches = l.stream().filter(type::isInstance).toList();
        if (matches.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + " but got " + matches + "; log " + l);
        }
        return type.cast(matches.get(0));
    }

    public MpaEstablishedEvent awaitEstablished() {
        return awaitOne(MpaEstablishedEvent.class);
    }

    /** Waits for {@code n} ULPDUs and returns all received so far. */
    public List<byte[]> awaitUlpdus(int n) {
        await(l -> l.stream().filter(Received.class::isInstance).count() >= n, n + " ULPDUs");
        return ulpdus();
    }

    public List<byte[]> ulpdus() {
        return all(Received.class).stream().map(Received::octets).toList();
    }

    public MpaException awaitMpaError() {
        return awaitOne(MpaException.class);
    }

    public void awaitInactive() {
        await(l -> l.contains(Signal.INACTIVE), "the channel to become inactive");
    }

    public boolean has(Object o) {
        return log().contains(o);
    }
}
