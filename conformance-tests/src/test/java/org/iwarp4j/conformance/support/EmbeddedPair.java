package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.MpaParameters;

import java.io.ByteArrayOutputStream;

/**
 * Two stacks, an MPA Initiator and an MPA Responder on EmbeddedChannels, joined by a "wire" that
 * {@link #pump()} shuttles octets over until both are quiet, keeping a transcript of each direction for
 * the framing oracle. Deterministic.
 */
public final class EmbeddedPair implements AutoCloseable {

    public final StackProbe initiatorProbe = new StackProbe();
    public final StackProbe responderProbe = new StackProbe();
    public final EmbeddedChannel initiator;
    public final EmbeddedChannel responder;
    private final ByteArrayOutputStream i2r = new ByteArrayOutputStream();
    private final ByteArrayOutputStream r2i = new ByteArrayOutputStream();

    public EmbeddedPair(MpaConfig initiatorConfig, MpaConfig responderConfig) {
        responder = Embedded.responder(responderConfig, responderProbe);
        initiator = Embedded.initiator(initiatorConfig, initiatorProbe);
        pump();
    }

    /** Moves octets both ways until neither side has anything more to send. */
    public EmbeddedPair pump() {
        boolean moved = true;
        while (moved) {
            moved = move(initiator, responder, i2r) | move(responder, initiator, r2i);
        }
        return this;
    }

    private static boolean move(EmbeddedChannel from, EmbeddedChannel to, ByteArrayOutputStream transcript) {
        from.runPendingTasks();
        boolean moved = false;
        ByteBuf b;
        while ((b = from.readOutbound()) != null) {
            transcript.writeBytes(ByteBufUtil.getBytes(b));
            if (to.isOpen()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
            moved = true;
        }
        to.runPendingTasks();
        return moved;
    }

    /** Everything the Initiator sent so far. */
    public byte[] initiatorToResponder() {
        return i2r.toByteArray();
    }

    /** Everything the Responder sent so far. */
    public byte[] responderToInitiator() {
        return r2i.toByteArray();
    }

    public MpaParameters initiatorParameters() {
        return initiatorProbe.awaitEstablished().parameters();
    }

    public MpaParameters responderParameters() {
        return responderProbe.awaitEstablished().parameters();
    }

    @Override
    public void close() {
        initiator.finishAndReleaseAll();
        responder.finishAndReleaseAll();
    }
}
