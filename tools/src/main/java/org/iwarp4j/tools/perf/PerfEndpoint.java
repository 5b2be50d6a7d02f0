package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;
import java.util.Set;
import java.time.Duration;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;

/**
 * What both perf ends share: an RNIC, one completion queue for sends and receives (so one waiting thread sees
 * data completions, credits and control messages in order), the control receive buffers (re-posted after
 * each use) and the control Send (Solicited Event, RFC 5040 §5.3: how a receiver tells control from data).
 */
abstract class PerfEndpoint implements AutoCloseable {

    static final long DATA_WR_ID = 1;
    static final long CONTROL_SEND_WR_ID = 2;
    static final long CREDIT_SEND_WR_ID = 3;
    static final long CONTROL_RECEIVE_BASE = 1_000_000;
    static final int CONTROL_RECEIVES = 16;
    /** The data operations of queue pair {@code i > 0} of a {@code -q} run have work request id this + i. */
    static final long LANE_DATA_WR_BASE = 100_000;
    static final long WAIT_SECONDS = 30;
    private static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);
    /**
     * Whether this machine has a core for each busy thread of a loopback run (two event loops, two application
     * threads). Spinning through a bandwidth run pays only then: with fewer cores a spinning application thread
     * takes the CPU the event loops need to move its data (measured on 2 cores: 64-octet RDMA Writes 0.20 Mpps
     * spinning, 0.60 Mpps sleeping on the completion queue).
     */
    static final boolean CORES_TO_SPIN = Runtime.getRuntime().availableProcessors() >= 4;
    /**
     * Poll this long before sleeping on the completion queue (perftest polls all the time; a sleeping thread
     * costs a wake-up per batch of completions, tens of microseconds): always in a latency run, where one
     * operation is in flight and the event loops are mostly idle (on 2 cores about the same typical latency
     * and a lower 99th percentile than sleeping); in a bandwidth run only where {@link #CORES_TO_SPIN}. The
     * verbs API waits without spinning ({@link CompletionQueue#poll(WorkCompletion[], Duration)} parks at once),
     * so the spin is ours.
     */
    static final long SPIN_NANOS = Long.getLong("iwarp.perf.spinNanos", 1_000_000);
    /** Whether a bandwidth run spins too: with cores to spare, or when {@code iwarp.perf.spinNanos} says so. */
    private static final boolean BANDWIDTH_SPINS = CORES_TO_SPIN || System.getProperty("iwarp.perf.spinNanos") != null;

    /**
     * While polling memory for a peer's RDMA Write (which nothing announces), yield the core after this many
     * spins (a mask): rarely with cores to spare, at once without, so that the event loops run.
     */
    static final long MARK_YIELD_MASK = Long.getLong("iwarp.perf.markYieldMask", CORES_TO_SPIN ? 0xFFF : 0);

    final Rnic rnic;
    final ProtectionDomain pd;
    /** The one completion queue of every queue pair of this end ({@link #ensureCompletionQueue} may replace it). */
    CompletionQueue cq;
    /** How long {@link #poll()} spins before it sleeps, as {@link #latencyRun} chose. */
    private long spinNanos = SPIN_NANOS;
    final MemoryRegion controlReceives;
    final MemoryRegion controlSend;
    /** Views of {@link #controlReceives} and {@link #controlSend}, made once: every control message uses them. */
    private final ByteBuffer controlReceiveMemory;
    private final ByteBuffer controlSendMemory;
    /** The most completions one poll of the completion queue takes (perftest's "CQE Poll Batch"). */
    static final int POLL_BATCH = 64;
    final WorkCompletion[] completions = WorkCompletion.array(POLL_BATCH);
    QueuePair qp;
    Connection connection;
    private final SendWorkRequest controlSendRequest;

    PerfEndpoint(String name, int cqCapacity, StackSettings stack) {
        rnic = stack.openRnic(name);
        try {
            pd = rnic.allocateProtectionDomain();
            cq = rnic.createCompletionQueue(cqCapacity);
            controlReceives = pd.allocateRegion(CONTROL_RECEIVES * ControlMessage.LENGTH, Access.LOCAL_WRITE);
            controlSend = pd.allocateRegion(ControlMessage.LENGTH);
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
        controlReceiveMemory = controlReceives.buffer();
        controlSendMemory = controlSend.buffer();
        controlSendRequest = SendWorkRequest.Send.of(CONTROL_SEND_WR_ID, controlSend)
                .withFlags(Set.of(SendFlag.SOLICITED));
    }

    /** Chooses how {@link #poll()} waits: spinning for a latency run, as {@link #SPIN_NANOS} says. */
    void latencyRun(boolean latency) {
        spinNanos = latency || BANDWIDTH_SPINS ? SPIN_NANOS : 0;
    }

    /**
     * Replaces the completion queue by one of {@code capacity} if that is larger; only before the first queue pair
     * is created (an overflowing completion queue fails its queue pairs).
     */
    void ensureCompletionQueue(int capacity) {
        if (capacity > cq.capacity()) {
            if (qp != null) {
                throw new IllegalStateException("the completion queue has queue pairs");
            }
            cq.close();
            cq = rnic.createCompletionQueue(capacity);
        }
    }

    /** The work request id of queue pair {@code lane}'s data operations. */
    static long dataWrId(int lane) {
        return lane == 0 ? DATA_WR_ID : LANE_DATA_WR_BASE + lane;
    }

    /** Whether {@code wrId} is a data operation's ({@link #dataWrId}). */
    static boolean isDataWrId(long wrId) {
        return wrId == DATA_WR_ID || wrId > LANE_DATA_WR_BASE && wrId < LANE_DATA_WR_BASE + PerfOptions.MAX_QPS;
    }

    /** The queue pair of a data operation's work request id. */
    static int laneOf(long dataWrId) {
        return dataWrId == DATA_WR_ID ? 0 : (int) (dataWrId - LANE_DATA_WR_BASE);
    }

    QueuePair createQueuePair(int maxSendWr, int maxRecvWr, int irdOrd) {
        return pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(maxSendWr).maxRecvWr(maxRecvWr).maxSge(1)
                .maxInlineData(64).ird(irdOrd).ord(irdOrd).rfc7306(true).build());
    }

    void postControlReceives() {
        for (int i = 0; i < CONTROL_RECEIVES; i++) {
            postControlReceive(CONTROL_RECEIVE_BASE + i);
        }
    }

    void postControlReceive(long wrId) {
        int i = (int) (wrId - CONTROL_RECEIVE_BASE);
        qp.postReceive(ReceiveWorkRequest.of(wrId,
                controlReceives.sge(i * ControlMessage.LENGTH, ControlMessage.LENGTH)));
    }

    static boolean isControlReceive(WorkCompletion wc) {
        return wc.opcode() == CompletionOpcode.RECV && wc.wrId() >= CONTROL_RECEIVE_BASE
                && wc.wrId() < CONTROL_RECEIVE_BASE + CONTROL_RECEIVES;
    }

    /** The control message a receive completion delivered into a control buffer. */
    ControlMessage controlMessage(WorkCompletion wc) {
        return ControlMessage.readFrom(controlReceiveMemory, (int) (wc.wrId() - CONTROL_RECEIVE_BASE)
                * ControlMessage.LENGTH);
    }

    void sendControl(ControlMessage m) {
        m.writeTo(controlSendMemory);
        qp.postSend(controlSendRequest);
    }

    /** Fails on any unsuccessful completion, naming it (and its Terminate). */
    static void check(WorkCompletion wc) throws PerfFailure {
        if (!wc.isSuccess()) {
            throw new PerfFailure(wc.status().isFlush() ? "the connection ended: " + wc
                    : "completion failed: " + wc);
        }
    }

    /**
     * Fills {@link #completions}: spins for up to {@link #spinNanos}, then sleeps on the completion queue; fails when
     * nothing completes within {@link #WAIT_SECONDS}.
     */
    int poll() throws PerfFailure, InterruptedException {
        int n = pollOnce();
        if (n == 0) {
            throw new PerfFailure("no completion for " + WAIT_SECONDS + " s (peer gone?)");
        }
        return n;
    }

    /**
     * Like {@link #poll()}, but without its time limit for as long as {@code connection} lasts: the server of a
     * one-sided test (Write, Read, Atomic) sees no completion for a whole phase, however long the client makes it.
     */
    int pollWhileConnected() throws PerfFailure, InterruptedException {
        while (true) {
            int n = pollOnce();
            if (n > 0) {
                return n;
            }
            if (connection == null || connection.closeFuture().isDone()) {
                throw new PerfFailure("no completion for " + WAIT_SECONDS + " s and the connection ended");
            }
        }
    }

    /** Spins (a latency run), then waits up to {@link #WAIT_SECONDS}; the number of completions, maybe 0. */
    private int pollOnce() throws InterruptedException {
        int n = cq.poll(completions);
        if (n == 0 && spinNanos > 0) {
            n = spin();
        }
        if (n == 0) {
            n = cq.poll(completions, WAIT);
        }
        return n;
    }

    /** perftest's busy polling, for {@link #spinNanos}; yields now and then: the event loops may need this core. */
    private int spin() {
        long until = System.nanoTime() + spinNanos;
        for (int spins = 1; System.nanoTime() < until; spins++) {
            if ((spins & 0x3F) == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            int n = cq.poll(completions);
            if (n > 0) {
                return n;
            }
        }
        return 0;
    }

    /**
     * One turn of a memory-polling loop ({@link #MARK_YIELD_MASK}); returns true every 4096 spins, when the
     * caller checks its completion queue and its deadline.
     */
    static boolean markSpin(long spins) {
        if ((spins & MARK_YIELD_MASK) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return (spins & 0xFFF) == 0;
    }

    /** Polls without waiting. */
    int pollNow() {
        return cq.poll(completions);
    }

    static void zero(ByteBuffer b) {
        for (int i = 0; i < b.capacity(); i += 8) {
            if (i + 8 <= b.capacity()) {
                b.putLong(i, 0);
            } else {
                for (int j = i; j < b.capacity(); j++) {
                    b.put(j, (byte) 0);
                }
            }
        }
    }

    @Override
    public void close() {
        rnic.close();
    }
}
