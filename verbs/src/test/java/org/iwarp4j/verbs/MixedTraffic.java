package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives random mixed traffic over many connected queue pairs from one thread and verifies every byte:
 * each queue pair has {@code window} slots (a 1 MiB target region at the server, a 1 MiB sink at the
 * client); an operation takes a free slot, and once its completions are in, its effect is checked.
 *
 * <p>Operations: RDMA Write followed by a Read of the same bytes (Write → Read ordering makes the Read
 * show the Write was placed), RDMA Read of bytes the server wrote locally, Send into a posted receive,
 * RDMA Write with Immediate (RFC 7306), FetchAdd and CmpSwap. Lengths are log-uniform in 1 B … 1 MiB.
 */
final class MixedTraffic {

    static final int SLOT = 1 << 20;
    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    /** One connected pair of queue pairs and its memory. */
    static final class Flow {
        final QueuePair client;
        final QueuePair server;
        final Mem[] targets;
        final Mem[] sinks;
        final Op[] inFlight;
        int remaining;

        Flow(QueuePair client, QueuePair server, Mem[] targets, Mem[] sinks, int operations) {
            this.client = client;
            this.server = server;
            this.targets = targets;
            this.sinks = sinks;
            this.inFlight = new Op[targets.length];
            this.remaining = operations;
        }
    }

    enum Kind { WRITE_READ, READ, SEND, WRITE_IMMEDIATE, FETCH_ADD, CMP_SWAP }

    /** An operation in flight and what it still waits for. */
    static final class Op {
        final Flow flow;
        final int slot;
        final Kind kind;
        final int length;
        final int srcOffset;
        final int dstOffset;
        final long value;
        final long operand;
        boolean clientDone;
        boolean serverDone;
        WorkCompletion clientWc;
        WorkCompletion serverWc;

        Op(Flow flow, int slot, Kind kind, int length, int srcOffset, int dstOffset, long value, long operand) {
            this.flow = flow;
            this.slot = slot;
            this.kind = kind;
            this.length = length;
            this.srcOffset = srcOffset;
            this.dstOffset = dstOffset;
            this.value = value;
            this.operand = operand;
        }
    }

    private final Random random;
    private final Mem source;
    private final CompletionQueue clientCq;
    private final CompletionQueue serverRecvCq;
    private final boolean rfc7306;
    private final Map<QueuePair, Flow> byClient = new IdentityHashMap<>();
    private final Map<QueuePair, Flow> byServer = new IdentityHashMap<>();
    private final List<Flow> flows = new ArrayList<>();
    private long nextId = 1;
    private final Map<Long, Op> ops = new HashMap<>();
    long bytesVerified;
    int operationsDone;

    /**
     * @param source       client memory of 2 × {@link #SLOT} octets of random data (read-only for the test)
     * @param clientCq     send CQ of every client queue pair
     * @param serverRecvCq receive CQ of every server queue pair
     */
    MixedTraffic(long seed, Mem source, CompletionQueue clientCq, CompletionQueue serverRecvCq, boolean rfc7306) {
        this.random = new Random(seed);
        this.source = source;
        this.clientCq = clientCq;
        this.serverRecvCq = serverRecvCq;
        this.rfc7306 = rfc7306;
        byte[] fill = new byte[2 * SLOT];
        random.nextBytes(fill);
        source.put(0, fill);
    }

    void add(Flow flow) {
        flows.add(flow);
        byClient.put(flow.client, flow);
        byServer.put(flow.server, flow);
    }

    private int length() {
        // log-uniform in [1, 1 MiB]
        int bits = random.nextInt(21);
        int max = 1 << bits;
        int min = bits == 0 ? 1 : (1 << (bits - 1)) + 1;
        return Math.min(SLOT, min + random.nextInt(max - min + 1));
    }

