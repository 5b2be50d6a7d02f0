package org.iwarp4j.tools.soak;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendFlag;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWriteWithImmediate;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.SendWorkRequest.SendWithInvalidate;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.WorkCompletionException;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.TcpKeepalive;

/**
 * One queue pair of the soak's client, on a thread of its own: connects (again and again, as the server is killed
 * and connections are reset), then posts batches of 1 to 12 random operations — Send, Send with Solicited Event,
 * Send with Invalidate of the window the server advertised, RDMA Write read back, RDMA Write with Immediate read
 * back, RDMA Read of the read lane, FetchAdd, CmpSwap — with random sizes, awaits them and checks every octet and
 * every original value. Now and then it resets its own connection with batch in flight.
 */
final class SoakClient implements Runnable {

    /** A batch that has not completed in this time is a hang. */
    static final Duration HANG = Duration.ofSeconds(90);

    private final Rnic rnic;
    private final InetSocketAddress server;
    private final long deadline;
    private final SoakStats stats;
    private final SplittableRandom random;
    private final int id;

    SoakClient(int id, Rnic rnic, InetSocketAddress server, long deadlineNanos, SoakStats stats, long seed) {
        this.id = id;
        this.rnic = rnic;
        this.server = server;
        this.deadline = deadlineNanos;
        this.stats = stats;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void run() {
        Thread.currentThread().setName("soak-qp-" + id);
        while (System.nanoTime() < deadline && !stats.failed()) {
            try {
                session();
            } catch (TimeoutException e) {
                stats.hang("queue pair " + id + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | ExecutionException e) {
                stats.unexpected("queue pair " + id + ": " + e);
            }
        }
    }

    /** The memory of one connection, closed with it. */
    private static final class Local implements AutoCloseable {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemoryRegion memory;
        final MemoryRegion adverts;
        final QueuePair qp;

        Local(Rnic rnic) {
            pd = rnic.allocateProtectionDomain();
            cq = rnic.createCompletionQueue(64);
            memory = pd.allocateRegion(2 << 20, Access.LOCAL_WRITE);
            adverts = pd.allocateRegion(4 * 16, Access.LOCAL_WRITE);
            qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(64).maxRecvWr(8).ord(16).ird(4)
                    .responseTimeout(Duration.ofSeconds(20)).build());
        }

        @Override
        public void close() {
            qp.close();
            memory.close();
            adverts.close();
            cq.close();
            pd.close();
        }
    }

    private void session() throws InterruptedException, TimeoutException, ExecutionException {
        try (Local local = new Local(rnic)) {
            for (int i = 0; i < 4; i++) {
                local.qp.postReceive(ReceiveWorkRequest.of(i, local.adverts.sge(i * 16L, 16)));
            }
            Connection connection;
            try {
                connection = rnic.connect(server, local.qp, ConnectOptions.builder()
                        .keepalive(TcpKeepalive.of(Duration.ofSeconds(5), Duration.ofSeconds(2), 3)
                                .withUserTimeout(Duration.ofSeconds(30)))
                        .connectTimeout(Duration.ofSeconds(5)).build()).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                stats.connectFailed();
                Thread.sleep(200 + random.nextInt(300)); // the server is being restarted
                return;
            }
            stats.connected();
            ByteBuffer pd = ByteBuffer.wrap(connection.parameters().peerPrivateData()).order(SoakLayout.ORDER);
            RemoteBuffer shared = RemoteBuffer.decode(pd);
            byte[] lane = SoakLayout.octets(pd.getLong(), SoakLayout.READ_LANE);
            Session s = new Session(local, connection, shared, lane);
            s.run();
            CmEvent.Disconnected end;
            if (connection.closeFuture().isDone()) {
                end = connection.closeFuture().join();
            } else {
                connection.disconnect();
                try {
                    end = connection.closeFuture().get(30, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new TimeoutException("the disconnect did not end within 30 s");
                }
            }
            stats.ended(end.reason());
        }
    }

    /** One connection's traffic. */
    private final class Session {
        final Local local;
        final Connection connection;
        final RemoteBuffer shared;
        final byte[] lane;
        long counter;
        long sent;
        long serverReceived;
        long immediate;
        long wrId;
        Stag window;
        final WorkCompletion[] one = WorkCompletion.array(1);

        Session(Local local, Connection connection, RemoteBuffer shared, byte[] lane) {
            this.local = local;
            this.connection = connection;
            this.shared = shared;
            this.lane = lane;
        }

        /** A posted operation and what to check once it completed. */
        private record Op(CompletableFuture<WorkCompletion> future, Check check) {}

        private interface Check {
            /** @return octets verified */
            long check(WorkCompletion wc);
        }

        void run() throws InterruptedException, TimeoutException {
            while (System.nanoTime() < deadline && !stats.failed() && !connection.closeFuture().isDone()) {
                takeAdverts();
                int n = 1 + random.nextInt(12);
                if (sent + n + 1 - serverReceived > SoakLayout.CREDITS && !refreshCredits()) {
                    return;
                }
                List<Op> ops = new ArrayList<>();
                int localOffset = 0;
                int remoteOffset = SoakLayout.WRITE_AREA;
                for (int i = 0; i < n; i++) {
                    int length = size();
                    if (localOffset + 2 * length > (2 << 20) || remoteOffset + length > SoakLayout.WRITE_AREA_END) {
                        break;
                    }
                    if (!post(ops, random.nextInt(9), localOffset, remoteOffset, length)) {
                        return;
                    }
                    localOffset += 2 * length;
                    remoteOffset += length;
                }
                boolean reset = random.nextInt(400) == 0;
                if (reset) {
                    stats.resetByClient();
                    connection.close(); // abortive, with the batch in flight: its work is flushed
                }
                await(ops);
            }
        }

        /** Log-uniform, 1 octet to 256 KiB. */
        int size() {
            return Math.max(1, (int) Math.pow(2, random.nextDouble() * 18));
        }

        boolean post(List<Op> ops, int kind, int lo, int ro, int length) {
            ByteBuffer mem = local.memory.buffer();
            try {
                switch (kind) {
                    case 0, 1, 2 -> {
                        int len = Math.min(SoakLayout.MAX_SEND, Math.max(8, length));
                        SoakLayout.sendPayload(mem, lo, random.nextLong(), len);
                        SendWorkRequest wr;
                        if (kind == 2 && window != null) {
                            wr = SendWithInvalidate.of(++wrId, window, local.memory.sge(lo, len));
                            window = null;
                        } else if (kind == 1) {
                            wr = new Send(++wrId, List.of(local.memory.sge(lo, len)),
                                    Set.of(SendFlag.SIGNALED, SendFlag.SOLICITED));
                        } else {
                            wr = Send.of(++wrId, local.memory.sge(lo, len));
                        }
                        sent++;
                        ops.add(new Op(local.qp.postSendAsync(wr), wc -> 0)); // the server checks the octets
                    }
                    case 3, 4 -> {
                        long seed = random.nextLong();
                        byte[] data = SoakLayout.octets(seed, length);
                        mem.put(lo, data);
                        RemoteBuffer target = shared.slice(ro, length);
                        SendWorkRequest write = kind == 3 ? RdmaWrite.of(++wrId, local.memory.sge(lo, length), target)
                                : RdmaWriteWithImmediate.of(++wrId, local.memory.sge(lo, length), target,
                                immediate++);
                        if (kind == 4) {
                            sent++;
                        }
                        ops.add(new Op(local.qp.postSendAsync(write), wc -> 0));
                        // RFC 5040 §5.5: a Read after a Write returns what the Write placed.
                        int back = lo + length;
                        ops.add(new Op(local.qp.postSendAsync(RdmaRead.of(++wrId, local.memory.sge(back, length),
                                target)), wc -> verify(back, data, "Write read back")));
                    }
                    case 5, 6 -> {
                        int len = Math.min(length, SoakLayout.READ_LANE);
                        int from = random.nextInt(SoakLayout.READ_LANE - len + 1);
                        byte[] expected = Arrays.copyOfRange(lane, from, from + len);
                        ops.add(new Op(local.qp.postSendAsync(RdmaRead.of(++wrId, local.memory.sge(lo, len),
                                shared.slice(from, len))), wc -> verify(lo, expected, "Read of the read lane")));
                    }
                    case 7 -> {
                        long add = random.nextLong();
                        long before = counter;
                        counter += add;
                        ops.add(new Op(local.qp.postSendAsync(AtomicFetchAdd.of(++wrId,
                                shared.slice(SoakLayout.COUNTER, 8), add)), wc -> original(wc, before, "FetchAdd")));
                    }
                    default -> {
                        long swap = random.nextLong();
                        long before = counter;
                        // Now and then a compare that must fail: the word stays.
                        boolean match = random.nextInt(4) != 0;
                        long compare = match ? before : before ^ 1;
                        if (match) {
                            counter = swap;
                        }
                        ops.add(new Op(local.qp.postSendAsync(AtomicCompareSwap.of(++wrId,
                                shared.slice(SoakLayout.COUNTER, 8), compare, swap)),
                                wc -> original(wc, before, "CmpSwap")));
                    }
                }
                return true;
            } catch (RuntimeException e) {
                // Posting to a queue pair whose connection just went is refused: the session ends.
                if (connection.closeFuture().isDone() || !local.qp.state().name().equals("RTS")) {
                    return false;
                }
                throw e;
            }
        }

        long verify(int offset, byte[] expected, String what) {
            int bad = SoakLayout.mismatch(local.memory.buffer(), offset, expected);
            if (bad >= 0) {
                stats.corruption("queue pair " + id + ": " + what + " of " + expected.length
                        + " octets differs at octet " + bad);
                return 0;
            }
            return expected.length;
        }

        long original(WorkCompletion wc, long expected, String what) {
            long got = wc.atomicOriginalValue().orElse(~expected);
            if (got != expected) {
                stats.corruption("queue pair " + id + ": " + what + " original " + got + " where " + expected
                        + " was in the word");
                return 0;
            }
            return 8;
        }

        void await(List<Op> ops) throws InterruptedException, TimeoutException {
            long until = System.nanoTime() + HANG.toNanos();
            for (Op op : ops) {
                WorkCompletion wc;
                try {
                    wc = op.future.get(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
                    if (cause instanceof WorkCompletionException w) {
                        stats.flushed(w.completion().status());
                        continue;
                    }
                    throw new IllegalStateException("a work request failed without a completion", cause);
                } catch (TimeoutException e) {
                    throw new TimeoutException("a work request did not complete within " + HANG.toSeconds() + " s");
                }
                stats.completed(op.check.check(wc));
            }
        }

        void takeAdverts() {
            for (WorkCompletion wc; local.cq.poll(one) == 1 && (wc = one[0]) != null; ) {
                if (!wc.isSuccess()) {
                    stats.flushed(wc.status());
                    continue;
                }
                int slot = (int) wc.wrId();
                ByteBuffer advert = local.adverts.buffer().duplicate().position(slot * 16).limit(slot * 16 + 16);
                window = RemoteBuffer.decode(advert.slice()).stag();
                try {
                    local.qp.postReceive(ReceiveWorkRequest.of(slot, local.adverts.sge(slot * 16L, 16)));
                } catch (RuntimeException e) {
                    return;
                }
            }
        }

        /** Reads how many receives the server has handled; false if the connection went meanwhile. */
        boolean refreshCredits() throws InterruptedException, TimeoutException {
            long until = System.nanoTime() + HANG.toNanos();
            while (sent + 13 - serverReceived > SoakLayout.CREDITS) {
                if (System.nanoTime() > until) {
                    throw new TimeoutException("the server handled no receive within " + HANG.toSeconds() + " s");
                }
                int at = (2 << 20) - 8;
                List<Op> ops = new ArrayList<>();
                try {
                    ops.add(new Op(local.qp.postSendAsync(RdmaRead.of(++wrId, local.memory.sge(at, 8),
                            shared.slice(SoakLayout.RECEIVED, 8))), wc -> 0));
                } catch (RuntimeException e) {
                    return false;
                }
                long before = stats.flushedTotal();
                await(ops);
                if (stats.flushedTotal() != before) {
                    return false;
                }
                serverReceived = local.memory.buffer().duplicate().order(SoakLayout.ORDER).getLong(at);
                if (sent + 13 - serverReceived > SoakLayout.CREDITS) {
                    Thread.sleep(1);
                }
            }
            return true;
        }
    }
}
