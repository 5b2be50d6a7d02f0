package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import org.iwarp4j.ddp.send.LlpSegmentWriter;
import org.iwarp4j.mpa.netty.FpduEncoder;
import org.iwarp4j.mpa.netty.FpduSender;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transmit side of one connection (as siw's {@code siw_qp_tx.c} is to {@code siw_cm.c}): pulls DDP segments
 * from the RDMAP stream while the channel is writable (backpressure: nothing queues below RDMAP beyond Netty's
 * watermarks), hands each to MPA's FPDU encoder without a promise, flushes them as one batch with one promise,
 * and tells the stream how many were written (RFC 5040 §5.5: a Send or Write completes locally only then
 * [RDMAP-21]). On the connection's event loop only.
 */
final class TransmitPump {

    private static final Logger LOG = LoggerFactory.getLogger(TransmitPump.class);

    /** What the connection's lifecycle decides about transmission. */
    interface Control {
        /** RFC 5040 §6.2.1: a graceful disconnect finishes the message in progress and starts no new one. */
        boolean finishingMessageOnly();

        /** While {@link #finishingMessageOnly()}: no message is in progress any more. */
        void gracefulDrainFinished();

        /** RFC 5044 §7.1.2 rule 4: the Responder's encoder holds every FPDU until the peer's first one. */
        void transmitHeld();

        /** FPDUs went to the socket. */
        void fpdusFlushed();
    }

    private final ChannelHandlerContext ctx;
    private final Segments segments;
    private final RdmapStream stream;
    private final Control control;
    private final Runnable pumpTask = this::pump;
    private final BatchPromise batches;
    private boolean pumping;
    private boolean pumpAgain;
    private boolean pumpScheduled;
    private Runnable afterFlush;
    private boolean heldLogged;

    /**
     * @param ctx      the context of the handler above the FPDU encoder
     * @param segments MPA as {@code stream} writes to it
     */
    TransmitPump(ChannelHandlerContext ctx, Segments segments, RdmapStream stream, Control control) {
        this.ctx = ctx;
        this.segments = segments;
        this.stream = stream;
        this.control = control;
        this.batches = new BatchPromise(ctx.channel(), ctx.executor(), this::batchWritten);
    }

    /** The stream has something to send: pump once the current call stack is done (at once if not pumping). */
    void request() {
        if (pumping) {
            pumpAgain = true;
            return;
        }
        if (!pumpScheduled) {
            pumpScheduled = true;
            ctx.executor().execute(pumpTask);
        }
    }

    /** Hands segments to MPA while the channel is writable, then flushes them as one batch. */
    void pump() {
        pumpScheduled = false;
        if (pumping) {
            return;
        }
        if (segments.encoder.holding()) {
            if (!heldLogged && stream.hasPendingTransmit()) {
                heldLogged = true;
                LOG.info("{}: work to send is held until the Initiator's first FPDU (RFC 5044 §7.1.2 rule 4): in"
                        + " client-server mode the client must send first; a client that asks for peer-to-peer mode"
                        + " (MpaOptions.peerToPeer) sends an RTR that releases it", ctx.channel());
            }
            control.transmitHeld();
            return;
        }
        pumping = true;
        try {
            do {
                pumpAgain = false;
                if (control.finishingMessageOnly()) {
                    while (ctx.channel().isWritable() && stream.isMessageInProgress()) {
                        stream.writeNextSegment();
                    }
                } else {
                    while (ctx.channel().isWritable() && stream.writeNextSegment()) {
                        // one segment per call
                    }
                }
            } while (pumpAgain && ctx.channel().isWritable());
        } catch (RuntimeException e) {
            LOG.error("internal error while sending", e);
        } finally {
            pumping = false;
        }
        flushBatch();
        if (control.finishingMessageOnly() && !stream.isMessageInProgress()) {
            control.gracefulDrainFinished();
        }
    }

    /** Runs {@code r} once the segments handed to MPA so far are written (at the next flush, with its batch). */
    void afterNextFlush(Runnable r) {
        afterFlush = r;
    }

    /** Completes once everything handed to MPA so far is written (or failed). */
    ChannelFuture flushAll() {
        ChannelPromise written = ctx.newPromise();
        segments.encoder.writeMarker(written);
        ctx.flush();
        return written;
    }

    /**
     * Flushes the segments written since the last flush; their completion is one report of {@link #batches}
     * (in order), so a flush allocates nothing.
     */
    private void flushBatch() {
        int n = segments.batch;
        Runnable after = afterFlush;
        afterFlush = null;
        if (n == 0) {
            if (after != null) {
                after.run();
            }
            return;
        }
        control.fpdusFlushed();
        segments.batch = 0;
        // Written below the FPDU encoder behind every FPDU before it (with the small ones it gathered).
        segments.encoder.writeMarker(batches.next(n, after));
        ctx.flush();
    }

    private void batchWritten(int n, boolean success) {
        if (success) {
            stream.segmentsWritten(n);
        }
    }

    /** RDMAP's view of MPA: MULPDU and one FPDU per segment, written without a promise (the batch has one). */
    static final class Segments implements LlpSegmentWriter {
        private final FpduEncoder encoder;
        private final ChannelPromise voidPromise;
        private int batch;

        /** RFC 5044 §7.1.2 rule 4: a Responder's FPDUs are held until the Initiator's first arrived. */
        boolean held() {
            return encoder.holding();
        }

        Segments(FpduEncoder encoder, ChannelPromise voidPromise) {
            this.encoder = encoder;
            this.voidPromise = voidPromise;
        }

        @Override
        public int mulpdu() {
            return encoder.mulpdu();
        }

        @Override
        public void writeSegment(ByteBuf header, ByteBuf payload) {
            batch++;
            encoder.send(header, payload, voidPromise);
        }

        @Override
        public void writeSegment(ByteBuf header, ByteBuf source, int index, int length) {
            batch++;
            encoder.send(header, source, index, length, voidPromise);
        }

        /** DDP's segment as MPA's ULPDU: the content of the call under way ({@link #writeSegmentInPlace}). */
        private LlpSegmentWriter.SegmentContent inPlace;
        private final FpduSender.UlpduContent ulpdu = (buffer, index) -> inPlace.writeSegment(buffer, index);

        @Override
        public boolean writeSegmentInPlace(int length, LlpSegmentWriter.SegmentContent content) {
            LlpSegmentWriter.SegmentContent outer = inPlace; // a write failing inside may send a Terminate here
            inPlace = content;
            try {
                if (!encoder.sendInPlace(length, ulpdu)) {
                    return false;
                }
            } finally {
                inPlace = outer;
            }
            batch++;
            return true;
        }

        @Override
        public int lendLimit() {
            return encoder.lendLimit();
        }

        /** MPA frames in the room DDP leaves around each header: a small segment is one buffer. */
        @Override
        public int headroom() {
            return encoder.headroom();
        }

        @Override
        public int tailroom() {
            return encoder.tailroom();
        }
    }
}
