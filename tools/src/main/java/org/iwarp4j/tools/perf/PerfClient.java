package org.iwarp4j.tools.perf;

import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.perf.MeasuredSpan.Phase;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;

/**
 * The active end of a perf run: connects with the test in its MPA private data ({@link PerfHello}), then for each
 * size announces a phase, runs it and reports the result to the server. Bandwidth runs keep {@code txDepth}
 * operations in flight with {@link PreparedSend}s (built once, re-posted without allocation); the Send test
 * also respects the server's receive credits (iWARP has no RNR retry). With {@code -q N} the run has N queue
 * pairs ({@link Lane}s, N connections to the same server), each with its own window of {@code txDepth}, all on
 * one completion queue that this one thread polls, as perftest drives its queue pairs: the first also carries
 * the control messages, and the work request id of a data operation names its queue pair.
 */
final class PerfClient extends PerfEndpoint {

    private final PerfConfig config;
    private final MemoryRegion local;
    private final MemoryRegion mailbox;
    private final int receiveSlot;
    private final int receives;
    private final MemoryRegion receiveBuffers;
    /** Views of {@link #local}, {@link #receiveBuffers} and {@link #mailbox}, made once: the loops do not allocate. */
    private final ByteBuffer localMemory;
    private final ByteBuffer receiveMemory;
    private final ByteBuffer mailboxMemory;
    /**
     * One receive per slot of {@link #receiveBuffers}, built once and re-posted as it is after each completion (the
     * Send latency test re-posts one per echo).
     */
    private final ReceiveWorkRequest[] receiveRequests;
    private PerfWelcome welcome;
    private ControlMessage reply;
    private long round;
    /** The queue pairs of the run: {@code lanes[0]} is {@link #qp}. */
    private final Lane[] lanes;
    /** Tells this run's connections from another client's ({@link PerfHello#token()}). */
    private final int token = ThreadLocalRandom.current().nextInt();
    /** The receives of the Send test's credit updates on queue pairs 1.. (queue pair 0 uses the control ones). */
    private final MemoryRegion laneReceives;
    private final ByteBuffer laneReceiveMemory;
    private final ReceiveWorkRequest[] laneReceiveRequests;
    /** The CPU readings of the current measurement: ours at its start and end, the server's at its start. */
    private CpuClock.Sample cpuStart;
    private CpuClock.Sample cpuEnd;
    private CpuClock.Sample serverCpuStart;

    /** A credit update is one 8-octet Send (the server's cumulative count of re-posted receives). */
    private static final int CREDIT_SLOT = 8;
    /** Receives of credit updates on queue pair {@code i > 0}: work request ids from this + i * CONTROL_RECEIVES. */
    private static final long LANE_RECEIVE_BASE = 3_000_000;

