package org.iwarp4j.tools.perf;

import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iwarp4j.tools.cli.StackSettings;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.Listener;

/**
 * The passive end of a perf run: serves one client. It sizes its memory from the client's {@link PerfHello},
 * answers with a {@link PerfWelcome}, and then follows the client's control messages: it echoes in the
 * ping-pong tests, keeps receives posted and returns credits in the Send test, checks every octet of each
 * verification round, and reports each result line. A client of {@code -q N} connects N times: the server
 * accepts the N queue pairs of that run (same test and token, indexes in order) and refuses anyone else.
 */
final class PerfServer implements AutoCloseable {

    private final InetSocketAddress bind;
    private final WireOptions wire;
    private final Session session;
    /** Connection requests not yet answered; once the run has all its queue pairs, new ones are refused. */
    private final BlockingQueue<ConnectionRequest> requests = new LinkedBlockingQueue<>();
    private boolean full;
    private Listener listener;

    PerfServer(InetSocketAddress bind, WireOptions wire, StackSettings stack, Reporter reporter) {
        this.bind = bind;
        this.wire = wire;
        this.session = new Session(reporter, stack);
    }

    /** Binds (the listener exists when this returns); returns the port, e.g. after binding port 0. */
    int listen() {
        listener = session.rnic.listen(bind, wire.listen().build(), r -> {
            synchronized (requests) {
                if (full) {
                    busy(r);
                } else {
                    requests.add(r);
                }
            }
        });
        return listener.localAddress().getPort();
    }

    /**
     * {@code --persistent}: refuse every request as busy until {@link #ready()} (the next client's server listens
     * while the current test still runs, so that the port is never closed between clients).
     */
    void refuseUntilReady() {
        synchronized (requests) {
            full = true;
        }
    }

    /** Takes requests again (after {@link #refuseUntilReady()}). */
    void ready() {
        synchronized (requests) {
            full = false;
        }
    }

    /** Stops listening; the accepted connections of the run stay up. */
    void closeListener() {
        if (listener != null) {
            listener.close();
            listener = null;
        }
    }

