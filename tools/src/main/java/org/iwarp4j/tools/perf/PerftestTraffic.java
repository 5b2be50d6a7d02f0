package org.iwarp4j.tools.perf;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Set;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;

/**
 * The data path of a perftest run on the test queue pairs, as perftest 4.5's {@code run_iter_*} moves data: what
 * goes on the wire is the same (the operations, their sizes and targets, {@code ib_send_bw}'s credits); how we
 * pace and time it is ours. Every wait is bounded by {@link #WAIT}.
 *
 * <p>{@code ib_send_bw}'s credits on iWARP (which has no receiver-not-ready retry, RFC 5040 §5.3): the receiver
 * counts the Sends it received in this size's run and, every {@code rx_depth / 3} of them, RDMA-Writes the count
 * as a 4-octet word into the sender's credit word (named by the rkey and vaddr of the sender's
 * {@code pingpong_dest}). The word is a C {@code uint32_t} in the receiver's byte order, little-endian on x86 —
 * the one field of perftest's exchange not in network byte order. The sender keeps fewer than {@code rx_depth}
 * Sends beyond the count.
 */
final class PerftestTraffic {

    static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a poll of duration mode waits: a phase of the run begins at most this late. */
    static final Duration TICK = Duration.ofMillis(1);
    static final Duration POLL_WAIT = Duration.ofMillis(100);
    /** The work request ids of the Send tests' receives and credit Writes: these plus the lane's index. */
    static final long RECEIVE_WR_BASE = 1L << 32;
    static final long CREDIT_WR_BASE = 2L << 32;

    /** One test queue pair: its memory, its credit word and the peer's dest. */
    static final class Lane {
        final int index;
        /** Set once its test connection is up (a failed attempt needs a fresh queue pair). */
        QueuePair qp;
        final MemoryRegion buffer;
        final MemoryRegion credit;
        PerftestWire.Dest remote;
        final ByteBuffer creditWord;

        Lane(int index, MemoryRegion buffer, MemoryRegion credit) {
            this.index = index;
            this.buffer = buffer;
            this.credit = credit;
            this.creditWord = credit == null ? null : credit.buffer().order(ByteOrder.LITTLE_ENDIAN);
        }

        RemoteBuffer remoteBuffer(long length) {
            return new RemoteBuffer(new Stag(remote.rkey()), remote.vaddr(), length);
        }
    }

    /**
     * The result of {@code counted} operations of {@code size} in the measured span of a duration-mode run
     * ({@code -D}, {@code -f}: {@link MeasuredSpan#perftest}; only the operations that complete during the measured
     * span count, and its wall time is what they are divided by), as perftest reports it: the count as
     * {@code #iterations}, no peak (perftest sets noPeak: 0.00), the average.
     */
    static PerfResult durationResult(MeasuredSpan span, int size, long counted) {
        double rate = counted * 1e9 / span.measuredNanos();
        return new PerfResult(size, counted, 0, rate * size, rate, null);
    }

    private static final String HELD_HINT = "our Writes are held: an MPA Responder sends nothing before the "
            + "Initiator's first FPDU (RFC 5044 §7.1.2 rule 4), and perftest's ib_write_lat client waits for the "
            + "server's Write first (siw's Responder does not hold itself to the rule; docs/perftest-wire.md)";
    private final CompletionQueue cq;
    private final Lane[] lanes;
    /** Whether our sends on the test connection are held for the Initiator's first FPDU (a write-latency server). */
    boolean heldHint;
    private final WorkCompletion[] wcs = WorkCompletion.array(64);

    PerftestTraffic(CompletionQueue cq, Lane[] lanes) {
        this.cq = cq;
        this.lanes = lanes;
    }

    /** The poll of a data loop: waits a little, fails after {@link #WAIT} without a completion. */
    private int poll(long[] lastProgress) throws InterruptedException {
        return poll(lastProgress, POLL_WAIT);
    }

