package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.netty.MpaStartupHandler;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** The stack on an {@link EmbeddedChannel} with a frozen clock: deterministic, no sockets, no sleeps. */
public final class Embedded {

    private Embedded() {}

    /** An active channel with an MPA Initiator (its Request is already in the outbound queue) and the probe. */
    public static EmbeddedChannel initiator(MpaConfig config, StackProbe probe) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(MpaStartupHandler.initiator(config), probe);
        return ch;
    }

    /** An active channel with an MPA Responder and the probe. */
    public static EmbeddedChannel responder(MpaConfig config, StackProbe probe) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(MpaStartupHandler.responder(config), probe);
        return ch;
    }

    /** Everything the channel wrote so far, concatenated (the buffers are released). */
    public static byte[] outbound(EmbeddedChannel ch) {
        ch.runPendingTasks();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        return out.toByteArray();
    }

    /** Delivers octets as one read (in a pooled buffer) and runs pending tasks. */
    public static void inbound(EmbeddedChannel ch, byte[] octets) {
        ch.writeInbound(Bytes.direct(octets));
        ch.runPendingTasks();
    }

    /** Delivers octets in reads of the given sizes (the last takes the rest). */
    public static void inboundInPieces(EmbeddedChannel ch, byte[] octets, int... sizes) {
        int at = 0;
        for (int i = 0; at < octets.length; i++) {
            int n = i < sizes.length ? Math.min(sizes[i], octets.length - at) : octets.length - at;
            byte[] piece = Arrays.copyOfRange(octets, at, at + n);
            inbound(ch, piece);
            at += n;
        }
    }

    /** Advances the frozen clock and runs what became due. */
    public static void advance(EmbeddedChannel ch, Duration d) {
        ch.advanceTimeBy(d.toNanos(), TimeUnit.NANOSECONDS);
        ch.runScheduledPendingTasks();
        ch.runPendingTasks();
    }

    /** Writes and flushes one ULPDU (a pooled copy) from above MPA. */
    public static ChannelFuture sendUlpdu(EmbeddedChannel ch, byte[] ulpdu) {
        ChannelFuture f = ch.writeAndFlush(Bytes.direct(ulpdu));
        ch.runPendingTasks();
        return f;
    }
}
