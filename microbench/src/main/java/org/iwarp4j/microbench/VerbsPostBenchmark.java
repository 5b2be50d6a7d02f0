package org.iwarp4j.microbench;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The verbs data path end to end in one JVM: two RNICs (one event loop each) connected over TCP loopback
 * (MPA revision 2, CRC on), and a window of {@code window} prepared operations of {@code size} octets kept
 * in flight: each benchmark operation re-posts one ({@link PreparedSend#execute}) and takes one completion.
 * RDMA Writes complete at the requester when TCP took them (RFC 5040 §5.5), Reads when their Read Response was
 * placed (the responder's RNIC answers, no application there, RFC 5040 §4.5); Sends additionally go through
 * the responder's posted receives (re-posted as they complete, from the same thread). ops/s is messages
 * per second; {@code -prof gc} gives the bytes allocated per message by every thread (both event loops
 * included).
 *
 * <p>{@code java -jar microbench/target/benchmarks.jar VerbsPostBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled") // as iwarp perf: no sampled stack traces
public class VerbsPostBenchmark {

    private static final int RECEIVES = 256;

    @Param({"64"})
    public int size;

    @Param({"WRITE", "READ", "SEND"})
    public String verb;

    @Param({"32"})  // < RECEIVES
    public int window;

    private Rnic serverRnic;
    private Rnic clientRnic;
    private CompletionQueue clientCq;
    private CompletionQueue serverCq;
    private QueuePair serverQp;
    private PreparedSend[] prepared;
    private ReceiveWorkRequest[] receives;
    private final WorkCompletion[] completions = WorkCompletion.array(64);
    private final WorkCompletion[] serverCompletions = WorkCompletion.array(64);
    private boolean send;
    private long posted;
    private long received;
    private long completed;
    private int available;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        serverRnic = Rnic.open(RnicConfig.builder().name("bench-server").eventLoopThreads(1).build());
        clientRnic = Rnic.open(RnicConfig.builder().name("bench-client").eventLoopThreads(1).build());
        ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
        ProtectionDomain clientPd = clientRnic.allocateProtectionDomain();
        serverCq = serverRnic.createCompletionQueue(4096);
        clientCq = clientRnic.createCompletionQueue(4096);
        serverQp = serverPd.createQueuePair(QueuePairConfig.builder(serverCq, serverCq).maxRecvWr(RECEIVES).build());
        QueuePair clientQp = clientPd.createQueuePair(QueuePairConfig.builder(clientCq, clientCq)
                .maxSendWr(Math.max(window, 16)).build());
        MemoryRegion target = serverPd.allocateRegion(Math.max(size, 1), Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                Access.REMOTE_READ);
        MemoryRegion source = clientPd.allocateRegion(Math.max(size, 1), Access.LOCAL_WRITE); // a Read's sink
        receives = new ReceiveWorkRequest[RECEIVES];
        for (int i = 0; i < RECEIVES; i++) {
            receives[i] = ReceiveWorkRequest.of(i, target.sge(0, size));
            serverQp.postReceive(receives[i]);
        }
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        Listener listener = serverRnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                ListenOptions.defaults(), r -> r.accept(serverQp)
                        .whenComplete((c, e) -> {
                            if (e != null) {
                                accepted.completeExceptionally(e);
                            } else {
                                accepted.complete(c);
                            }
                        }));
        clientRnic.connect(listener.localAddress(), clientQp, ConnectOptions.defaults()).get(20, TimeUnit.SECONDS);
        accepted.get(20, TimeUnit.SECONDS);
        SendWorkRequest request = switch (verb) {
            case "WRITE" -> SendWorkRequest.RdmaWrite.of(1, source.sge(0, size), target.remoteBuffer());
            case "READ" -> SendWorkRequest.RdmaRead.of(1, source.sge(0, size), target.remoteBuffer());
            case "SEND" -> SendWorkRequest.Send.of(1, source.sge(0, size));
            default -> throw new IllegalArgumentException(verb);
        };
        send = "SEND".equals(verb);
        prepared = new PreparedSend[] {clientQp.prepare(request)};
        for (int i = 0; i < window; i++) {
            post();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        clientRnic.close();
        serverRnic.close();
    }

    private void post() {
        prepared[0].execute();
        posted++;
    }

    /** Takes one completion (polling) and re-posts one operation: the window stays full. */
    @Benchmark
    public long postAndComplete() throws Exception {
        while (available == 0) {
            available = clientCq.poll(completions);
            next = 0;
            if (available == 0) {
                Thread.yield(); // the event loops need the cores more than this thread does (2-core machines)
            }
        }
        WorkCompletion wc = completions[next++];
        available--;
        if (!wc.isSuccess()) {
            throw new IllegalStateException("completion failed: " + wc);
        }
        completed++;
        if (send) {
            // iWARP has no receiver-not-ready retry: never more Sends in flight than posted receives.
            repostReceives();
            while (posted - received >= RECEIVES) {
                Thread.yield();
                repostReceives();
            }
        }
        post();
        return completed;
    }

    /** The responder's side of the Send test: each completed receive is posted again. */
    private void repostReceives() {
        int n = serverCq.poll(serverCompletions);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = serverCompletions[i];
            if (!wc.isSuccess()) {
                throw new IllegalStateException("receive failed: " + wc);
            }
            serverQp.postReceive(receives[(int) wc.wrId()]);
        }
        received += n;
    }
}
