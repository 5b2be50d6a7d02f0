package org.iwarp4j.tools.perf;

import java.util.Set;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;

/**
 * The data path of {@code ib_send_bw -b} (perftest 4.5's {@code run_iter_bi}): each end is the Send test's sender
 * and its receiver at once, on the same queue pairs. It keeps {@code -t} Sends in flight within the peer's
 * credits (the count the peer RDMA-Writes into our credit word, {@link PerftestTraffic}'s class comment) and
 * re-posts each receive, RDMA-Writing its own count into the peer's credit word every {@code rx_depth / 3}. The
 * client sends at once, the server only after its first receive (so that it never sends before the client has
 * begun). The credit word is the first four octets of the lane's credit region; the count we write is staged in
 * the next four, as perftest keeps its {@code ctrl_buf} apart from its {@code credit_buf}.
 */
final class PerftestDuplexSend {

    private static final int STAGING = 4;
    private final CompletionQueue cq;
    private final PerftestTraffic.Lane[] lanes;
    private final WorkCompletion[] wcs = WorkCompletion.array(64);

    PerftestDuplexSend(CompletionQueue cq, PerftestTraffic.Lane[] lanes) {
        this.cq = cq;
        this.lanes = lanes;
    }

    /**
     * One size, after both ends posted their receives ({@link PerftestTraffic#postSendTestReceives}) and the
     * size's handshake: {@code iterations} Sends each way per queue pair, or with a {@code span} (duration mode)
     * until the end margin is over, the client's span from the loop's start and the server's from its first receive.
     * By count the result is our own Sends' (perftest's print_report_bw; the caller adds the peer's report); in
     * duration mode it counts, as perftest, our Sends completed and the Sends received in the measured span, both.
     */
    PerfResult run(boolean client, int size, long iterations, int depth, int rxDepth, MeasuredSpan span)
            throws InterruptedException {
        boolean timed = span != null;
        long perLane = timed ? Long.MAX_VALUE : iterations;
        int creditEvery = Math.max(1, rxDepth / 3);
        int n = lanes.length;
        long[] posted = new long[n];
        long[] completed = new long[n];
        long[] received = new long[n];
        long[] postedReceives = new long[n];
        SendWorkRequest[] sends = new SendWorkRequest[n];
        SendWorkRequest[] creditWrites = new SendWorkRequest[n];
        for (PerftestTraffic.Lane l : lanes) {
            int i = l.index;
            sends[i] = Send.of(i, l.buffer.sge(0, size));
            creditWrites[i] = RdmaWrite.of(PerftestTraffic.CREDIT_WR_BASE + i, l.credit.sge(STAGING, 4),
                    l.remoteBuffer(4)).withFlags(Set.of()); // unsignaled: nothing waits for a credit's completion
            postedReceives[i] = Math.min(rxDepth, perLane);
            l.creditWord.putInt(0, 0); // perftest resets the credit before each size
        }
        long total = iterations * n;
        long sendsDone = 0;
        long receivesDone = 0;
        long postedTotal = 0;
        long counted = 0;
        boolean waitingForFirst = !client;
        BandwidthMeter meter = new BandwidthMeter();
        boolean started = false;
        long lastProgress = System.nanoTime();
        if (timed && client) {
            span.begin(System.nanoTime());
        }
        while (timed ? !(span.begun() && span.over(System.nanoTime())) : sendsDone < total || receivesDone < total) {
            for (int i = 0; i < n && !waitingForFirst; i++) {
                PerftestTraffic.Lane l = lanes[i];
                while (posted[i] < perLane && posted[i] - completed[i] < depth
                        && posted[i] + 1 - Integer.toUnsignedLong(l.creditWord.getInt(0)) < rxDepth) {
                    if (!started) {
                        meter.start(System.nanoTime());
                        started = true;
                    }
                    l.qp.postSend(sends[i]);
                    posted[i]++;
                    postedTotal++;
                }
            }
            int got = cq.poll(wcs, timed && span.begun() ? PerftestTraffic.TICK : PerftestTraffic.POLL_WAIT);
            long now = System.nanoTime();
            if (got > 0) {
                lastProgress = now;
            } else if (now - lastProgress > PerftestTraffic.WAIT.toNanos()) {
                throw new PerftestException("no completion on the test queue pairs for "
                        + PerftestTraffic.WAIT.toSeconds() + " s (peer gone, or its options differ from ours: give "
                        + "both the same -b, -s, -n or -D, -q, -t)");
            }
            boolean sampling = timed && span.begun() && span.measuring(now);
            for (int k = 0; k < got; k++) {
                WorkCompletion c = wcs[k];
                if (!c.isSuccess()) {
                    throw new PerftestException("completion failed on a test queue pair: " + c);
                }
                long id = c.wrId();
                if (id >= PerftestTraffic.RECEIVE_WR_BASE && id < PerftestTraffic.RECEIVE_WR_BASE + n) {
                    if (waitingForFirst) {
                        waitingForFirst = false;
                        if (timed) {
                            span.begin(now); // run_iter_bi: the server's alarm begins with its first receive
                            sampling = span.measuring(now);
                        }
                    }
                    PerftestTraffic.Lane l = lanes[(int) (id - PerftestTraffic.RECEIVE_WR_BASE)];
                    received(l, size, ++received[l.index], postedReceives, perLane, rxDepth, creditEvery,
                            creditWrites[l.index]);
                    receivesDone++;
                    counted += sampling ? 1 : 0;
                } else if (id < n) {
                    completed[(int) id]++;
                    sendsDone++;
                    counted += sampling ? 1 : 0;
                }
            }
            if (got > 0 && !timed && started) {
                meter.record(now, Math.min(sendsDone, total));
            }
        }
        if (!timed) {
            return PerfResult.bandwidth(size, meter);
        }
        drain(sendsDone, postedTotal);
        return PerftestTraffic.durationResult(span, size, counted);
    }

    /** A Send received on {@code l}: its receive re-posted while more are due, and every so often a credit. */
    private static void received(PerftestTraffic.Lane l, int size, long r, long[] postedReceives, long perLane,
                                 int rxDepth, int creditEvery, SendWorkRequest creditWrite) {
        int i = l.index;
        if (postedReceives[i] < perLane) {
            l.qp.postReceive(ReceiveWorkRequest.of(PerftestTraffic.RECEIVE_WR_BASE + i, l.buffer.sge(0, size)));
            postedReceives[i]++;
        }
        if ((r % rxDepth) % creditEvery == 0) {
            l.creditWord.putInt(STAGING, (int) r);
            l.qp.postSend(creditWrite);
        }
    }

    /** Duration mode's end: our Sends still in flight complete (the peer's receives take them), uncounted. */
    private void drain(long done, long posted) throws InterruptedException {
        long deadline = System.nanoTime() + PerftestTraffic.WAIT.toNanos();
        while (done < posted && System.nanoTime() < deadline) {
            int got = cq.poll(wcs, PerftestTraffic.POLL_WAIT);
            for (int k = 0; k < got; k++) {
                if (wcs[k].wrId() < lanes.length) {
                    done++;
                }
            }
        }
    }
}