    /** The poll of a data loop that waits at most {@code wait}. */
    private int poll(long[] lastProgress, Duration wait) throws InterruptedException {
        int n = cq.poll(wcs, wait);
        long now = System.nanoTime();
        if (n > 0) {
            lastProgress[0] = now;
        } else if (now - lastProgress[0] > WAIT.toNanos()) {
            throw new PerftestException("no completion on the test queue pairs for " + WAIT.toSeconds()
                    + " s (peer gone, or its options differ from ours: give both the same -s, -n or -D, -q, -t)");
        }
        return n;
    }

    private static void check(WorkCompletion c) {
        if (!c.isSuccess()) {
            throw new PerftestException("completion failed on a test queue pair: " + c);
        }
    }

    /**
     * The client of a bandwidth test: {@code iterations} operations of {@code size} per queue pair, {@code depth}
     * in flight on each ({@code outReads} at most for Reads and Atomics), each lane at its peer's buffer; the Send
     * test also within the receiver's credits of {@code rxDepth}.
     */
    PerfResult clientBandwidth(PerfVerb verb, boolean compareSwap, int size, long iterations, int depth,
                               int outReads, int rxDepth) throws InterruptedException {
        return clientBandwidth(verb, compareSwap, size, iterations, depth, outReads, rxDepth, null);
    }

    /**
     * As {@link #clientBandwidth(PerfVerb, boolean, int, long, int, int, int)}, or with a {@code span} (duration
     * mode, {@code run_iter_bw}): operations are posted from the first margin's start to the last margin's end,
     * those that complete in the measured span are counted, and the ones still in flight at the end are waited for
     * (uncounted) before the result.
     */
    PerfResult clientBandwidth(PerfVerb verb, boolean compareSwap, int size, long iterations, int depth,
                               int outReads, int rxDepth, MeasuredSpan span) throws InterruptedException {
        int window = verb == PerfVerb.READ || verb == PerfVerb.ATOMIC ? Math.max(1, Math.min(depth, outReads))
                : depth;
        SendWorkRequest[] requests = new SendWorkRequest[lanes.length];
        for (Lane l : lanes) {
            int length = verb == PerfVerb.ATOMIC ? 8 : size;
            requests[l.index] = switch (verb) {
                case WRITE -> RdmaWrite.of(l.index, l.buffer.sge(0, length), l.remoteBuffer(length));
                case READ -> RdmaRead.of(l.index, l.buffer.sge(0, length), l.remoteBuffer(length));
                case SEND -> Send.of(l.index, l.buffer.sge(0, length));
                case ATOMIC -> compareSwap ? AtomicCompareSwap.of(l.index, l.remoteBuffer(8), 0, 0)
                        : AtomicFetchAdd.of(l.index, l.remoteBuffer(8), 1);
                case TCP -> throw new IllegalArgumentException("tcp");
            };
            if (l.creditWord != null) {
                l.creditWord.putInt(0, 0); // perftest resets the credit before each size
            }
        }
        long[] posted = new long[lanes.length];
        long[] completed = new long[lanes.length];
        boolean timed = span != null;
        long perLane = timed ? Long.MAX_VALUE : iterations;
        long total = iterations * lanes.length;
        long done = 0;
        long postedTotal = 0;
        long counted = 0;
        BandwidthMeter meter = new BandwidthMeter();
        long[] progress = {System.nanoTime()};
        boolean started = false;
        if (timed) {
            span.begin(System.nanoTime()); // perftest starts its first margin before the first post
        }
        while (timed ? !span.over(System.nanoTime()) : done < total) {
            for (Lane l : lanes) {
                int i = l.index;
                while (posted[i] < perLane && posted[i] - completed[i] < window
                        && (verb != PerfVerb.SEND || posted[i] + 1 - credit(l) < rxDepth)) {
                    if (!started) {
                        meter.start(System.nanoTime());
                        started = true;
                    }
                    l.qp.postSend(requests[i]);
                    posted[i]++;
                    postedTotal++;
                }
            }
            int n = poll(progress, timed ? TICK : POLL_WAIT);
            boolean sampling = timed && span.measuring(System.nanoTime());
            for (int k = 0; k < n; k++) {
                WorkCompletion c = wcs[k];
                check(c);
                completed[(int) c.wrId()]++;
                done++;
                if (sampling) {
                    counted++;
                }
            }
            if (n > 0 && !timed) {
                meter.record(System.nanoTime(), done);
            }
        }
        if (!timed) {
            return PerfResult.bandwidth(size, meter);
        }
        while (done < postedTotal) {
            int n = poll(progress, POLL_WAIT);
            for (int k = 0; k < n; k++) {
                check(wcs[k]);
                done++;
            }
        }
        return durationResult(span, size, counted);
    }

