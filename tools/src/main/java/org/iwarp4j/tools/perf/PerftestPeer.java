package org.iwarp4j.tools.perf;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.PeerProfile;

/**
 * One end of a perftest run over perftest 4.5+0.17's own control exchange (docs/perftest-wire.md), so that
 * {@code iwarp perf write|read|send|atomic} pairs with {@code ib_*_bw -R} and {@code ib_*_lat -R} either way: the
 * control connection (Sends on its own rdma_cm connection), the version, cycle buffer, cache line and MTU
 * messages, the {@code pingpong_dest} handshakes, the test connections on the same port, the test itself and the
 * reports. As in perftest, both ends are given the same options (nothing in 4.5's exchange carries the size, the
 * iteration count or the test): the server prints the client's bandwidth report ({@code ib_send_bw}: its own), the
 * latency tests each end's own.
 */
final class PerftestPeer implements AutoCloseable {

    /** What we announce: a 4 KiB page as perftest's cycle buffer, a 64-octet cache line, IBV_MTU_1024. */
    static final int CYCLE_BUFFER = 4096;
    static final int CACHE_LINE = 64;
    /**
     * perftest's {@code rdma_cm_client_connection} tries 10 times, 100 ms apart, for the server to listen again for
     * the test connections; a server in a slow virtual machine (siw's perftest under the lab's TCG) may need longer
     * than that second, so ours tries for 5 s (a refused connect costs nothing).
     */
    private static final int CONNECT_RETRIES = 50;
    private static final long RETRY_MILLIS = 100;
    private static final long CLOSE_GRACE_MILLIS = 1000;

    private final PerfConfig config;
    private final PrintWriter out;
    private final boolean client;
    /** perftest's {@code -b}: both ends of a bandwidth test send, and each prints the sum of both reports. */
    private final boolean duplex;
    private final Rnic rnic;
    private final ProtectionDomain pd;
    private final PerftestControl control;
    private Listener listener;
    /** The server's address, to listen on again for the test connections. */
    private InetSocketAddress bound;
    private CompletionQueue testCq;
    private QueuePairConfig testQp;
    /** Once the dests are exchanged, every handshake carries queue pair 0's and updates its peer's, as perftest. */
    private boolean destsKnown;
    private PerftestTraffic.Lane[] lanes = new PerftestTraffic.Lane[0];
    private final List<Connection> testConnections = new ArrayList<>();
    private PerftestTraffic traffic;
    private PerftestDuplexSend duplexSend;
    private final PerftestReports reports;
    private int cycleBuffer = CYCLE_BUFFER;
    private int cacheLine = CACHE_LINE;
    private int mtu = PerftestWire.IBV_MTU_1024;
    private int outReads;
    private String peerVersion;

