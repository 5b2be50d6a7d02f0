package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one promise of all FPDU batches: each report Netty makes to it goes to the oldest batch pending, with that
 * batch's segment count and its after-action, and the promise stays writable again and again.
 */
class BatchPromiseTest {

    @Test
    void reportsGoToTheBatchesInTheOrderTheyWereWritten() {
        EmbeddedChannel ch = new EmbeddedChannel();
        List<String> log = new ArrayList<>();
        BatchPromise p = new BatchPromise(ch, ch.eventLoop(), (n, ok) -> log.add(n + (ok ? " ok" : " failed")));
        for (int i = 1; i <= 40; i++) { // beyond the initial FIFO of 16
            int batch = i;
            ch.write(Unpooled.wrappedBuffer(new byte[] {(byte) i}), p.next(i, i % 10 == 0 ? () -> log.add("after "
                    + batch) : null));
        }
        assertThat(p.pending()).isEqualTo(40);
        assertThat(p.isDone()).isFalse();
        ch.flush();
        assertThat(p.pending()).isZero();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            expected.add(i + " ok");
            if (i % 10 == 0) {
                expected.add("after " + i);
            }
        }
        assertThat(log).containsExactlyElementsOf(expected);
        assertThat(p.isDone()).as("never done, so it can be written again").isFalse();
        for (int i = 1; i <= 40; i++) {
            ByteBuf out = ch.readOutbound();
            assertThat(out.readByte()).isEqualTo((byte) i);
            out.release();
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void aClosedChannelFailsThePendingBatchesInOrderAndRunsTheirAfterActions() {
        EmbeddedChannel ch = new EmbeddedChannel();
        List<String> log = new ArrayList<>();
        BatchPromise p = new BatchPromise(ch, ch.eventLoop(), (n, ok) -> log.add(n + (ok ? " ok" : " failed")));
        ch.write(Unpooled.wrappedBuffer(new byte[1]), p.next(3, null));
        ch.write(Unpooled.wrappedBuffer(new byte[1]), p.next(5, () -> log.add("after 5")));
        ch.close();
        ch.write(Unpooled.wrappedBuffer(new byte[1]), p.next(7, null)); // on a closed channel: fails at once
        assertThat(log).containsExactly("3 failed", "5 failed", "after 5", "7 failed");
        assertThat(p.pending()).isZero();
        assertThat(p.tryFailure(new ClosedChannelException())).as("no batch left to report").isFalse();
        ch.finishAndReleaseAll();
    }
}