    /** Runs until every flow did its operations; fails on a wrong byte, a bad status, or the timeout. */
    void run(Duration timeout) throws VerbsException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Flow f : flows) {
            for (int s = 0; s < f.targets.length; s++) {
                start(f, s);
            }
        }
        WorkCompletion[] batch = new WorkCompletion[64];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = new WorkCompletion();
        }
        Semaphore signal = new Semaphore(0);
        while (!ops.isEmpty()) {
            int n = clientCq.poll(batch);
            for (int i = 0; i < n; i++) {
                onClient(batch[i]);
            }
            int m = serverRecvCq.poll(batch);
            for (int i = 0; i < m; i++) {
                onServer(batch[i]);
            }
            if (n + m > 0) {
                continue;
            }
            clientCq.arm(NotifyMode.NEXT, q -> signal.release());
            serverRecvCq.arm(NotifyMode.NEXT, q -> signal.release());
            if (clientCq.size() > 0 || serverRecvCq.size() > 0) {
                continue;
            }
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !signal.tryAcquire(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)),
                        TimeUnit.NANOSECONDS)) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("traffic did not finish within " + timeout + ": " + ops.size()
                                + " operations outstanding, " + operationsDone + " done");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private void start(Flow f, int slot) throws VerbsException {
        if (f.remaining == 0) {
            return;
        }
        f.remaining--;
        Kind[] kinds = Kind.values();
        Kind kind = kinds[random.nextInt(rfc7306 ? kinds.length : 3)];
        int length = kind == Kind.FETCH_ADD || kind == Kind.CMP_SWAP ? 8 : length();
        int src = random.nextInt(2 * SLOT - length + 1);
        int dst = kind == Kind.FETCH_ADD || kind == Kind.CMP_SWAP ? 8 * random.nextInt(SLOT / 8)
                : random.nextInt(SLOT - length + 1);
        Op op = new Op(f, slot, kind, length, src, dst, random.nextLong(), random.nextLong());
        long id = nextId++;
        ops.put(id, op);
        f.inFlight[slot] = op;
        Mem target = f.targets[slot];
        Mem sink = f.sinks[slot];
        switch (kind) {
            case WRITE_READ -> {
                f.client.postSend(new SendWorkRequest.RdmaWrite(id, List.of(source.sge(src, length)), target.stag(),
                        target.address() + dst, Set.of()));
                f.client.postSend(new SendWorkRequest.RdmaRead(id, List.of(sink.sge(dst, length)), target.stag(),
                        target.address() + dst, SIGNALED));
                op.serverDone = true;
            }
            case READ -> {
                target.put(dst, source.bytes(src, length));
                f.client.postSend(new SendWorkRequest.RdmaRead(id, List.of(sink.sge(dst, length)), target.stag(),
                        target.address() + dst, SIGNALED));
                op.serverDone = true;
            }
            case SEND -> {
                f.server.postReceive(ReceiveWorkRequest.of(id, target.sge(dst, SLOT - dst)));
                f.client.postSend(new SendWorkRequest.Send(id, List.of(source.sge(src, length)), SIGNALED));
            }
            case WRITE_IMMEDIATE -> {
                f.server.postReceive(new ReceiveWorkRequest(id, List.of()));
                f.client.postSend(new SendWorkRequest.RdmaWriteWithImmediate(id, List.of(source.sge(src, length)),
                        target.stag(), target.address() + dst, op.value, SIGNALED));
            }
            case FETCH_ADD -> {
                target.buf().duplicate().order(ByteOrder.LITTLE_ENDIAN).putLong(dst, op.value);
                f.client.postSend(new SendWorkRequest.AtomicFetchAdd(id, Optional.of(sink.sge(dst, 8)), target.stag(),
                        target.address() + dst, op.operand, 0, SIGNALED));
                op.serverDone = true;
            }
            case CMP_SWAP -> {
                target.buf().duplicate().order(ByteOrder.LITTLE_ENDIAN).putLong(dst, op.value);
                f.client.postSend(new SendWorkRequest.AtomicCompareSwap(id, Optional.empty(), target.stag(),
                        target.address() + dst, op.value, -1L, op.operand, -1L, SIGNALED));
                op.serverDone = true;
            }
        }
    }

    private void onClient(WorkCompletion wc) throws VerbsException {
        Op op = ops.get(wc.wrId());
        assertThat(op).as("completion for an unknown request: %s", wc).isNotNull();
        assertThat(wc.status()).as("%s %s", op.kind, wc).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(wc.queuePair()).containsSame(op.flow.client);
        op.clientDone = true;
        op.clientWc = wc.copy();
        maybeFinish(wc.wrId(), op);
    }

    private void onServer(WorkCompletion wc) throws VerbsException {
        Op op = ops.get(wc.wrId());
        assertThat(op).as("completion for an unknown request: %s", wc).isNotNull();
        assertThat(wc.status()).as("%s %s", op.kind, wc).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(wc.queuePair()).containsSame(op.flow.server);
        op.serverDone = true;
        op.serverWc = wc.copy();
        maybeFinish(wc.wrId(), op);
    }

    private void maybeFinish(long id, Op op) throws VerbsException {
        if (!op.clientDone || !op.serverDone) {
            return;
        }
        ops.remove(id);
        verify(op);
        operationsDone++;
        op.flow.inFlight[op.slot] = null;
        start(op.flow, op.slot);
    }

    private void verify(Op op) {
        Mem target = op.flow.targets[op.slot];
        Mem sink = op.flow.sinks[op.slot];
        byte[] expected = op.kind == Kind.FETCH_ADD || op.kind == Kind.CMP_SWAP ? null : source.bytes(op.srcOffset,
                op.length);
        ByteBuffer words = target.buf().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        switch (op.kind) {
            case WRITE_READ -> {
                assertThat(target.bytes(op.dstOffset, op.length)).as("written").isEqualTo(expected);
                assertThat(sink.bytes(op.dstOffset, op.length)).as("read back").isEqualTo(expected);
                assertThat(op.clientWc.byteLength()).isEqualTo(op.length);
            }
            case READ -> {
                assertThat(sink.bytes(op.dstOffset, op.length)).as("read").isEqualTo(expected);
                assertThat(op.clientWc.byteLength()).isEqualTo(op.length);
            }
            case SEND -> {
                assertThat(op.serverWc.byteLength()).isEqualTo(op.length);
                assertThat(target.bytes(op.dstOffset, op.length)).as("sent").isEqualTo(expected);
            }
            case WRITE_IMMEDIATE -> {
                assertThat(op.serverWc.immediateData()).hasValue(op.value);
                assertThat(target.bytes(op.dstOffset, op.length)).as("written with immediate").isEqualTo(expected);
            }
            case FETCH_ADD -> {
                assertThat(op.clientWc.atomicOriginalValue()).hasValue(op.value);
                assertThat(sink.buf().duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(op.dstOffset))
                        .isEqualTo(op.value);
                assertThat(words.getLong(op.dstOffset)).isEqualTo(op.value + op.operand);
            }
            case CMP_SWAP -> {
                assertThat(op.clientWc.atomicOriginalValue()).hasValue(op.value);
                assertThat(words.getLong(op.dstOffset)).isEqualTo(op.operand);
            }
        }
        bytesVerified += op.length;
    }
}