    PerftestPeer(PerfConfig config, PrintWriter out, boolean client, boolean duplex) {
        this.config = config;
        this.out = out;
        this.client = client;
        this.duplex = duplex;
        rnic = config.stack().openRnic(client ? "perftest-client" : "perftest-server");
        try {
            pd = rnic.allocateProtectionDomain();
            control = new PerftestControl(rnic, pd, client);
            reports = new PerftestReports(control, config.gbits());
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
    }

    /** The port of a server, bound by {@link #listen}. */
    int listen(InetSocketAddress bind) {
        listener = rnic.listen(bind, config.wire().listen().peerProfile(PeerProfile.LINUX_SIW).build());
        bound = new InetSocketAddress(bind.getAddress(), listener.localAddress().getPort());
        return bound.getPort();
    }

    /**
     * As perftest's server ({@code rdma_cm}): it listens for its control connection, stops listening once it has
     * it, and listens again for the test connections only around the first handshake; so a client that comes while
     * a run is on (the next one of a loop, the next check of {@code iwarp conformance --app perftest}) is refused
     * and tries again, instead of waiting for a server that will not answer.
     */
    private void stopListening() {
        if (listener != null) {
            rejectWaiting();
            listener.close();
            listener = null;
        }
    }

    private void rejectWaiting() {
        try {
            for (Optional<ConnectionRequest> r = listener.take(Duration.ZERO); r.isPresent();
                 r = listener.take(Duration.ZERO)) {
                r.get().reject("the perftest server's run is over".getBytes(StandardCharsets.US_ASCII));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------------ the run

    /** The client's run against {@code server}: every size of the config, then the reports; returns its results. */
    List<PerfResult> runClient(InetSocketAddress server) throws Exception {
        Connection c = Stacks.get(rnic.connect(server, control.queuePair(), connectOptions(0, true)), 30);
        control.connected(c);
        return run(server);
    }

    /** The server's run: waits for one client (until interrupted), then serves it. */
    void runServer() throws Exception {
        ConnectionRequest r = nextRequest(null);
        control.connected(Stacks.get(r.accept(control.queuePair(), new AcceptOptions(new byte[0], OptionalInt.of(0),
                OptionalInt.of(0))), 30));
        stopListening();
        run(null);
    }

    private List<PerfResult> run(InetSocketAddress server) throws Exception {
        exchangeSetup();
        createLanes();
        if (!client) {
            // perftest's server listens again after this handshake, a few microseconds after it; ours would take
            // milliseconds, and siw's perftest 4.5 client connects the moment the handshake ends and gives up when
            // refused: so we listen first (a stranger who comes meanwhile is refused as busy, see nextRequest)
            listen(bound);
        }
        hand(); // create_rdma_cm_connection: before the test connections
        connectLanes(server);
        stopListening();
        hand(); // and after them
        destsKnown = true; // set_up_connection: from here on my_dest is queue pair 0's
        PerfVerb verb = config.verb();
        List<PerfResult> results = new ArrayList<>();
        PerfReport report = new PerfReport(out, config);
        if (verb == PerfVerb.SEND) {
            exchangeDests();
            hand();
            exchangeDests();
            header(report);
            if (config.latency()) {
                sendLatency(report, results);
            } else {
                sendBandwidth(report, results);
            }
        } else {
            if (config.latency()) {
                hand();
            }
            exchangeDests();
            exchangeDests();
            header(report);
            hand(); // "an additional handshake is required after moving qp to RTR"
            if (config.latency() && verb == PerfVerb.WRITE) {
                writeLatency(report, results);
            } else if (config.latency()) {
                oneSidedLatency(report, results);
            } else {
                oneSidedBandwidth(report, results);
            }
        }
        if (!serverWithoutTable()) {
            report.footer();
        }
        disconnect();
        return results;
    }

    /** The version, cycle buffer, cache line and MTU messages ({@code exchange_versions} .. {@code check_mtu}). */
    private void exchangeSetup() throws InterruptedException {
        peerVersion = PerftestWire.decodeVersion(control.exchange(PerftestWire.version(PerftestWire.VERSION),
                PerftestWire.VERSION_LENGTH, "version"));
        PerftestWire.checkVersion(PerftestWire.VERSION, peerVersion);
        cycleBuffer = Math.max(CYCLE_BUFFER, PerftestWire.decodeCycleBuffer(control.exchange(
                PerftestWire.int32(CYCLE_BUFFER), PerftestWire.INT_LENGTH, "cycle buffer")));
        cacheLine = Math.max(CACHE_LINE, PerftestWire.decodeCacheLine(control.exchange(
                PerftestWire.int32(CACHE_LINE), PerftestWire.INT_LENGTH, "cache line size")));
        int theirs = PerftestWire.decodeMtu(control.exchange(PerftestWire.mtu(mtu), PerftestWire.MTU_LENGTH, "MTU"));
        if (theirs > 0 && theirs < mtu) {
            mtu = theirs;
        }
    }

    /**
     * One {@code ctx_hand_shake(my_dest[0], rem_dest[0])}: zeros before the dests are known, then queue pair 0's
     * dest each way, the peer's replacing what we had (perftest re-reads it every time, and builds its work requests
     * from the last one it read).
     */
    private void hand() throws InterruptedException {
        hand(PerftestControl.MESSAGE_WAIT);
    }

    private void hand(Duration wait) throws InterruptedException {
        PerftestWire.Dest theirs = hand(destsKnown ? myDest(lanes[0]) : PerftestWire.Dest.ZERO, wait);
        if (destsKnown) {
            lanes[0].remote = theirs;
            checkRemote(theirs);
        }
    }

    private PerftestWire.Dest hand(PerftestWire.Dest mine, Duration wait) throws InterruptedException {
        return PerftestWire.Dest.decode(control.exchange(mine.encode(), PerftestWire.DEST_LENGTH, "pingpong_dest",
                wait));
    }

    /** The test's queue pairs and memory: twice the larger of the message and the cycle buffer each, as perftest. */
    private void createLanes() {
        int qps = config.latency() ? 1 : config.qps();
        int depth = config.latency() ? 1 : config.txDepth();
        int rx = rxDepth();
        int maxIrdOrd = rnic.query().maxIrdOrd();
        boolean reads = config.verb() == PerfVerb.READ || config.verb() == PerfVerb.ATOMIC;
        outReads = reads ? maxIrdOrd : 0;
        testCq = rnic.createCompletionQueue(qps * (depth + rx + 64) + 64);
        long half = align(Math.max((long) config.maxSize(), cycleBuffer), cacheLine);
        int length = (int) Math.min(Integer.MAX_VALUE, 2 * half);
        lanes = new PerftestTraffic.Lane[qps];
        testQp = QueuePairConfig.builder(testCq, testCq).maxSendWr(depth + 64)
                .maxRecvWr(config.verb() == PerfVerb.SEND ? rx + 4 : 4).maxSge(1).ird(outReads).ord(outReads)
                .rfc7306(true).build();
        for (int i = 0; i < qps; i++) {
            MemoryRegion buffer = pd.allocateRegion(length, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                    Access.REMOTE_READ, Access.REMOTE_ATOMIC);
            MemoryRegion credit = config.verb() == PerfVerb.SEND
                    ? pd.allocateRegion(8, Access.LOCAL_WRITE, Access.REMOTE_WRITE) : null;
            lanes[i] = new PerftestTraffic.Lane(i, buffer, credit);
        }
        traffic = new PerftestTraffic(testCq, lanes);
        duplexSend = new PerftestDuplexSend(testCq, lanes);
    }

    /**
     * perftest's {@code rx_depth} of the Send test: 512, at most the iterations (not in duration mode, which has
     * none), made even.
     */
    private int rxDepth() {
        if (config.verb() != PerfVerb.SEND) {
            return 1;
        }
        int rx = (int) Math.min(512, iterationsOrUnbounded());
        return rx % 2 == 1 && config.sizes().size() == 1 ? rx + 1 : rx;
    }

    /** The operations of a size per queue pair: {@code -n}, or in duration mode ({@code -D}) as many as it takes. */
    private long iterationsOrUnbounded() {
        return config.durationMode() ? Long.MAX_VALUE : config.iterations();
    }

    /**
     * A size's run in duration mode (perftest's {@code -D} and {@code -f}: the margin, {@code -D} minus twice it
     * measured, the margin again), or {@code null} with {@code -n}.
     */
    private MeasuredSpan span() {
        return config.durationMode() ? MeasuredSpan.perftest(config.marginSeconds(), config.measuredSeconds()) : null;
    }

    private static long align(long v, int to) {
        return (v + to - 1) / to * to;
    }

    /** The test connections: the client connects each queue pair (retrying as perftest does), the server accepts. */
    private void connectLanes(InetSocketAddress server) throws Exception {
        for (PerftestTraffic.Lane l : lanes) {
            Connection c;
            if (client) {
                c = connectWithRetries(server, l);
            } else {
                ConnectionRequest r = nextRequest(control.connection().remoteAddress());
                l.qp = pd.createQueuePair(testQp);
                OptionalInt ird = Stacks.atMost(r.ord(), outReads);
                OptionalInt ord = Stacks.atMost(r.ird(), outReads);
                c = Stacks.get(r.accept(l.qp, new AcceptOptions(new byte[0], ird, ord)), 30);
            }
            testConnections.add(c);
        }
    }

    /** perftest's server listens for the test connections only after the handshake: the first tries may fail. */
    private Connection connectWithRetries(InetSocketAddress server, PerftestTraffic.Lane l) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < CONNECT_RETRIES; attempt++) {
            QueuePair qp = pd.createQueuePair(testQp);
            try {
                // the first-FPDU nudge (siw's accept race, FINDINGS M15) waits for an answer, and nothing answers the
                // Writes of a Write bandwidth test: it would fire for nothing
                boolean answered = config.verb() != PerfVerb.WRITE || config.latency();
                Connection c = Stacks.get(rnic.connect(server, qp, connectOptions(outReads, answered)), 30);
                l.qp = qp;
                return c;
            } catch (ExecutionException e) {
                last = e;
                qp.close();
                Thread.sleep(RETRY_MILLIS);
            }
        }
        throw new PerftestException("the test connection to " + server + " failed " + CONNECT_RETRIES + " times: "
                + Stacks.describe(last));
    }

    private ConnectOptions connectOptions(int irdOrd, boolean nudge) {
        PeerProfile siw = nudge ? PeerProfile.LINUX_SIW : PeerProfile.LINUX_SIW.withFirstFpduNudge(Duration.ZERO);
        return config.wire().connect().ird(irdOrd).ord(irdOrd).peerProfile(siw).build();
    }

    /**
     * The next connection request on the server's port: the control connection (from anyone, waiting as long as it
     * takes), or a test connection of that client (bounded; anyone else is refused as busy).
     */
    private ConnectionRequest nextRequest(InetSocketAddress controlPeer) throws InterruptedException {
        long deadline = System.nanoTime() + PerftestControl.MESSAGE_WAIT.toNanos();
        while (true) {
            Optional<ConnectionRequest> r = listener.take(Duration.ofMillis(500));
            if (r.isPresent()) {
                ConnectionRequest q = r.get();
                if (controlPeer == null || q.remoteAddress().getAddress().equals(controlPeer.getAddress())) {
                    return q;
                }
                q.reject("busy: serving another perftest client".getBytes(StandardCharsets.US_ASCII));
            } else if (controlPeer != null && System.nanoTime() > deadline) {
                throw new PerftestException("the client's test connection did not come within "
                        + PerftestControl.MESSAGE_WAIT.toSeconds() + " s");
            }
        }
    }

    /** One round of {@code pingpong_dest}s, one per queue pair (perftest runs two: the second for its printout). */
    private void exchangeDests() throws InterruptedException {
        for (PerftestTraffic.Lane l : lanes) {
            l.remote = hand(myDest(l), PerftestControl.MESSAGE_WAIT);
            checkRemote(l.remote);
        }
    }

    private PerftestWire.Dest myDest(PerftestTraffic.Lane l) {
        MemoryRegion advertised = l.credit != null ? l.credit : l.buffer;
        // as perftest's ctx_set_up_connection: the second half of the region (buf + (num_qps + i) * BUFF_SIZE), so
        // that the region is [vaddr - BUFF_SIZE, vaddr + BUFF_SIZE) whichever end advertises it
        // (iwarp conformance --app perftest relies on that)
        long vaddr = advertised.address() + (l.credit != null ? 0 : mailboxOffset());
        int psn = l.index * 0x10101 & 0xffffff; // perftest draws it at random; nothing on iWARP reads it
        return new PerftestWire.Dest(0, outReads, l.qp.number(), psn, advertised.stag().value(), vaddr, new byte[16],
                0, 0);
    }

    private void checkRemote(PerftestWire.Dest d) {
        if (config.verb() != PerfVerb.SEND && d.rkey() == 0 && d.vaddr() == 0) {
            throw new PerftestException("the peer's pingpong_dest names no buffer (rkey 0, vaddr 0)");
        }
    }

    private void header(PerfReport report) {
        int qps = lanes.length;
        int depth = config.latency() ? 1 : (int) Math.min(config.txDepth(), iterationsOrUnbounded());
        PerftestFormat.TestInfo info = new PerftestFormat.TestInfo(config.verb(), config.latency(),
                config.compareSwap(), client, qps, depth, rxDepth(),
                PerftestWire.mtuOctets(mtu), outReads, "IW", duplex);
        List<String> own = new ArrayList<>(List.of("Stack           : " + Stacks.stackName(rnic),
                "Data ex. method : rdma_cm, perftest " + PerftestWire.VERSION + " (Debian perftest 4.5+0.17) with a "
                        + "peer of version " + peerVersion,
                "Cycle buffer    : " + cycleBuffer + " octets, cache line " + cacheLine));
        if (config.durationMode()) {
            own.add("Duration        : " + config.durationSeconds() + " s, " + config.measuredSeconds()
                    + " s measured between margins of " + config.marginSeconds() + " s (-f)");
        }
        List<String> addresses = new ArrayList<>();
        for (PerftestTraffic.Lane l : lanes) {
            PerftestWire.Dest d = myDest(l);
            addresses.add(PerftestFormat.address("local", config.verb(), d.qpn(), d.outReads(), d.rkey(), d.vaddr()));
        }
        for (PerftestTraffic.Lane l : lanes) {
            PerftestWire.Dest d = l.remote;
            addresses.add(PerftestFormat.address("remote", config.verb(), d.qpn(), d.outReads(), d.rkey(), d.vaddr()));
        }
        if (serverWithoutTable()) {
            // ib_read_lat's and ib_atomic_lat's server prints no table: it only closes when the client is done
            out.println(PerftestFormat.RESULT_LINE);
            PerftestFormat.testInfo(info, config.style()).forEach(out::println);
            out.println(PerftestFormat.RESULT_LINE);
            addresses.forEach(out::println);
            out.println(PerftestFormat.RESULT_LINE);
            out.flush();
            return;
        }
        report.header(info, addresses, own);
    }

    // ------------------------------------------------------------------------------------------------ the tests

    /** {@code ib_write_bw}, {@code ib_read_bw}, {@code ib_atomic_bw}: the client measures, the server waits. */
    private void oneSidedBandwidth(PerfReport report, List<PerfResult> results) throws Exception {
        if (duplex) {
            duplexBandwidth(report, results);
        } else if (client) {
            PerfResult last = null;
            int reads = readsInFlight();
            for (int size : config.sizes()) {
                last = traffic.clientBandwidth(config.verb(), config.compareSwap(), size, config.iterations(),
                        config.txDepth(), reads, 1, span());
                results.add(last);
                report.line(last);
            }
            hand();
            reports.send(last);
        } else {
            hand(serverWait());
            PerfResult r = reports.receive();
            results.add(r);
            report.line(r);
        }
        hand(); // ctx_close_connection
    }

    /**
     * {@code -b} of {@code ib_write_bw}, {@code ib_read_bw}, {@code ib_atomic_bw}: per size a handshake, then both
     * ends run the client's loop at once, each against the other's buffer (with {@code -a} another handshake after
     * it, which 4.5's peers run since their version reads 4.6 or more), then both exchange their reports and each
     * prints its own size and iterations with the sums of both ends' peak, average and message rate
     * ({@code print_full_bw_report} with the peer's report); the closing handshake follows in
     * {@link #oneSidedBandwidth}, once.
     */
    private void duplexBandwidth(PerfReport report, List<PerfResult> results) throws Exception {
        boolean all = config.sizes().size() > 1;
        int reads = readsInFlight();
        for (int size : config.sizes()) {
            hand();
            PerfResult mine = traffic.clientBandwidth(config.verb(), config.compareSwap(), size, config.iterations(),
                    config.txDepth(), reads, 1, span());
            if (all) {
                hand();
            }
            PerfResult both = reports.sum(mine);
            results.add(both);
            report.line(both);
        }
    }

    /**
     * Reads and Atomics in flight per queue pair: our {@code out_reads}, at most the ORD each connection negotiated
     * and the peer's {@code out_reads} (its dest's): more would overrun the peer's IRD (RFC 5040 §6.1).
     */
    private int readsInFlight() {
        int reads = outReads;
        for (int i = 0; i < lanes.length; i++) {
            reads = Math.min(reads, testConnections.get(i).parameters().ord());
            if (lanes[i].remote.outReads() > 0) {
                reads = Math.min(reads, lanes[i].remote.outReads());
            }
        }
        return Math.max(1, reads);
    }

    /**
     * {@code ib_send_bw}: per size a handshake, the run (both ends measure; in duration mode each end times its
     * own span, the server's from the first Send it receives), and with {@code -a} one more. With {@code -b} both
     * ends post receives and send ({@link PerftestDuplexSend}) and, by count, print the sum of both reports.
     */
    private void sendBandwidth(PerfReport report, List<PerfResult> results) throws Exception {
        boolean all = config.sizes().size() > 1;
        for (int size : config.sizes()) {
            int rx = rxDepth();
            if (!client || duplex) {
                traffic.postSendTestReceives(size, iterationsOrUnbounded(), rx);
            }
            hand();
            PerfResult r;
            if (duplex) {
                // run_iter_bi; by count the reports are exchanged and added, in duration mode each end prints its own
                PerfResult mine = duplexSend.run(client, size, config.iterations(), config.txDepth(), rx, span());
                r = config.durationMode() ? mine : reports.sum(mine);
            } else if (client) {
                r = traffic.clientBandwidth(PerfVerb.SEND, false, size, config.iterations(), config.txDepth(), 0, rx,
                        span());
            } else {
                r = traffic.serverSendBandwidth(size, config.iterations(), rx, span());
            }
            results.add(r);
            report.line(r);
            if (all) {
                hand();
            }
        }
        hand(); // ctx_close_connection
    }

    /** The servers of {@code ib_read_lat} and {@code ib_atomic_lat} measure nothing and print no table. */
    private boolean serverWithoutTable() {
        return !client && config.latency() && (config.verb() == PerfVerb.READ || config.verb() == PerfVerb.ATOMIC);
    }

    /**
     * {@code ib_write_lat}: both ends ping-pong every size and print their own; no closing handshake. In duration
     * mode each end times its own span from the start of its loop (they start a handshake's half trip apart).
     */
    private void writeLatency(PerfReport report, List<PerfResult> results) throws Exception {
        for (int size : config.sizes()) {
            traffic.heldHint = !client && testConnections.get(0).sendsHeld();
            PerfResult r = traffic.writeLatency(size, config.iterations(), !client, mailboxOffset(), span());
            results.add(r);
            report.line(r);
        }
    }

    /**
     * {@code ib_send_lat}: per size the receives, a handshake and the ping-pong; then the closing handshake. In
     * duration mode the receives are {@code rx_depth} (512), re-posted throughout, and each end's span begins with
     * the first Send it receives.
     */
    private void sendLatency(PerfReport report, List<PerfResult> results) throws Exception {
        int rx = rxDepth();
        for (int size : config.sizes()) {
            traffic.postSendTestReceives(size, iterationsOrUnbounded(), rx);
            hand();
            PerfResult r = traffic.sendLatency(size, config.iterations(), client, rx, span());
            results.add(r);
            report.line(r);
        }
        hand(); // ctx_close_connection
    }

    /** Where the peer's Writes of {@code ib_write_lat} land: the second half of the buffer, as perftest's. */
    private int mailboxOffset() {
        return (int) (lanes[0].buffer.length() / 2);
    }

    /**
     * {@code ib_read_lat}, {@code ib_atomic_lat}: the client measures (in duration mode for its whole {@code -D}),
     * the server only closes: it waits in the closing handshake, whatever {@code -D} says.
     */
    private void oneSidedLatency(PerfReport report, List<PerfResult> results) throws Exception {
        if (client) {
            for (int size : config.sizes()) {
                PerfResult r = traffic.clientLatency(config.verb(), config.compareSwap(), size, config.iterations(),
                        span());
                results.add(r);
                report.line(r);
            }
        }
        hand(client ? PerftestControl.MESSAGE_WAIT : serverWait());
    }

    /** How long a server waits for the client's end of the test: the client's part, however long it takes. */
    private Duration serverWait() {
        return Duration.ofHours(24);
    }

    private void disconnect() throws InterruptedException {
        for (Connection c : testConnections) {
            try {
                Stacks.get(c.disconnect(), 10);
            } catch (Exception e) {
                c.close(); // the peer may have gone first: perftest closes as soon as its last handshake is done
            }
        }
        // perftest takes its test connections down before its control connection; closing ours the moment the last
        // message arrived failed the peer's last Send (siw's perftest: "Bad wc status 2", exit 1): the peer closes
        // first, or we after a grace period
        try {
            control.connection().closeFuture().get(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // not closed by the peer within the grace period: we close it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Stacks.get(control.connection().disconnect(), 10);
        } catch (Exception e) {
            control.connection().close();
        }
    }

    @Override
    public void close() {
        stopListening();
        rnic.close();
    }
}