    PerfClient(PerfConfig config) {
        super("perf-client", completionQueueCapacity(config), config.stack());
        this.config = config;
        int max = config.maxSize();
        try {
            boolean sendLatency = config.verb() == PerfVerb.SEND && config.latency();
            receiveSlot = sendLatency ? Math.max(ControlMessage.LENGTH, max) : ControlMessage.LENGTH;
            receives = sendLatency ? 4 : CONTROL_RECEIVES;
            receiveBuffers = sendLatency ? pd.allocateRegion(receiveSlot * receives, Access.LOCAL_WRITE)
                    : controlReceives;
            int slots = config.verify() ? config.txDepth() : 1;
            local = switch (config.verb()) {
                case ATOMIC -> pd.allocateRegion(8, Access.LOCAL_WRITE);
                case READ -> pd.allocateRegion(max * slots, Access.LOCAL_WRITE);
                default -> pd.allocateRegion(max * slots);
            };
            mailbox = config.verb() == PerfVerb.WRITE && config.latency()
                    ? pd.allocateRegion(max, Access.LOCAL_WRITE, Access.REMOTE_WRITE) : null;
            latencyRun(config.latency());
            int depth = config.latency() ? 1 : config.txDepth();
            int ord = Math.min(rnic.query().maxIrdOrd(), depth);
            qp = createQueuePair(depth + 16, receives, ord);
            lanes = new Lane[config.qps()];
            lanes[0] = new Lane(0, qp);
            boolean credits = creditBased() && lanes.length > 1;
            laneReceives = credits ? pd.allocateRegion((lanes.length - 1) * CONTROL_RECEIVES * CREDIT_SLOT,
                    Access.LOCAL_WRITE) : null;
            laneReceiveRequests = new ReceiveWorkRequest[credits ? (lanes.length - 1) * CONTROL_RECEIVES : 0];
            for (int i = 1; i < lanes.length; i++) {
                lanes[i] = new Lane(i, createQueuePair(depth + 16, credits ? CONTROL_RECEIVES : 1, ord));
                for (int j = 0; credits && j < CONTROL_RECEIVES; j++) {
                    int slot = (i - 1) * CONTROL_RECEIVES + j;
                    laneReceiveRequests[slot] = ReceiveWorkRequest.of(LANE_RECEIVE_BASE + (long) i * CONTROL_RECEIVES
                            + j, laneReceives.sge(slot * CREDIT_SLOT, CREDIT_SLOT));
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        localMemory = local.buffer();
        receiveMemory = receiveBuffers.buffer();
        mailboxMemory = mailbox == null ? null : mailbox.buffer();
        laneReceiveMemory = laneReceives == null ? null : laneReceives.buffer();
        receiveRequests = new ReceiveWorkRequest[receives];
        for (int i = 0; i < receives; i++) {
            receiveRequests[i] = ReceiveWorkRequest.of(CONTROL_RECEIVE_BASE + i,
                    receiveBuffers.sge(i * receiveSlot, receiveSlot));
        }
    }

    /** Every queue pair's window and the receives, on the one completion queue, with room to spare. */
    private static int completionQueueCapacity(PerfConfig config) {
        int depth = config.latency() ? 1 : config.txDepth();
        return Math.max(4096, config.qps() * (depth + 16 + CONTROL_RECEIVES) + 64);
    }

    /** One queue pair of the run, and its share of a bandwidth measurement. */
    private static final class Lane {
        final int index;
        final QueuePair qp;
        Connection connection;
        long posted;
        long completed;
        /** The Send test's credit accounting with the server, per queue pair (each has its own receives). */
        long sendsToServer;
        long creditsGranted;

        Lane(int index, QueuePair qp) {
            this.index = index;
            this.qp = qp;
        }
    }

    /** perftest's parameter block of this run, once connected. */
    PerftestFormat.TestInfo testInfo() {
        ConnectionParameters p = connection.parameters();
        return new PerftestFormat.TestInfo(config.verb(), config.latency(), config.compareSwap(), true, lanes.length,
                config.latency() ? 1 : config.txDepth(), welcome.receiveCredits(), p.mulpdu(), p.ord(), "IW");
    }

    /**
     * perftest's address lines: each queue pair's, then the server's buffer (our protocol does not carry the
     * server's queue pair numbers: 0).
     */
    List<String> addresses() {
        List<String> lines = new ArrayList<>();
        int ord = connection.parameters().ord();
        MemoryRegion advertised = mailbox != null ? mailbox : local;
        for (Lane l : lanes) {
            lines.add(PerftestFormat.address("local", config.verb(), l.qp.number(), ord, advertised.stag().value(),
                    advertised.address()));
        }
        for (int i = 0; i < lanes.length; i++) {
            lines.add(PerftestFormat.address("remote", config.verb(), 0, ord, welcome.buffer().stag().value(),
                    welcome.buffer().taggedOffset()));
        }
        return lines;
    }

    /** Our own parameter lines ({@code --details}), once connected. */
    List<String> parameters(String remote) {
        ConnectionParameters p = connection.parameters();
        List<String> lines = new ArrayList<>();
        lines.add("Stack           : " + Stacks.stackName(rnic));
        if (config.verb() == PerfVerb.SEND) {
            lines.add("RX depth        : " + welcome.receiveCredits() + " (the server's receive credits)");
        }
        lines.add(String.format("MPA             : rev %d, CRC %s, markers %s/%s, MULPDU %d", p.mpaRevision(),
                p.crc() ? "on" : "off", p.txMarkers() ? "on" : "off", p.rxMarkers() ? "on" : "off", p.mulpdu()));
        lines.add("Data ex. method : MPA private data + Sends (iwarp perf protocol " + PerfHello.VERSION + ")");
        String perQp = lanes.length > 1 ? " and queue pair" : "";
        lines.add(config.durationMode() ? "Duration        : " + config.durationSeconds() + " s per size, "
                + config.measuredSeconds() + " s measured after a margin of " + config.marginSeconds() + " s (-f)"
                : "Iterations      : " + config.iterations() + " per size" + perQp);
        if (config.warmsByTime()) {
            lines.add("Warm-up         : the margin, " + config.marginSeconds() + " s per size, not measured"
                    + (config.latency() ? "" : ", in " + Rehearsals.describe()
                    + " that each end as the measurement starts"));
        } else if (config.warmup() > 0) {
            lines.add("Warm-up         : " + config.warmupPerQp() + " operations per size" + perQp + ", not measured");
        }
        if (config.verify()) {
            lines.add("Verify          : every octet (rounds of " + config.verifyBufferSize() + " octets)");
        }
        lines.add(String.format("local address   : %s STag %s VA 0x%x", connection.localAddress(), local.stag(),
                local.address()));
        lines.add(String.format("remote address  : %s STag %s VA 0x%x", remote, welcome.buffer().stag(),
                welcome.buffer().taggedOffset()));
        return lines;
    }

    void connect(InetSocketAddress server) throws Exception {
        for (int i = 0; i < receives; i++) {
            postReceive(CONTROL_RECEIVE_BASE + i);
        }
        MemoryRegion advertised = mailbox != null ? mailbox : local;
        PerfHello hello = new PerfHello(config.verb(), config.latency(), config.verify(), config.compareSwap(),
                config.maxSize(), config.txDepth(), advertised.remoteBuffer(), config.verifyBufferSize(), lanes.length,
                0, token, config.runToCompletion());
        int ord = config.latency() ? 1 : Math.min(rnic.query().maxIrdOrd(), config.txDepth());
        for (Lane l : lanes) {
            for (int j = 0; l.index > 0 && j < CONTROL_RECEIVES && laneReceives != null; j++) {
                l.qp.postReceive(laneReceiveRequests[(l.index - 1) * CONTROL_RECEIVES + j]);
            }
            try {
                l.connection = Stacks.get(rnic.connect(server, l.qp, config.wire().connect()
                        .privateData(hello.forQueuePair(l.index).encode()).ird(ord).ord(ord).build()), 30);
            } catch (Exception e) {
                throw new PerfFailure("cannot connect " + (l.index == 0 ? "" : "queue pair " + l.index + " ") + "to "
                        + server + ": " + Stacks.describe(e));
            }
            PerfWelcome w = PerfWelcome.decode(l.connection.parameters().peerPrivateData());
            if (l.index == 0) {
                connection = l.connection;
                welcome = w;
            } else if (!w.equals(welcome)) {
                throw new PerfFailure("queue pair " + l.index + ": the server answered " + w + ", queue pair 0 "
                        + welcome);
            }
        }
    }

    private void postReceive(long wrId) {
        qp.postReceive(receiveRequests[(int) (wrId - CONTROL_RECEIVE_BASE)]);
    }

    /** Runs every size, each result a line of {@code report}. */
    void run(PerfReport report, ProgressSink progress) throws Exception {
        for (int size : config.sizes()) {
            report.line(phase(size, progress));
        }
        control(ControlMessage.of(ControlMessage.Type.DONE), ControlMessage.Type.ACK);
    }

    void disconnect() {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Lane l : lanes) {
            if (l.connection != null) {
                closing.add(l.connection.disconnect());
            }
        }
        for (var f : closing) {
            try {
                f.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // the results are in; the peer may have closed first
            }
        }
    }

    private PerfResult phase(int size, ProgressSink progress) throws Exception {
        if (mailbox != null) {
            zero(mailboxMemory);
        }
        // 0: the server echoes until the RESULT (a margin's operations are not counted in advance)
        long total = config.durationMode() || config.warmsByTime() ? 0 : config.iterations() + config.warmup();
        long seed = ++round;
        control(new ControlMessage(ControlMessage.Type.PHASE, size, total, config.durationSeconds() * 1000L, seed, 0,
                0), ControlMessage.Type.READY);
        PerfResult result;
        cpuStart = null;
        cpuEnd = null;
        serverCpuStart = null;
        if (config.latency()) {
            result = latency(size, progress);
        } else if (config.verify() && config.verb() == PerfVerb.WRITE) {
            result = verifiedWrites(size, progress);
        } else {
            result = bandwidth(size, seed, progress);
        }
        ControlMessage ack = control(new ControlMessage(ControlMessage.Type.RESULT, size, result.iterations(),
                Math.round(result.iterations() * 1e9 / Math.max(1, result.messagesPerSecond())),
                Double.doubleToLongBits(result.peakBytesPerSecond()), (long) size * result.iterations(), 0),
                ControlMessage.Type.ACK);
        if (ack.a() != 0) {
            throw new PerfFailure("the server found a wrong octet at offset " + (ack.a() - 1));
        }
        if (cpuStart == null) {
            return result;
        }
        List<CpuUse> cpu = new ArrayList<>();
        cpu.add(cpuEnd.since(cpuStart, config.cpuEnd(), result.bytes()));
        if (!config.loopback() && serverCpuStart != null) {
            cpu.add(ack.cpu().since(serverCpuStart, CpuUse.SERVER, result.bytes()));
        }
        return result.withCpu(cpu);
    }

    /**
     * Between the warm-up and the measured operations of a bandwidth test: START tells the server, whose ACK
     * carries its CPU time; then ours. The RESULT's ACK carries the server's at the end.
     */
    private void startMeasurement() throws Exception {
        serverCpuStart = control(ControlMessage.of(ControlMessage.Type.START), ControlMessage.Type.ACK).cpu();
        cpuStart = CpuClock.now();
    }

    private void endMeasurement() {
        cpuEnd = CpuClock.now();
    }

    /**
     * A latency test's phase: this process's CPU time and the JIT's are read as the measured span begins and ends
     * (the operation in flight meanwhile is not timed across the reading), not the server's: a message would cross
     * the ping-pong.
     */
    private Phase clocked(Phase phase) {
        if (phase == Phase.MEASURED && cpuStart == null) {
            cpuStart = CpuClock.now();
        } else if (phase == Phase.OVER && cpuStart != null && cpuEnd == null) {
            cpuEnd = CpuClock.now();
        }
        return phase;
    }

    // ------------------------------------------------------------------ bandwidth

    private SendWorkRequest dataRequest(int size, int localOffset, long remoteOffset) {
        return dataRequest(size, localOffset, remoteOffset, DATA_WR_ID);
    }

    private SendWorkRequest dataRequest(int size, int localOffset, long remoteOffset, long wrId) {
        RemoteBuffer server = welcome.buffer();
        return switch (config.verb()) {
            case WRITE -> RdmaWrite.of(wrId, local.sge(localOffset, size), server.slice(remoteOffset, size));
            case READ -> RdmaRead.of(wrId, local.sge(localOffset, size), server.slice(remoteOffset, size));
            case SEND -> Send.of(wrId, local.sge(localOffset, size));
            case ATOMIC -> config.compareSwap()
                    ? AtomicCompareSwap.of(wrId, server, 0, 0).withResult(local.sge(0, 8))
                    : AtomicFetchAdd.of(wrId, server, 1).withResult(local.sge(0, 8));
            case TCP -> throw new IllegalStateException("TCP runs without verbs");
        };
    }

    /**
     * Bandwidth with a window of prepared operations per queue pair (one per slot when reads are verified, which
     * runs one queue pair).
     */
    private PerfResult bandwidth(int size, long seed, ProgressSink progress) throws Exception {
        boolean verifyReads = config.verify() && config.verb() == PerfVerb.READ;
        int depth = config.txDepth();
        int slots = verifyReads ? depth : 1;
        int perRound = verifyReads ? config.messagesPerRound(size) : 1;
        PreparedSend[][] prepared = new PreparedSend[lanes.length][verifyReads ? perRound : 1];
        try {
            for (Lane l : lanes) {
                for (int j = 0; j < prepared[l.index].length; j++) {
                    prepared[l.index][j] = l.qp.prepare(dataRequest(size, (j % slots) * size, (long) j * size,
                            dataWrId(l.index)));
                }
            }
            Window w;
            if (config.warmsByTime()) {
                Rehearsals.of(config.marginSeconds(), nanos -> {
                    new Window(prepared, slots, size, seed, verifyReads, MeasuredSpan.warmUp(nanos)).run(null);
                    startMeasurement(); // the window drained, START from this thread: the last one is the real one
                });
                w = new Window(prepared, slots, size, seed, verifyReads, MeasuredSpan.unwarmed(config));
                w.run(null); // no warm-up left: the margin was the rehearsals'
            } else {
                w = new Window(prepared, slots, size, seed, verifyReads, MeasuredSpan.of(config, config.warmupPerQp()));
                w.run(null); // the warm-up: warmupPerQp() operations on each queue pair
                startMeasurement();
            }
            BandwidthMeter m = w.run(progress);
            endMeasurement();
            long[] perQp = new long[lanes.length];
            for (Lane l : lanes) {
                perQp[l.index] = l.completed;
            }
            return PerfResult.bandwidth(size, m).withSpread(PerfResult.QpSpread.of(perQp, m.elapsedNanos()));
        } finally {
            for (PreparedSend[] ps : prepared) {
                for (PreparedSend p : ps) {
                    if (p != null) {
                        p.close();
                    }
                }
            }
        }
    }

    /**
     * The posting/polling loop of a bandwidth measurement: each queue pair keeps up to {@code txDepth} of its
     * prepared operations in flight; one poll of the shared completion queue serves them all.
     */
    private final class Window {
        private final PreparedSend[][] prepared;
        private final int slots;
        private final int size;
        private final long seed;
        private final boolean verifyReads;
        /** The phases: each {@link #run} is the next one, counted on each queue pair. */
        private final MeasuredSpan span;
        private final BandwidthMeter meter = new BandwidthMeter();

        Window(PreparedSend[][] prepared, int slots, int size, long seed, boolean verifyReads, MeasuredSpan span) {
            this.prepared = prepared;
            this.slots = slots;
            this.size = size;
            this.seed = seed;
            this.verifyReads = verifyReads;
            this.span = span;
        }

        private long posted;
        private long completed;
        /** {@link #completed} as the application thread sees it while the loop runs the window. */
        private volatile long completedSoFar;

        /**
         * The span's next phase, from now: its operations on each queue pair, or as many as its time allows; returns
         * once they have all completed.
         */
        BandwidthMeter run(ProgressSink progress) throws Exception {
            long start = System.nanoTime();
            span.next(start, 0);
            meter.start(start);
            for (Lane l : lanes) {
                l.posted = 0;
                l.completed = 0;
            }
            posted = 0;
            completed = 0;
            completedSoFar = 0;
            if (config.runToCompletion()) {
                return onTheLoop(progress);
            }
            while (!fill()) {
                take(poll());
                if (progress != null) {
                    progress.update(completed, completed * size);
                }
            }
            return meter;
        }

        /** Posts while windows and credits allow; true once everything posted has completed and nothing is left. */
        private boolean fill() {
            long now = System.nanoTime();
            int depth = config.txDepth();
            boolean more = false;
            for (Lane l : lanes) {
                PreparedSend[] ops = prepared[l.index];
                while (span.due(now, l.posted) && l.posted - l.completed < depth && credit(l)) {
                    ops[(int) (l.posted % ops.length)].execute();
                    if (creditBased()) {
                        l.sendsToServer++;
                    }
                    l.posted++;
                    posted++;
                }
                more |= span.due(now, l.posted);
            }
            return !more && completed == posted;
        }

        /** Handles the {@code n} completions in {@link #completions}. */
        private void take(int n) throws Exception {
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                if (handleNonData(wc)) {
                    continue;
                }
                Lane l = lanes[laneOf(wc.wrId())];
                if (verifyReads) {
                    long offset = (l.completed % prepared[0].length) * size;
                    int slot = (int) (l.completed % slots) * size;
                    int bad = VerifyPattern.firstMismatch(localMemory, slot, seed, offset, size);
                    if (bad >= 0) {
                        throw new PerfFailure("RDMA Read " + l.completed + " brought a wrong octet at server "
                                + "offset " + (offset + bad));
                    }
                }
                l.completed++;
                completed++;
            }
            meter.record(System.nanoTime(), completed);
        }

        /**
         * Run to completion: the window is kept full by a completion handler on the completion queue's event loop
         * (the queue pairs live there too, see docs/guide.md), started through {@code cq.executor()}; this thread
         * only waits, showing progress, and gives up when nothing completes for {@link #WAIT_SECONDS}.
         */
        private BandwidthMeter onTheLoop(ProgressSink progress) throws Exception {
            LoopDrain<BandwidthMeter> keepFull = new LoopDrain<>() {
                @Override
                int step() throws Exception {
                    if (fill()) {
                        done.complete(meter);
                        return 0;
                    }
                    int n = pollNow();
                    if (n > 0) {
                        take(n);
                        completedSoFar = completed;
                    }
                    return n;
                }
            };
            keepFull.start(cq);
            return awaitOnTheLoop(keepFull.done, () -> completedSoFar, size, progress);
        }
    }

    /** Whether one more Send may go to the server (Send test: receive credits; others: always). */
    private boolean credit(Lane l) {
        return !creditBased() || l.sendsToServer - l.creditsGranted < welcome.receiveCredits();
    }

    /** The Send bandwidth test keeps up to the server's receive count in flight, so it counts credits. */
    private boolean creditBased() {
        return config.verb() == PerfVerb.SEND && !config.latency();
    }

    /**
     * Handles a completion that is not a data completion: a credit update, a control reply (kept in {@link #reply}),
     * a control Send; fails on errors. Returns false for a data completion.
     */
    private boolean handleNonData(WorkCompletion wc) throws Exception {
        check(wc);
        if (wc.opcode() == CompletionOpcode.RECV && wc.wrId() >= LANE_RECEIVE_BASE) {
            int slot = (int) (wc.wrId() - LANE_RECEIVE_BASE - CONTROL_RECEIVES);
            Lane l = lanes[slot / CONTROL_RECEIVES + 1];
            l.creditsGranted = Math.max(l.creditsGranted, laneReceiveMemory.getLong(slot * CREDIT_SLOT));
            l.qp.postReceive(laneReceiveRequests[slot]);
            return true;
        }
        if (wc.opcode() == CompletionOpcode.RECV) {
            ByteBuffer b = receiveMemory;
            int at = (int) (wc.wrId() - CONTROL_RECEIVE_BASE) * receiveSlot;
            if (wc.solicited()) {
                reply = ControlMessage.readFrom(b, at);
            } else if (creditBased()) {
                lanes[0].creditsGranted = Math.max(lanes[0].creditsGranted, b.getLong(at)); // cumulative
            } else {
                postReceive(wc.wrId());
                return false; // an echo (Send latency)
            }
            postReceive(wc.wrId());
            return true;
        }
        return !isDataWrId(wc.wrId()); // control Sends are unsignaled; anything else is ours
    }

    /** Sends a control message and waits for the reply of {@code expected} type (handling credits meanwhile). */
    private ControlMessage control(ControlMessage m, ControlMessage.Type expected) throws Exception {
        if (creditBased()) {
            while (!credit(lanes[0])) {
                int n = poll();
                for (int i = 0; i < n; i++) {
                    if (!handleNonData(completions[i])) {
                        throw new PerfFailure("unexpected completion " + completions[i]);
                    }
                }
            }
            lanes[0].sendsToServer++;
        }
        reply = null;
        sendControl(m);
        while (reply == null) {
            int n = poll();
            for (int i = 0; i < n; i++) {
                if (!handleNonData(completions[i])) {
                    throw new PerfFailure("unexpected completion " + completions[i] + " while waiting for " + expected);
                }
            }
        }
        if (reply.type() != expected) {
            throw new PerfFailure("expected " + expected + " from the server, got " + reply.type());
        }
        return reply;
    }

    // ------------------------------------------------------------------ verified writes

    /**
     * RDMA Writes in rounds that fill the server's verification buffer with {@link VerifyPattern}; after each round
     * (the Writes completed, and RFC 5040 §5.5 places them before the later Send) a VERIFY message makes the server
     * check every octet of it.
     */
    private PerfResult verifiedWrites(int size, ProgressSink progress) throws Exception {
        int depth = config.txDepth();
        int perRound = config.messagesPerRound(size);
        PreparedSend[] prepared = new PreparedSend[perRound];
        BandwidthMeter meter = new BandwidthMeter();
        try {
            for (int j = 0; j < perRound; j++) {
                prepared[j] = qp.prepare(dataRequest(size, (j % depth) * size, (long) j * size));
            }
            startMeasurement();
            long start = System.nanoTime();
            MeasuredSpan span = MeasuredSpan.unwarmed(config);
            span.begin(start);
            meter.start(start);
            long posted = 0;
            long completed = 0;
            long verifyRound = 0;
            while (true) {
                boolean more = span.due(System.nanoTime(), posted);
                boolean roundFull = posted > 0 && posted % perRound == 0 && posted / perRound > verifyRound;
                while (more && !roundFull && posted - completed < depth) {
                    int j = (int) (posted % perRound);
                    VerifyPattern.fill(localMemory, (j % depth) * size, round * 1_000_000 + posted / perRound,
                            (long) j * size, size);
                    prepared[j].execute();
                    posted++;
                    roundFull = posted % perRound == 0;
                    more = span.due(System.nanoTime(), posted);
                }
                if (completed == posted && posted > 0 && (roundFull || !more) && posted > verifyRound * perRound) {
                    long inRound = posted - verifyRound * perRound;
                    ControlMessage ack = control(new ControlMessage(ControlMessage.Type.VERIFY, size, inRound,
                            round * 1_000_000 + verifyRound, 0, 0, 0), ControlMessage.Type.ACK);
                    if (ack.a() != 0) {
                        throw new PerfFailure("round " + verifyRound + ": the server found a wrong octet at offset "
                                + (ack.a() - 1));
                    }
                    verifyRound++;
                    continue;
                }
                if (!more && completed == posted) {
                    endMeasurement();
                    return PerfResult.bandwidth(size, meter);
                }
                int n = poll();
                for (int i = 0; i < n; i++) {
                    if (!handleNonData(completions[i])) {
                        completed++;
                    }
                }
                meter.record(System.nanoTime(), completed);
                if (progress != null) {
                    progress.update(completed, completed * size);
                }
            }
        } finally {
            for (PreparedSend p : prepared) {
                if (p != null) {
                    p.close();
                }
            }
        }
    }

    // ------------------------------------------------------------------ latency

    private PerfResult latency(int size, ProgressSink progress) throws Exception {
        boolean pingPong = config.verb() == PerfVerb.WRITE || config.verb() == PerfVerb.SEND;
        LatencyMeter meter = new LatencyMeter(pingPong);
        PreparedSend op = qp.prepare(config.verb() == PerfVerb.WRITE
                ? RdmaWrite.of(DATA_WR_ID, local.sge(0, size), welcome.buffer()).withFlags(Set.of())
                : dataRequest(size, 0, 0));
        try {
            if (config.runToCompletion()) {
                return latencyOnTheLoop(op, size, meter, progress);
            }
            MeasuredSpan span = MeasuredSpan.of(config, config.warmup());
            span.begin(System.nanoTime());
            for (long i = 0; ; i++) {
                Phase phase = clocked(span.advance(System.nanoTime(), i));
                if (phase == Phase.OVER) {
                    return PerfResult.latency(size, meter, span.measuredNanos());
                }
                boolean measured = phase == Phase.MEASURED;
                once(op, size, i, measured ? meter : null);
                if (measured && progress != null) {
                    progress.update(meter.count(), meter.count() * size);
                }
            }
        } finally {
            op.close();
        }
    }

    /**
     * Run to completion: a completion handler on the event loop posts each operation as the previous one's data
     * completion arrives (Read, Atomic, Send) or the server's RDMA Write puts its mark in the mailbox (Write), and
     * times it there; this thread only waits and shows progress.
     */
    private PerfResult latencyOnTheLoop(PreparedSend op, int size, LatencyMeter meter, ProgressSink progress)
            throws Exception {
        boolean write = config.verb() == PerfVerb.WRITE;
        CompletionOpcode opcode = switch (config.verb()) {
            case SEND -> CompletionOpcode.RECV;
            case READ -> CompletionOpcode.RDMA_READ;
            case WRITE -> null; // the Write back is seen in memory; an unsignaled Write completes only on failure
            default -> config.compareSwap() ? CompletionOpcode.ATOMIC_CMP_SWAP : CompletionOpcode.ATOMIC_FETCH_ADD;
        };
        MeasuredSpan span = MeasuredSpan.of(config, config.warmup());
        span.begin(System.nanoTime());
        LoopDrain<Long> pingPong = new LoopDrain<>() {
            private long i;
            private long t0;
            /** Whether operation {@code i} is measured: it began in the measured span. */
            private boolean measured;

            /** Posts operation {@code i}, or completes the run with the measured span's time once it is over. */
            private void next() {
                Phase phase = clocked(span.advance(System.nanoTime(), i));
                if (phase == Phase.OVER) {
                    done.complete(span.measuredNanos());
                    return;
                }
                measured = phase == Phase.MEASURED;
                if (write) {
                    localMemory.put(size - 1, mark(i));
                }
                t0 = System.nanoTime();
                op.execute();
            }

            @Override
            boolean pollsMemory() {
                return write;
            }

            @Override
            int step() throws Exception {
                if (t0 == 0) {
                    next(); // the first call, from the executor
                }
                int n = pollNow();
                boolean got = false;
                for (int k = 0; k < n; k++) {
                    WorkCompletion wc = completions[k];
                    if (write) {
                        check(wc);
                    } else {
                        got |= !handleNonData(wc) && wc.opcode() == opcode;
                    }
                }
                if (write) {
                    VarHandle.acquireFence();
                    got = mailboxMemory.get(size - 1) == mark(i);
                }
                if (got) {
                    long t = System.nanoTime() - t0;
                    if (measured) {
                        meter.record(t);
                    }
                    i++;
                    next();
                }
                return n;
            }
        };
        pingPong.start(cq);
        long elapsed = awaitOnTheLoop(pingPong.done, meter::count, size, progress);
        return PerfResult.latency(size, meter, elapsed);
    }

    /**
     * Waits for a run on the event loop, showing progress; gives up after {@link #WAIT_SECONDS} without progress
     * ({@code count} did not move), stopping the handler (its next call sees {@code done} complete).
     */
    private <T> T awaitOnTheLoop(CompletableFuture<T> done, LongSupplier count, int size,
                                 ProgressSink progress) throws Exception {
        long seen = -1;
        long quietSince = System.nanoTime();
        while (true) {
            try {
                return done.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                long now = count.getAsLong();
                if (progress != null) {
                    progress.update(now, now * size);
                }
                if (now != seen) {
                    seen = now;
                    quietSince = System.nanoTime();
                } else if (System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(WAIT_SECONDS)) {
                    cq.disarm();
                    done.cancel(false);
                    throw new PerfFailure("no completion for " + WAIT_SECONDS + " s (peer gone?)");
                }
            } catch (ExecutionException e) {
                throw LoopDrain.failure(e);
            }
        }
    }

    /** The mark of the Write ping-pong's operation {@code i} in the last octet: 1..255, never the zeroed 0. */
    static byte mark(long i) {
        return (byte) (i % 255 + 1);
    }

    /**
     * One timed operation: a Read or Atomic to its completion, a Send to its echo, a Write to the server's Write back.
     */
    private void once(PreparedSend op, int size, long i, LatencyMeter meter) throws Exception {
        byte mark = mark(i);
        if (config.verb() == PerfVerb.WRITE) {
            localMemory.put(size - 1, mark);
        }
        long t0 = System.nanoTime();
        op.execute();
        switch (config.verb()) {
            case WRITE -> awaitMark(mailboxMemory, size - 1, mark);
            case SEND -> awaitData(CompletionOpcode.RECV);
            case READ -> awaitData(CompletionOpcode.RDMA_READ);
            default -> awaitData(config.compareSwap() ? CompletionOpcode.ATOMIC_CMP_SWAP
                    : CompletionOpcode.ATOMIC_FETCH_ADD);
        }
        long t = System.nanoTime() - t0;
        if (meter != null) {
            meter.record(t);
        }
    }

    /** Waits for the data completion {@code opcode} (a Send's own completion is skipped). */
    private void awaitData(CompletionOpcode opcode) throws Exception {
        while (true) {
            int n = poll();
            boolean got = false;
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                boolean data = !handleNonData(wc);
                if (data && wc.opcode() == opcode) {
                    got = true;
                }
            }
            if (got) {
                return;
            }
        }
    }

    /**
     * Spins until the server's RDMA Write put {@code mark} at {@code index} (perftest's write_lat polls memory too).
     */
    private void awaitMark(ByteBuffer b, int index, byte mark) throws Exception {
        long spins = 0;
        long deadline = 0;
        while (true) {
            VarHandle.acquireFence();
            if (b.get(index) == mark) {
                return;
            }
            if (markSpin(++spins)) {
                if (pollNow() > 0) {
                    check(completions[0]); // an unsignaled Write reports only failures
                }
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + WAIT_SECONDS * 1_000_000_000L;
                } else if (now > deadline) {
                    throw new PerfFailure("the server's RDMA Write did not arrive within " + WAIT_SECONDS + " s");
                }
            }
        }
    }

    /** Where a run publishes its counters for the progress line. */
    interface ProgressSink {
        void update(long operations, long bytes);
    }
}
