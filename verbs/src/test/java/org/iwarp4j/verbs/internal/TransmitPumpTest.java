package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.netty.FpduEncoder;
import org.iwarp4j.rdmap.atomic.LockingAtomicExecutor;
import org.iwarp4j.rdmap.stream.OperationStatus;
import org.iwarp4j.rdmap.stream.OperationType;
import org.iwarp4j.rdmap.stream.RdmapListener;
import org.iwarp4j.rdmap.stream.RdmapMemory;
import org.iwarp4j.rdmap.stream.RdmapOperation;
import org.iwarp4j.rdmap.stream.RdmapStream;
import org.iwarp4j.rdmap.stream.RdmapStreamConfig;
import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transmit pump on an {@link EmbeddedChannel} below a real RDMAP stream: segments are pulled while the channel
 * is writable and flushed as one batch with one promise, whose completion tells the stream (RFC 5040 §5.5: a Send
 * completes once MPA took its last segment), and what the lifecycle decides changes what it pulls.
 */
class TransmitPumpTest {

    /** ULPDUs of 18 + 100 octets: a Send of 300 octets is three segments. */
    private static final int MULPDU = 118;

    private final List<String> control = new ArrayList<>();
    private final List<String> completions = new ArrayList<>();
    private final List<Object> written = new ArrayList<>();
    private final List<ChannelPromise> promises = new ArrayList<>();
    private boolean finishingOnly;
    private EmbeddedChannel channel;
    private RdmapStream stream;
    private TransmitPump pump;

    private void open(boolean hold) {
        FpduEncoder encoder = new FpduEncoder(new FpduWriter(false, false, MULPDU, 0), hold);
        channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                written.add(msg); // what goes below MPA: FPDUs (small ones gathered) and the batches' promises
                promises.add(promise);
                ctx.write(msg, promise);
            }
        }, encoder, new ChannelInboundHandlerAdapter());
        TransmitPump.Segments segments = new TransmitPump.Segments(encoder, channel.voidPromise());
        stream = new RdmapStream(RdmapStreamConfig.defaults(), new NoMemory(), new LockingAtomicExecutor(), segments,
                ByteBufAllocator.DEFAULT, new Completions());
        ChannelHandlerContext above = channel.pipeline().lastContext();
        pump = new TransmitPump(above, segments, stream, new TransmitPump.Control() {
            @Override
            public boolean finishingMessageOnly() {
                return finishingOnly;
            }

            @Override
            public void gracefulDrainFinished() {
                control.add("drained");
            }

            @Override
            public void transmitHeld() {
                control.add("held");
            }

            @Override
            public void fpdusFlushed() {
                control.add("flushed");
            }
        });
    }

    @AfterEach
    void close() {
        stream.close();
        channel.finishAndReleaseAll();
    }

    private void send(long id, int length) {
        stream.submit(RdmapOperation.Send.of(id, Unpooled.wrappedBuffer(new byte[length])));
    }

    /** Writes below MPA that carry a promise of their own: one per batch, on its last write. */
    private long batchPromises() {
        return promises.stream().filter(p -> !p.isVoid()).count();
    }

    @Test
    void whatIsReadyGoesOutAsOneBatchThatCompletesTheSends() {
        open(false);
        send(1, 300);
        send(2, 10);
        assertThat(completions).isEmpty();
        pump.pump();
        assertThat(channel.outboundMessages()).as("the FPDUs").isNotEmpty();
        assertThat(batchPromises()).as("one promise for the batch").isEqualTo(1);
        assertThat(promises.get(promises.size() - 1).isVoid()).as("on the batch's last write").isFalse();
        assertThat(control).containsExactly("flushed");
        assertThat(completions).as("completed once written").containsExactly("1 SUCCESS", "2 SUCCESS");
    }

    @Test
    void nothingIsPulledWhileTheChannelIsNotWritable() {
        open(false);
        send(1, 300);
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        pump.pump();
        assertThat(written).isEmpty();
        assertThat(control).as("no FPDU, no nudge to arm").isEmpty();
        assertThat(stream.hasPendingTransmit()).isTrue();
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        pump.pump();
        assertThat(completions).containsExactly("1 SUCCESS");
    }

    /** siw-interop §G: a graceful disconnect finishes the message in progress and starts no other. */
    @Test
    void finishingOnlyCompletesTheMessageInProgressAndNoMore() {
        open(false);
        send(1, 300);
        send(2, 10);
        assertThat(stream.writeNextSegment()).isTrue(); // the first of the Send's three segments
        finishingOnly = true;
        pump.pump();
        assertThat(stream.isMessageInProgress()).isFalse();
        assertThat(completions).containsExactly("1 SUCCESS");
        assertThat(control).containsExactly("flushed", "drained");
        assertThat(stream.hasPendingTransmit()).as("the second Send was not started").isTrue();
    }

    /** RFC 5044 §7.1.2 rule 4: while the Responder's encoder holds, the pump pulls nothing and says so. */
    @Test
    void aHoldingEncoderIsReported() {
        open(true);
        send(1, 10);
        pump.pump();
        assertThat(control).containsExactly("held");
        assertThat(written).isEmpty();
    }

    @Test
    void anActionAfterTheNextFlushRunsOnceItsBatchIsWritten() {
        open(false);
        List<String> after = new ArrayList<>();
        pump.afterNextFlush(() -> after.add("nothing to flush: at once"));
        pump.pump();
        send(1, 10);
        pump.afterNextFlush(() -> after.add("after the batch: " + completions));
        pump.pump();
        pump.pump();
        assertThat(after).containsExactly("nothing to flush: at once", "after the batch: [1 SUCCESS]");
    }

    private final class Completions implements RdmapListener {
        @Override
        public void onReceiveComplete(long id, OperationStatus status, RdmapOpcode opcode, int length, int inv,
                                      long imm) {
        }

        @Override
        public void onSendComplete(long id, OperationType type, OperationStatus status, long length, long orig) {
            completions.add(id + " " + status);
        }

        @Override
        public void onTerminateReceived(Terminate terminate) {
        }

        @Override
        public void onFatalError(Throwable cause) {
            completions.add("fatal " + cause);
        }

        /** The tests pump themselves (an EmbeddedChannel would run a requested pump inside the next write). */
        @Override
        public void onTransmitReady() {
        }
    }

    private static final class NoMemory implements RdmapMemory {
        @Override
        public TaggedBuffer lookup(int stag) {
            return null;
        }

        @Override
        public boolean invalidate(TaggedBuffer buffer) {
            return false;
        }
    }
}