    private static long credit(Lane l) {
        return Integer.toUnsignedLong(l.creditWord.getInt(0));
    }

    /** The receiver of {@code ib_send_bw}: posts its receives (before the handshake that starts the run). */
    void postSendTestReceives(int size, long iterations, int rxDepth) {
        for (Lane l : lanes) {
            long first = Math.min(rxDepth, iterations);
            for (long k = 0; k < first; k++) {
                l.qp.postReceive(ReceiveWorkRequest.of(RECEIVE_WR_BASE + l.index, l.buffer.sge(0, size)));
            }
        }
    }

    /**
     * The receiver of {@code ib_send_bw}, after {@link #postSendTestReceives}: {@code iterations} Sends per queue
     * pair, each receive re-posted while more are due, the count RDMA-Written to the sender every
     * {@code rxDepth / 3} (see the class comment). Timed from the first Send received to the last.
     */
    PerfResult serverSendBandwidth(int size, long iterations, int rxDepth) throws InterruptedException {
        return serverSendBandwidth(size, iterations, rxDepth, null);
    }

    /**
     * As {@link #serverSendBandwidth(int, long, int)}, or with a {@code span} (duration mode,
     * {@code run_iter_bw_server}): the span begins with the first Send received, every receive is re-posted until
     * it is over (the sender, whose span began before its first Send, has stopped by then), and the Sends received
     * in the measured span count. Before the first Send the wait is bounded by {@link #WAIT}; after it, the span
     * bounds it.
     */
    PerfResult serverSendBandwidth(int size, long iterations, int rxDepth, MeasuredSpan span)
            throws InterruptedException {
        boolean timed = span != null;
        long perLane = timed ? Long.MAX_VALUE : iterations;
        int creditEvery = Math.max(1, rxDepth / 3);
        long[] received = new long[lanes.length];
        long[] postedReceives = new long[lanes.length];
        SendWorkRequest[] creditWrites = new SendWorkRequest[lanes.length];
        for (Lane l : lanes) {
            postedReceives[l.index] = Math.min(rxDepth, perLane);
            creditWrites[l.index] = RdmaWrite.of(CREDIT_WR_BASE + l.index, l.credit.sge(0, 4), l.remoteBuffer(4))
                    .withFlags(Set.of()); // unsignaled: nothing waits for a credit's completion
        }
        long total = iterations * lanes.length;
        long done = 0;
        long counted = 0;
        BandwidthMeter meter = new BandwidthMeter();
        long[] progress = {System.nanoTime()};
        while (timed ? !span.over(System.nanoTime()) : done < total) {
            int n = timed && span.begun() ? cq.poll(wcs, TICK) : poll(progress);
            boolean sampling = timed && span.begun() && span.measuring(System.nanoTime());
            for (int k = 0; k < n; k++) {
                WorkCompletion c = wcs[k];
                check(c);
                if (c.wrId() < RECEIVE_WR_BASE || c.wrId() >= RECEIVE_WR_BASE + lanes.length) {
                    continue;
                }
                if (done == 0 && timed) {
                    span.begin(System.nanoTime()); // perftest: set_on_first_rx_packet
                    sampling = span.measuring(System.nanoTime());
                } else if (done == 0) {
                    meter.start(System.nanoTime());
                }
                Lane l = lanes[(int) (c.wrId() - RECEIVE_WR_BASE)];
                int i = l.index;
                long r = ++received[i];
                done++;
                if (sampling) {
                    counted++;
                }
                if (postedReceives[i] < perLane) {
                    l.qp.postReceive(ReceiveWorkRequest.of(RECEIVE_WR_BASE + i, l.buffer.sge(0, size)));
                    postedReceives[i]++;
                }
                if ((r % rxDepth) % creditEvery == 0) {
                    l.creditWord.putInt(0, (int) r);
                    l.qp.postSend(creditWrites[i]);
                }
            }
            if (n > 0 && !timed) {
                meter.record(System.nanoTime(), done);
            }
        }
        return timed ? durationResult(span, size, counted) : PerfResult.bandwidth(size, meter);
    }

