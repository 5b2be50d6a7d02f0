package org.iwarp4j.tools.rping;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.iwarp4j.tools.cli.SessionResources;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.Connection;

/**
 * What both rping roles own (rping's control block): one completion queue for sends and receives, the
 * 16-octet receive and send buffers, the RDMA buffer of {@code -S} octets, a queue pair with one receive
 * posted (re-posted after every receive completion, as rping.c does), and the completion handling of
 * rping's CQ thread.
 */
abstract class RpingSession implements AutoCloseable {

    /**
     * Every rping Send is exactly this long ({@code struct rping_rdma_info}: be64 buf, be32 rkey, be32 size, as
     * {@link RemoteBuffer#encode()} lays it out); any other receive length is an error on both sides. The server's
     * go-aheads have the same length; their content is ignored (rping and siw send zeros).
     */
    static final int MESSAGE_LENGTH = RemoteBuffer.ENCODED_LENGTH;
    /** rping's {@code RPING_SQ_DEPTH}. */
    static final int SEND_QUEUE_DEPTH = 16;
    private static final long RECEIVE_WR_ID = 1;
    private static final long SEND_WR_ID = 2;
    private static final long RDMA_WR_ID = 3;

    final RpingOptions options;
    final PrintWriter out;
    final PrintWriter err;
    final Rnic rnic;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    /** rping's CQ events ({@code ibv_req_notify_cq}, {@code ibv_get_cq_event}): see {@link #nextCompletion}. */
    private final Semaphore cqEvents = new Semaphore(0);
    private final WorkCompletion[] one = WorkCompletion.array(1);
    /** rping's {@code recv_buf}: where adverts and go-aheads arrive. */
    final MemoryRegion recv;
    /** rping's {@code send_buf}: the advert we send (zeros for the server's go-ahead). */
    final MemoryRegion send;
    /**
     * rping's {@code rdma_buf} of {@code -S} octets: the server's Read sink / Write source, the client's Write sink.
     */
    final MemoryRegion rdma;
    private final ReceiveWorkRequest receiveRequest;
    private final SendWorkRequest sendRequest;
    /** rping's wire actions: this session's own, or decorated by {@code --inject}. */
    final RpingVerbs verbs;
    QueuePair qp;
    Connection connection;
    /** A Terminate this queue pair sent or received ({@code ibv_get_async_event}), e.g. with no request outstanding. */
    private volatile TerminateInfo terminate;
    volatile RpingState state = RpingState.IDLE;

    /** What {@link #close()} releases: the RNIC (it is this session's own) or only what this session allocated. */
    private final SessionResources resources;

    /** A session on an RNIC of its own, closed with it. */
    RpingSession(RpingOptions options, PrintWriter out, PrintWriter err, String name) {
        this(options, out, err, Stacks.openRnic(name), true);
    }

