package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;

/**
 * perftest's control connection ({@code create_comm_struct} with {@code -R}): one queue pair, Send/Recv only, each
 * message answered before the next ({@code ctx_xchg_data}: the client sends first and then receives, the server
 * receives first and then answers), every send waited for, every receive re-posted after use. Receives are
 * larger than any message perftest 4.5 sends, so that a bigger one (a later perftest) is refused by its length
 * with a message instead of ending the connection with a receive that is too short.
 */
final class PerftestControl implements AutoCloseable {

    /** Larger than any control message of any perftest (upstream's parameter block is about 300 octets). */
    static final int RECEIVE_SLOT = 4096;
    static final int RECEIVES = 4;
    static final Duration MESSAGE_WAIT = Duration.ofSeconds(30);
    private static final long SEND_WR_ID = 5; // perftest's SYNC_SPEC_ID, for the reader of a capture

    private final boolean client;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final MemoryRegion receives;
    private final MemoryRegion send;
    private final QueuePair qp;
    private final WorkCompletion[] wc = WorkCompletion.array(1);
    private Connection connection;

    /** A control queue pair of {@code rnic}, its receives posted, not connected yet. */
    PerftestControl(Rnic rnic, ProtectionDomain pd, boolean client) {
        this.client = client;
        sendCq = rnic.createCompletionQueue(16);
        recvCq = rnic.createCompletionQueue(16);
        receives = pd.allocateRegion(RECEIVE_SLOT * RECEIVES, Access.LOCAL_WRITE);
        send = pd.allocateRegion(PerftestWire.MAX_MESSAGE);
        // perftest's control QP has IRD = ORD = 0: Sends only (its create_comm_struct makes the verb SEND)
        qp = pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).maxSendWr(4).maxRecvWr(RECEIVES).maxSge(1)
                .ird(0).ord(0).build());
        for (int i = 0; i < RECEIVES; i++) {
            repost(i);
        }
    }

    QueuePair queuePair() {
        return qp;
    }

    void connected(Connection c) {
        connection = c;
    }

    Connection connection() {
        return connection;
    }

    private void repost(int slot) {
        qp.postReceive(ReceiveWorkRequest.of(slot, receives.sge((long) slot * RECEIVE_SLOT, RECEIVE_SLOT)));
    }

    /** One {@code ctx_xchg_data}: ours and theirs, in the order of our role; theirs must be {@code length} octets. */
    byte[] exchange(byte[] mine, int length, String what) throws InterruptedException {
        return exchange(mine, length, what, MESSAGE_WAIT);
    }

    /** {@link #exchange(byte[], int, String)} waiting up to {@code wait} for the peer's message. */
    byte[] exchange(byte[] mine, int length, String what, Duration wait) throws InterruptedException {
        if (client) {
            send(mine, what);
            return receive(length, what, wait);
        }
        byte[] theirs = receive(length, what, wait);
        send(mine, what);
        return theirs;
    }

    /** The five messages of a bandwidth report ({@code xchg_bw_reports}), each exchanged in turn. */
    List<byte[]> exchangeAll(List<byte[]> mine, int length, String what, Duration firstWait)
            throws InterruptedException {
        List<byte[]> theirs = new ArrayList<>(mine.size());
        for (byte[] m : mine) {
            theirs.add(exchange(m, length, what, theirs.isEmpty() ? firstWait : MESSAGE_WAIT));
        }
        return theirs;
    }

    private void send(byte[] m, String what) throws InterruptedException {
        ByteBuffer b = send.buffer();
        b.clear();
        b.put(0, m);
        qp.postSend(SendWorkRequest.Send.of(SEND_WR_ID, send.sge(0, m.length)));
        long deadline = System.nanoTime() + MESSAGE_WAIT.toNanos();
        while (true) {
            int n = sendCq.poll(wc, Duration.ofMillis(200));
            if (n > 0) {
                check(wc[0], "sending the " + what);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new PerftestException("the " + what + " Send did not complete within "
                        + MESSAGE_WAIT.toSeconds() + " s");
            }
        }
    }

    private byte[] receive(int length, String what, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            int n = recvCq.poll(wc, Duration.ofMillis(200));
            if (n > 0) {
                WorkCompletion c = wc[0];
                check(c, "receiving the " + what);
                if (c.opcode() != CompletionOpcode.RECV) {
                    throw new PerftestException("unexpected completion on the control connection: " + c);
                }
                int slot = (int) c.wrId();
                long got = c.byteLength();
                byte[] m = new byte[(int) Math.min(got, RECEIVE_SLOT)];
                receives.buffer().get(slot * RECEIVE_SLOT, m);
                repost(slot);
                if (got != length) {
                    throw new PerftestException("the peer's " + what + " message is " + got + " octets, perftest "
                            + PerftestWire.VERSION + " sends " + length
                            + (got > PerftestWire.MAX_MESSAGE ? " (a later perftest? see docs/perftest-wire.md)" : ""));
                }
                return m;
            }
            if (connection != null && connection.closeFuture().isDone()) {
                throw new PerftestException("the peer closed the control connection while we waited for its " + what);
            }
            if (System.nanoTime() > deadline) {
                throw new PerftestException("no " + what + " from the peer within " + wait.toSeconds() + " s");
            }
        }
    }

    private static void check(WorkCompletion c, String doing) {
        if (!c.isSuccess()) {
            throw new PerftestException(doing + " on the control connection failed: " + c);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        qp.close();
    }
}