    /**
     * A latency run of duration mode ({@code -D}, {@code -f}), as perftest's {@code print_report_lat_duration}
     * reports it: the operations {@code counted} in the measured span as {@code #iterations}, t_avg the span over
     * that count (halved for a ping-pong, whose count is of round trips) and tps the count over the span. The
     * columns that line does not print come from {@code meter}'s samples of the span ({@code --details-json}).
     */
    static PerfResult durationLatencyResult(MeasuredSpan span, int size, long counted, boolean pingPong,
                                            LatencyMeter meter) {
        double micros = span.measuredNanos() / 1e3;
        double avg = counted == 0 ? 0 : micros / (pingPong ? 2 : 1) / counted;
        double tps = counted * 1e6 / micros;
        LatencyMeter.LatencyStats s = meter.stats();
        LatencyMeter.LatencyStats stats = new LatencyMeter.LatencyStats(counted, s.min(), s.max(), s.typical(), avg,
                s.stdev(), s.p99(), s.p999(), s.curve());
        return new PerfResult(size, counted, tps * size, tps * size, tps, stats);
    }

    /**
     * A completion of a latency run: a failure is an error, except in duration mode once the measured span is over,
     * where it is the peer's run that ended first (each end keeps its own time, and perftest's closes its test
     * connection as soon as its end margin is over): then false, and the run ends.
     */
    private static boolean completedOk(WorkCompletion c, MeasuredSpan span) {
        if (c.isSuccess()) {
            return true;
        }
        if (span != null && span.advance(System.nanoTime(), 0).compareTo(MeasuredSpan.Phase.END_MARGIN) >= 0) {
            return false;
        }
        throw new PerftestException("completion failed on a test queue pair: " + c);
    }

    /** {@code ib_read_lat} and {@code ib_atomic_lat}: one operation at a time, each timed from post to completion. */
    PerfResult clientLatency(PerfVerb verb, boolean compareSwap, int size, long iterations)
            throws InterruptedException {
        return clientLatency(verb, compareSwap, size, iterations, null);
    }

    /**
     * As {@link #clientLatency(PerfVerb, boolean, int, long)}, or with a {@code span} (duration mode,
     * {@code run_iter_lat}): the span begins before the first post, one operation at a time until the end margin
     * is over, and those that complete in the measured span are counted.
     */
    PerfResult clientLatency(PerfVerb verb, boolean compareSwap, int size, long iterations, MeasuredSpan span)
            throws InterruptedException {
        Lane l = lanes[0];
        SendWorkRequest request = verb == PerfVerb.READ ? RdmaRead.of(0, l.buffer.sge(0, size), l.remoteBuffer(size))
                : compareSwap ? AtomicCompareSwap.of(0, l.remoteBuffer(8), 0, 0)
                : AtomicFetchAdd.of(0, l.remoteBuffer(8), 1);
        int reported = verb == PerfVerb.ATOMIC ? 8 : size;
        LatencyMeter meter = new LatencyMeter(false);
        long[] progress = {System.nanoTime()};
        boolean timed = span != null;
        long counted = 0;
        long start = System.nanoTime();
        if (timed) {
            span.begin(start); // perftest sets its first alarm before the first post
        }
        for (long k = 0; timed ? !span.over(System.nanoTime()) : k < iterations; k++) {
            long t0 = System.nanoTime();
            l.qp.postSend(request);
            int n;
            while ((n = poll(progress)) == 0) {
                // bounded by poll
            }
            for (int j = 0; j < n; j++) {
                check(wcs[j]);
            }
            long t1 = System.nanoTime();
            if (!timed) {
                meter.record(t1 - t0);
            } else if (span.measuring(t1)) {
                counted++;
                meter.record(t1 - t0);
            }
        }
        return timed ? durationLatencyResult(span, reported, counted, false, meter)
                : PerfResult.latency(reported, meter, System.nanoTime() - start);
    }