    /**
     * A session on {@code rnic}: with {@code ownsRnic}, {@link #close()} closes the RNIC; else it releases the
     * session's queue pair, regions, completion queue and protection domain, and the RNIC serves on (rping -P).
     */
    RpingSession(RpingOptions options, PrintWriter out, PrintWriter err, Rnic rnic, boolean ownsRnic) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.rnic = rnic;
        this.resources = new SessionResources(rnic, ownsRnic);
        try {
            this.pd = resources.add(rnic.allocateProtectionDomain());
            this.cq = resources.add(rnic.createCompletionQueue(SEND_QUEUE_DEPTH * 2));
            this.recv = resources.add(pd.allocateRegion(MESSAGE_LENGTH, Access.LOCAL_WRITE));
            this.send = resources.add(pd.allocateRegion(MESSAGE_LENGTH));
            this.rdma = resources.add(pd.allocateRegion(options.size(), Access.LOCAL_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_WRITE));
        } catch (RuntimeException e) {
            throw resources.closeAfter(e);
        }
        this.receiveRequest = ReceiveWorkRequest.of(RECEIVE_WR_ID, recv);
        this.sendRequest = SendWorkRequest.Send.of(SEND_WR_ID, send);
        RpingVerbs own = new QueuePairVerbs();
        this.verbs = options.inject() == null ? own : new FaultInjectingRpingVerbs(own, options.inject(), err);
    }

    abstract String role();

    /** A queue pair as rping creates it: 16 sends, 2 receives, one SGE, no RFC 7306 (siw has none). */
    QueuePair createQueuePair(int ird, int ord) {
        QueuePair q = resources.add(pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(SEND_QUEUE_DEPTH)
                .maxRecvWr(2).maxSge(1).maxInlineData(0).ird(ird).ord(ord).rfc7306(false).build()));
        q.onAsyncEvent(e -> {
            e.terminate().ifPresent(t -> terminate = t);
            debug("async event %s: %s", e.type(), e.detail());
        });
        return q;
    }

    /** rping's wire actions on this session's queue pair and buffers, unchanged. */
    private final class QueuePairVerbs implements RpingVerbs {
        @Override
        public void postReceive() {
            qp.postReceive(receiveRequest);
        }

        @Override
        public void sendAdvert(Advert which, RemoteBuffer advert, int copies) {
            advert.encode(send.buffer());
            debugAdvert("RDMA addr %1$x rkey %2$x len %3$d", advert);
            post(copies);
        }

        /** 16 octets of zeros, as rping sends (the send buffer is never written by the server). */
        @Override
        public void sendGoAhead(int copies) {
            post(copies);
        }

        private void post(int copies) {
            if (copies == 1) {
                qp.postSend(sendRequest);
            } else {
                qp.postSend(Collections.nCopies(copies, sendRequest));
            }
        }

        @Override
        public void read(RemoteBuffer source, int length) {
            qp.postSend(SendWorkRequest.RdmaRead.of(RDMA_WR_ID, rdma.sge(0, length), source));
        }

        @Override
        public void write(RemoteBuffer sink, int length) {
            qp.postSend(SendWorkRequest.RdmaWrite.of(RDMA_WR_ID, rdma.sge(0, length), sink));
        }
    }

    /** The event as rping's {@code -d} names it, e.g. {@code ESTABLISHED} (librdmacm's name without its prefix). */
    static String cmaEventType(CmEvent event) {
        return event.rdmaCmName().substring("RDMA_CM_EVENT_".length());
    }

    void debug(String format, Object... args) {
        if (options.debug()) {
            out.printf(format + "%n", args);
            out.flush();
        }
    }

    /**
     * rping's {@code -d} line for an advert ({@code struct rping_rdma_info}): {@code format} refers to its address as
     * {@code %1$x}, its rkey (the STag) as {@code %2$x} and its length as {@code %3$d}, each line in rping's order.
     */
    void debugAdvert(String format, RemoteBuffer advert) {
        debug(format, advert.taggedOffset(), advert.stag().value(), advert.length());
    }

    /** {@code -d}: what MPA negotiated for the connection. */
    void debugParameters() {
        if (connection != null) {
            debug("connection %s -> %s: %s", connection.localAddress(), connection.remoteAddress(),
                    Stacks.describe(connection.parameters()));
        }
    }

    /**
     * Processes completions as rping's CQ handler does until one of the kind {@code awaited} arrives:
     * Send completions are skipped, a receive must be exactly 16 octets and is re-posted at once, a flushed
     * request means the connection is gone ({@link RpingState#DISCONNECTED}), any other error fails.
     *
     * @return the completion awaited, or {@code null} once disconnected
     */
    WorkCompletion await(CompletionOpcode awaited, RpingState waitingFor) throws RpingFailure, InterruptedException {
        while (true) {
            WorkCompletion wc = nextCompletion(Duration.ofSeconds(1));
            if (wc == null) {
                if (connection != null && connection.closeFuture().isDone()) {
                    TerminateInfo t = terminate;
                    if (t != null) {
                        // nothing was outstanding to carry it (e.g. the receive we did not re-post)
                        state = RpingState.ERROR;
                        throw new RpingFailure("connection terminated while waiting for " + waitingFor + " ("
                                + t + ")");
                    }
                    state = RpingState.DISCONNECTED; // closed and nothing left to flush
                    return null;
                }
                continue;
            }
            if (!wc.isSuccess()) {
                if (wc.status() == CompletionStatus.WORK_REQUEST_FLUSHED && wc.terminate().isEmpty()) {
                    state = RpingState.DISCONNECTED; // an orderly disconnect (FIN or RST, interop/FINDINGS.md F7)
                    return null;
                }
                // A Terminate either way (RFC 5040 §5.4: always fatal) or a failed connection is no disconnect:
                // name it, with the Terminate's layer, type and code (interop/FINDINGS.md J4).
                state = RpingState.ERROR;
                throw new RpingFailure("cq completion failed status " + wc.status()
                        + wc.terminate().map(t -> " (" + t + ")").orElse(""));
            }
            switch (wc.opcode()) {
                case SEND -> debug("send completion");
                case RDMA_WRITE -> debug("rdma write completion");
                case RDMA_READ -> debug("rdma read completion");
                case RECV -> {
                    debug("recv completion");
                    if (wc.byteLength() != MESSAGE_LENGTH) {
                        state = RpingState.ERROR;
                        throw new RpingFailure("Received bogus data, size " + wc.byteLength());
                    }
                    verbs.postReceive();
                }
                default -> {
                    state = RpingState.ERROR;
                    throw new RpingFailure("unknown completion " + wc.opcode());
                }
            }
            if (wc.opcode() == awaited) {
                return wc;
            }
        }
    }

    /**
     * The next completion (a flyweight reused by the next call), or {@code null} after {@code timeout}. Like rping's
     * CQ thread, it sleeps until the queue's notification fires: a handler armed with {@link NotifyMode#NEXT}, which
     * the queue runs on its event loop once that loop has processed what it was reading. So when a peer's Sends
     * arrive together (rping {@code --inject no-recv}), all of them meet the one receive rping keeps posted, and
     * the second fails (RFC 5041 §7.2). {@link CompletionQueue#poll(WorkCompletion[], Duration)} would wake this
     * thread at the first: it could re-post the receive in time for the second.
     */
    private WorkCompletion nextCompletion(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            cqEvents.drainPermits();
            cq.arm(NotifyMode.NEXT, q -> cqEvents.release());
            if (cq.poll(one) == 1) { // arm, then poll: a completion queued before the arm fires nothing
                return one[0];
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !cqEvents.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                return cq.poll(one) == 1 ? one[0] : null;
            }
        }
    }

    /** rping's message for a wait that ended in another state, e.g. "wait for RDMA_READ_ADV state 10". */
    String waitFailed(RpingState expected) {
        return "wait for " + expected + " state " + state.number;
    }

    /**
     * rping_disconnect: a graceful disconnect (RFC 5040 §6.2.1), then the flushes of whatever was still
     * posted are collected before the RNIC goes away.
     */
    void disconnect() {
        if (connection == null) {
            return;
        }
        try {
            Stacks.get(connection.disconnect(), 10);
        } catch (Exception e) {
            debug("disconnect: %s", Stacks.describe(e));
        }
        try {
            while (nextCompletion(Duration.ofMillis(10)) != null) {
                debug("flushed after disconnect");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes the RNIC if it is this session's own (which releases everything); on a shared RNIC releases what this
     * session allocated, the queue pair first (abortively, if still connected), the protection domain last: it
     * refuses to go while anything of it is open, so a leak fails loudly.
     */
    @Override
    public void close() {
        resources.close();
    }
}