    private static void busy(ConnectionRequest r) {
        r.reject("busy: one client at a time".getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Waits for the client, sizes the memory for its test and accepts it, then each further queue pair of its run;
     * returns the test. A request that is no perf client's first queue pair is rejected and thrown as
     * {@link Rejected}; nothing was set up for it, so this server may {@code accept()} again on the same listener.
     */
    PerfHello accept() throws Exception {
        ConnectionRequest r = requests.take();
        PerfHello hello;
        try {
            hello = PerfHello.decode(r.privateData());
            if (hello.qpIndex() != 0) {
                throw new IllegalArgumentException("queue pair " + hello.qpIndex() + " of a run came first");
            }
        } catch (IllegalArgumentException e) {
            r.reject(("iwarp perf: " + e.getMessage()).getBytes(StandardCharsets.US_ASCII));
            throw new Rejected("rejected a connection from " + r.remoteAddress() + ": " + e.getMessage());
        }
        session.prepare(hello, r);
        for (int i = 1; i < hello.qps(); i++) {
            session.acceptLane(i, nextQueuePair(hello, i));
        }
        synchronized (requests) {
            full = true;
            for (ConnectionRequest extra; (extra = requests.poll()) != null; ) {
                busy(extra);
            }
        }
        return hello;
    }

    /** A request was rejected before anything was set up for it: the server still listens and may accept again. */
    static final class Rejected extends Exception {

        private static final long serialVersionUID = 1L;

        Rejected(String message) {
            super(message);
        }
    }

    /** The request of queue pair {@code index} of {@code hello}'s run; others meanwhile are refused as busy. */
    private ConnectionRequest nextQueuePair(PerfHello hello, int index) throws Exception {
        long deadline = System.nanoTime() + PerfEndpoint.WAIT_SECONDS * 1_000_000_000L;
        while (true) {
            ConnectionRequest r = requests.poll(Math.max(0, deadline - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            if (r == null) {
                throw new PerfFailure("queue pair " + index + " of " + hello.qps() + " did not connect within "
                        + PerfEndpoint.WAIT_SECONDS + " s");
            }
            try {
                PerfHello h = PerfHello.decode(r.privateData());
                if (h.sameRun(hello) && h.qpIndex() == index) {
                    return r;
                }
            } catch (IllegalArgumentException e) {
                // not of this run
            }
            busy(r);
        }
    }

    /** Serves the accepted client until it is done and disconnected. */
    void serve() throws Exception {
        session.serve();
    }

    Rnic rnic() {
        return session.rnic;
    }

    Connection connection() {
        return session.connection;
    }

    /** The test's memory and receives, as the server advertised them to the client. */
    PerfWelcome welcome() {
        return session.welcome;
    }

    /** The numbers of the run's queue pairs, in order. */
    List<Integer> queuePairNumbers() {
        List<Integer> numbers = new ArrayList<>();
        for (var lane : session.lanes) {
            numbers.add(lane.qp.number());
        }
        return numbers;
    }

    @Override
    public void close() {
        try {
            if (listener != null) {
                listener.close();
            }
        } finally {
            session.close();
        }
    }

    /** The server's queue pairs, memory and loop. */
    static final class Session extends PerfEndpoint {

        /** Data receive {@code j} of queue pair {@code i} (Send test) has work request id this + i * receives + j. */
        private static final long DATA_RECEIVE_BASE = 2_000_000;
        private final Reporter reporter;
        private PerfHello hello;
        private MemoryRegion target;
        /** The Send test's receives of queue pairs 1..: their data is not kept, and must not overwrite control. */
        private MemoryRegion sink;
        private MemoryRegion echo;
        private int dataReceives;
        private int irdOrd;
        private ServerLane[] lanes;
        private PerfWelcome welcome;
        private int phaseSize;
        private long phaseSeed;
        private PreparedSend echoSend;
        /** The Write ping-pong: the Write back of this phase, null when none is due. */
        private PreparedSend echoBack;
        /** Views of the target and of the echo region, made once a phase: the echo loop does not allocate. */
        private ByteBuffer echoIn;
        private ByteBuffer echoOut;
        private long echoIndex;
        /** The phase's operations, or 0: until the client's next control message. */
        private long echoCount;
        private int echoSize;
        /** The server's CPU time at the client's START (bandwidth tests), until the RESULT. */
        private CpuClock.Sample cpuStart;

        Session(Reporter reporter, StackSettings stack) {
            super("perf-server", 1 << 16, stack);
            this.reporter = reporter;
        }

        private void prepare(PerfHello h, ConnectionRequest r) throws Exception {
            this.hello = h;
            latencyRun(h.latency());
            int max = Math.max(h.maxSize(), 8);
            boolean sendTest = h.verb() == PerfVerb.SEND;
            int length = h.verify() ? h.verifyBufferSize() : sendTest ? Math.max(max, ControlMessage.LENGTH) : max;
            target = switch (h.verb()) {
                case WRITE -> pd.allocateRegion(length, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
                case READ -> pd.allocateRegion(length, Access.REMOTE_READ);
                case ATOMIC -> pd.allocateRegion(8, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
                default -> pd.allocateRegion(length, Access.LOCAL_WRITE);
            };
            if (h.latency() && (h.verb() == PerfVerb.WRITE || sendTest)) {
                echo = pd.allocateRegion(max);
            }
            dataReceives = sendTest ? (h.latency() ? 4 : Math.max(4, h.txDepth() * 4)) : 0;
            irdOrd = Math.min(rnic.query().maxIrdOrd(), Math.max(1, h.txDepth()));
            if (sendTest && h.qps() > 1) {
                sink = pd.allocateRegion(length, Access.LOCAL_WRITE);
            }
            // every queue pair's receives (and their flush at the end) fit in the one completion queue
            ensureCompletionQueue(h.qps() * (Math.max(dataReceives, CONTROL_RECEIVES) + 64) + 64);
            lanes = new ServerLane[h.qps()];
            welcome = new PerfWelcome(dataReceives, target.remoteBuffer());
            acceptLane(0, r);
        }

        /**
         * Creates queue pair {@code index} with its receives and accepts {@code r} on it: IRD/ORD as the client asks
         * (RFC 6581 §9.1, at most the RNIC's limit), the test's memory in the Reply's private data.
         */
        private void acceptLane(int index, ConnectionRequest r) throws Exception {
            boolean sendTest = hello.verb() == PerfVerb.SEND;
            QueuePair q = createQueuePair(64, sendTest ? dataReceives : index == 0 ? CONTROL_RECEIVES : 1, irdOrd);
            if (index == 0) {
                qp = q;
            }
            ServerLane lane = new ServerLane(index, q);
            lanes[index] = lane;
            if (sendTest) {
                lane.receiveData(index == 0 ? target : sink);
            } else if (index == 0) {
                postControlReceives();
            }
            int maxIrdOrd = rnic.query().maxIrdOrd();
            OptionalInt ird = Stacks.atMost(r.ord(), maxIrdOrd);
            OptionalInt ord = Stacks.atMost(r.ird(), maxIrdOrd);
            lane.connection = Stacks.get(r.accept(q, new AcceptOptions(welcome.encode(), ird, ord)), 30);
            if (index == 0) {
                connection = lane.connection;
            }
        }

        /** One queue pair of the run and, in the Send test, its receives and credit updates. */
        private final class ServerLane {
            final int index;
            final QueuePair qp;
            Connection connection;
            /** The view of the credit count, made once: the receive loop writes every count there. */
            ByteBuffer creditCount;
            SendWorkRequest creditRequest;
            ReceiveWorkRequest[] dataReceiveRequests;
            long reposted;
            long reported;

            ServerLane(int index, QueuePair qp) {
                this.index = index;
                this.qp = qp;
            }

            /** Posts the Send test's receives, all over {@code into} (the data is not kept): built once, re-posted. */
            void receiveData(MemoryRegion into) {
                MemoryRegion credits = pd.allocateRegion(8);
                creditCount = credits.buffer();
                creditRequest = Send.of(CREDIT_SEND_WR_ID, credits).withFlags(Set.of()); // unsignaled
                dataReceiveRequests = new ReceiveWorkRequest[dataReceives];
                for (int i = 0; i < dataReceives; i++) {
                    dataReceiveRequests[i] = ReceiveWorkRequest.of(DATA_RECEIVE_BASE + (long) index * dataReceives + i,
                            into.sge());
                    qp.postReceive(dataReceiveRequests[i]);
                }
            }

            /** Re-posts receive {@code i}; every quarter of the receives, tells the client its credit. */
            void repost(int i) {
                qp.postReceive(dataReceiveRequests[i]);
                reposted++;
                if (!hello.latency() && reposted - reported >= Math.max(1, dataReceives / 4)) {
                    creditCount.putLong(0, reposted);
                    reported = reposted;
                    qp.postSend(creditRequest);
                }
            }
        }

        PerfHello hello() {
            return hello;
        }

        /**
         * Serves the client until its DONE (however long its phases are); then waits for it to disconnect. A client
         * that runs to completion has the server do so too.
         */
        void serve() throws Exception {
            if (hello.runToCompletion()) {
                serveOnTheLoop();
            } else {
                while (!take(pollWhileConnected())) {
                    // until DONE
                }
            }
            for (ServerLane l : lanes) {
                Stacks.get(l.connection.closeFuture(), WAIT_SECONDS);
            }
        }

        /** Handles the {@code n} completions in {@link #completions}; true at DONE. */
        private boolean take(int n) throws Exception {
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                check(wc);
                if (wc.opcode() != CompletionOpcode.RECV) {
                    continue; // our Sends (unsignaled: only errors would show)
                }
                ControlMessage m = receive(wc);
                if (m != null && handle(m)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Run to completion: a completion handler on the completion queue's event loop (where the queue pairs live)
         * takes every completion, so the Send test's receives are re-posted and its credits returned, and the Send
         * ping-pong echoed, by the loop that moved the octets; this thread waits for DONE, or fails when the
         * connection ends first.
         */
        private void serveOnTheLoop() throws Exception {
            LoopDrain<Void> serveAll = new LoopDrain<>() {
                @Override
                boolean pollsMemory() {
                    return hello.latency() && hello.verb() == PerfVerb.WRITE;
                }

                @Override
                int step() throws Exception {
                    int n = pollNow();
                    if (n > 0 && take(n)) {
                        done.complete(null);
                    }
                    return n + (echoBack != null ? echoWriteOnce() : 0);
                }
            };
            CompletableFuture<Void> done = serveAll.done;
            serveAll.start(cq);
            while (true) {
                try {
                    done.get(WAIT_SECONDS, TimeUnit.SECONDS);
                    return;
                } catch (TimeoutException e) {
                    if (connection.closeFuture().isDone()) {
                        cq.disarm();
                        done.cancel(false);
                        throw new PerfFailure("no completion for " + WAIT_SECONDS + " s and the connection ended");
                    }
                } catch (ExecutionException e) {
                    throw LoopDrain.failure(e);
                }
            }
        }

        /** A receive completion: re-posts it; returns the control message it carried, or null for data. */
        private ControlMessage receive(WorkCompletion wc) throws Exception {
            if (isControlReceive(wc)) {
                ControlMessage m = controlMessage(wc);
                postControlReceive(wc.wrId());
                return m;
            }
            // The Send test: data and control land in the same receives; control (queue pair 0's) has the SE flag.
            long n = wc.wrId() - DATA_RECEIVE_BASE;
            ServerLane lane = lanes[(int) (n / dataReceives)];
            ControlMessage m = wc.solicited() && lane.index == 0 ? ControlMessage.readFrom(target.buffer(), 0) : null;
            long size = wc.byteLength();
            lane.repost((int) (n % dataReceives));
            if (m == null && hello.latency()) {
                echo((int) size);
            }
            return m;
        }

        /** The Send ping-pong: the same number of octets back, with a Send prepared for the phase's size. */
        private void echo(int size) {
            if (echoSend == null || echoSize != size) {
                if (echoSend != null) {
                    echoSend.close();
                }
                echoSend = qp.prepare(Send.of(DATA_WR_ID, echo.sge(0, size)).withFlags(Set.of()));
                echoSize = size;
            }
            echoSend.execute();
        }

        /** Returns true at DONE. */
        private boolean handle(ControlMessage m) throws Exception {
            stopWriteEchoes(); // any control message ends a phase's Write echoes (run to completion)
            switch (m.type()) {
                case PHASE -> {
                    phaseSize = m.size();
                    phaseSeed = m.b();
                    if (hello.verify() && hello.verb() == PerfVerb.READ) {
                        int per = (int) (target.length() / phaseSize * phaseSize);
                        VerifyPattern.fill(target.buffer(), 0, phaseSeed, 0, per);
                    }
                    if (echo != null && hello.verb() == PerfVerb.WRITE) {
                        zero(target.buffer());
                    }
                    reply(ControlMessage.of(ControlMessage.Type.READY));
                    if (echo != null && hello.verb() == PerfVerb.WRITE) {
                        if (hello.runToCompletion()) { // serving on the loop (serveOnTheLoop)
                            startWriteEchoes(m.iterations()); // the loop's steps echo (echoWriteOnce)
                        } else {
                            writeEchoes(m.iterations()); // this thread steps them, until the phase's end
                        }
                    }
                }
                case VERIFY -> {
                    int length = (int) Math.min(target.length(), m.iterations() * (long) m.size());
                    VarHandle.acquireFence();
                    int bad = VerifyPattern.firstMismatch(target.buffer(), 0, m.a(), 0, length);
                    reply(new ControlMessage(ControlMessage.Type.ACK, 0, 0, bad < 0 ? 0 : bad + 1L, 0, 0, 0));
                }
                case START -> {
                    cpuStart = CpuClock.now();
                    reply(ControlMessage.ackWithCpu(0, cpuStart));
                }
                case RESULT -> {
                    CpuClock.Sample now = CpuClock.now();
                    reporter.result(m, cpuStart == null ? null : now.since(cpuStart, CpuUse.SERVER, m.c()));
                    cpuStart = null;
                    reply(ControlMessage.ackWithCpu(0, now));
                }
                case DONE -> {
                    reply(ControlMessage.of(ControlMessage.Type.ACK));
                    return true;
                }
                default -> throw new PerfFailure("unexpected control message " + m.type() + " from the client");
            }
            return false;
        }

        private void reply(ControlMessage m) {
            sendControl(m);
        }

        /**
         * The Write ping-pong (perftest's write_lat) on this thread: {@link #echoWriteOnce} until the phase's echoes
         * are over, polling the completion queue now and then for the client's RESULT (the end of a timed phase).
         */
        private void writeEchoes(long iterations) throws Exception {
            startWriteEchoes(iterations);
            try {
                long spins = 0;
                long deadline = 0;
                while (echoBack != null) {
                    if (echoWriteOnce() > 0) {
                        spins = 0;
                        deadline = 0;
                    } else if (markSpin(++spins)) {
                        if (controlArrived()) {
                            return; // the client ended the phase (duration mode): handle stopped the echoes
                        }
                        long now = System.nanoTime();
                        if (deadline == 0) {
                            deadline = now + WAIT_SECONDS * 1_000_000_000L;
                        } else if (now > deadline) {
                            throw new PerfFailure("the client's RDMA Write did not arrive within " + WAIT_SECONDS
                                    + " s");
                        }
                    }
                }
            } finally {
                stopWriteEchoes();
            }
        }

        /**
         * The Write ping-pong: waits for the client's mark in the last octet of the target, then RDMA Writes the same
         * mark back; {@link #echoWriteOnce} does one look, until {@code iterations} (0: until the client's next
         * control message). Run to completion, the loop's steps call it.
         */
        private void startWriteEchoes(long iterations) {
            stopWriteEchoes();
            echoBack = qp.prepare(RdmaWrite.of(DATA_WR_ID, echo.sge(0, phaseSize), hello.clientBuffer())
                    .withFlags(Set.of()));
            echoIn = target.buffer();
            echoOut = echo.buffer();
            echoIndex = 0;
            echoCount = iterations;
        }

        /** The phase's echoes are over: all of them, or the client's next control message (a timed phase). */
        private void stopWriteEchoes() {
            if (echoBack != null) {
                echoBack.close();
                echoBack = null;
            }
        }

        /** One look at the target: 1 if the client's mark was there and was written back, else 0. */
        private int echoWriteOnce() {
            int index = phaseSize - 1;
            byte mark = PerfClient.mark(echoIndex);
            VarHandle.acquireFence();
            if (echoIn.get(index) != mark) {
                return 0;
            }
            echoOut.put(index, mark);
            echoBack.execute();
            if (++echoIndex == echoCount) {
                stopWriteEchoes();
            }
            return 1;
        }

        /** Polls once while echoing on this thread: true if a control message arrived, and was handled. */
        private boolean controlArrived() throws Exception {
            int n = pollNow();
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                check(wc);
                if (wc.opcode() == CompletionOpcode.RECV) {
                    ControlMessage m = receive(wc);
                    if (m != null) {
                        if (handle(m)) {
                            throw new PerfFailure("the client ended the run in the middle of a phase");
                        }
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** Where the server's result lines go. */
    interface Reporter {
        /** The client's RESULT of a phase, and this process's CPU time since its START (null: none). */
        void result(ControlMessage clientResult, CpuUse serverCpu);
    }
}