    /** {@link #writeLatency(int, long, boolean, int, MeasuredSpan)} by count. */
    PerfResult writeLatency(int size, long iterations, boolean server, int mailboxOffset) throws InterruptedException {
        return writeLatency(size, iterations, server, mailboxOffset, null);
    }

    /**
     * {@code ib_write_lat}: each end RDMA-Writes {@code size} octets into the other's mailbox (the second half of its
     * buffer, which its dest names), the last octet its count; each waits for the peer's count before it writes the
     * next, and the server writes first ({@code run_iter_lat_write}). Half the time between two of our Writes is one
     * latency sample, as perftest reports it. With a {@code span} (duration mode) each end times itself from the
     * loop's start, counts its Writes completed in the measured span, stops waiting for the peer's count when the
     * end margin is over, and leaves after one more Write then, as perftest does, without waiting for it.
     */
    PerfResult writeLatency(int size, long iterations, boolean server, int mailboxOffset, MeasuredSpan span)
            throws InterruptedException {
        Lane l = lanes[0];
        ByteBuffer memory = l.buffer.buffer();
        SendWorkRequest write = RdmaWrite.of(0, l.buffer.sge(0, size), l.remoteBuffer(size));
        LatencyMeter meter = new LatencyMeter(true);
        boolean timed = span != null;
        long due = timed ? Long.MAX_VALUE : iterations;
        long[] completed = {0};
        long[] counted = {0};
        long sent = 0;
        long received = 0;
        long arrived = 0;
        long last = 0;
        long start = System.nanoTime();
        if (!server) {
            // perftest's server writes first, but an MPA Responder may send nothing before the Initiator's first FPDU
            // (RFC 5044 §7.1.2 rule 4; siw does not hold itself to it, we do): a zero-length RDMA Write, a no-op at
            // any peer (RFC 5041 §5.2), releases the Responder
            l.qp.postSend(RdmaWrite.of(0, l.buffer.sge(0, 0), l.remoteBuffer(0)));
            completed[0]--;
        }
        if (timed) {
            span.begin(start); // run_iter_lat_write: at either end, as the loop begins
        }
        boolean peerDone = false;
        while (timed ? !span.over(System.nanoTime()) && !peerDone
                : sent < due || completed[0] < due || received < due) {
            if (received < due && !(sent < 1 && server)) {
                received++;
                if (awaitMark(memory, mailboxOffset + size - 1, (byte) received, completed, span, counted)) {
                    arrived++;
                }
            }
            if (sent < due) {
                long now = System.nanoTime();
                if (sent > 0 && (!timed || span.measuring(now))) {
                    meter.record(now - last);
                }
                last = now;
                memory.put(size - 1, (byte) ++sent);
                l.qp.postSend(write);
            }
            if (timed && span.over(System.nanoTime())) {
                break; // perftest leaves at its end right after that Write, without its completion
            }
            long[] progress = {System.nanoTime()};
            while (completed[0] < sent && !peerDone) {
                int n = poll(progress);
                peerDone = !completeWrites(n, completed, span, counted);
            }
        }
        if (timed && arrived == 0) {
            throw new PerftestException("none of the peer's RDMA Writes arrived in the run's -D seconds (give both "
                    + "ends the same -s and -D" + (heldHint ? "; " + HELD_HINT : "") + ")");
        }
        return timed ? durationLatencyResult(span, size, counted[0], true, meter)
                : withIterations(PerfResult.latency(size, meter, System.nanoTime() - start), iterations);
    }

    /**
     * Counts {@code n} polled completions of our Writes, those of the measured span in {@code counted} (duration
     * mode); false if one failed after the measured span (the peer has gone, {@link #completedOk}).
     */
    private boolean completeWrites(int n, long[] completed, MeasuredSpan span, long[] counted) {
        boolean sampling = span != null && span.measuring(System.nanoTime());
        boolean ok = true;
        for (int k = 0; k < n; k++) {
            ok &= completedOk(wcs[k], span);
            completed[0]++;
            if (sampling) {
                counted[0]++;
            }
        }
        return ok;
    }

    /**
     * Spins until the peer's RDMA Write put {@code mark} at {@code index}, or (duration mode) the {@code span} is
     * over; counts our Writes' completions meanwhile. Whether the mark arrived.
     */
    private boolean awaitMark(ByteBuffer b, int index, byte mark, long[] completed, MeasuredSpan span,
                              long[] counted) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (long spins = 1; ; spins++) {
            VarHandle.acquireFence();
            if (b.get(index) == mark) {
                return true;
            }
            if (PerfEndpoint.markSpin(spins)) {
                completeWrites(cq.poll(wcs), completed, span, counted);
                long now = System.nanoTime();
                if (span != null && span.over(now)) {
                    return false;
                }
                if (now > deadline) {
                    throw new PerftestException("the peer's RDMA Write " + (mark & 0xff) + " did not arrive within "
                            + WAIT.toSeconds() + " s (give both ends the same -s and -n or -D" + (heldHint ? "; "
                            + HELD_HINT : "") + ")");
                }
            }
        }
    }

    /** {@link #sendLatency(int, long, boolean, int, MeasuredSpan)} by count. */
    PerfResult sendLatency(int size, long iterations, boolean client, int rxDepth) throws InterruptedException {
        return sendLatency(size, iterations, client, rxDepth, null);
    }

    /**
     * {@code ib_send_lat}, after {@link #postSendTestReceives}: a Send ping-pong, the client sends first, each end
     * answers each Send it receives ({@code run_iter_lat_send}); half the time between two of our Sends is a sample.
     * With a {@code span} (duration mode) each end's span begins with the first Send it receives (perftest's
     * {@code set_on_first_rx_packet}: the server's a one-way trip before the client's), every receive is re-posted,
     * the receives of the measured span are counted, and an end stops waiting and answering once its end margin is
     * over (the server first; the client then waits out its own).
     */
    PerfResult sendLatency(int size, long iterations, boolean client, int rxDepth, MeasuredSpan span)
            throws InterruptedException {
        Lane l = lanes[0];
        SendWorkRequest send = Send.of(0, l.buffer.sge(0, size));
        LatencyMeter meter = new LatencyMeter(true);
        boolean timed = span != null;
        long due = timed ? Long.MAX_VALUE : iterations;
        long postedReceives = Math.min(rxDepth, due);
        long sent = 0;
        long received = 0;
        long counted = 0;
        long last = 0;
        long start = System.nanoTime();
        long[] progress = {System.nanoTime()};
        boolean over = false;
        while (!over && (timed || sent < due || received < due)) {
            if (received < due && !(sent < 1 && client)) {
                boolean got = false;
                while (!got && !over) {
                    int n = timed && span.begun() ? cq.poll(wcs, TICK) : poll(progress);
                    for (int k = 0; k < n; k++) {
                        WorkCompletion c = wcs[k];
                        if (!completedOk(c, span)) {
                            over = true;
                        } else if (c.opcode() == CompletionOpcode.RECV) {
                            got = true;
                            received++;
                            long now = System.nanoTime();
                            if (timed && !span.begun()) {
                                span.begin(now);
                            }
                            if (timed && span.measuring(now)) {
                                counted++;
                            }
                            if (postedReceives < due) {
                                l.qp.postReceive(ReceiveWorkRequest.of(RECEIVE_WR_BASE, l.buffer.sge(0, size)));
                                postedReceives++;
                            }
                        }
                    }
                    over |= timed && span.begun() && span.over(System.nanoTime());
                }
            }
            if (!over && sent < due) {
                long now = System.nanoTime();
                if (sent > 0 && (!timed || span.measuring(now))) {
                    meter.record(now - last);
                }
                last = now;
                l.qp.postSend(send);
                sent++;
            }
        }
        return timed ? durationLatencyResult(span, size, counted, true, meter)
                : withIterations(PerfResult.latency(size, meter, System.nanoTime() - start), iterations);
    }

    /** perftest reports the iterations it ran, one more than the intervals between them. */
    private static PerfResult withIterations(PerfResult r, long iterations) {
        return new PerfResult(r.size(), iterations, r.peakBytesPerSecond(), r.avgBytesPerSecond(),
                r.messagesPerSecond(), r.latency(), r.cpu(), r.spread());
    }
}
