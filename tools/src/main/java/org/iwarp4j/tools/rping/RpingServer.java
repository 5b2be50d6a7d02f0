package org.iwarp4j.tools.rping;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.iwarp4j.tools.cli.ConnectionOptions;
import org.iwarp4j.tools.cli.PersistentServer;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

/**
 * rping's server ({@code rping -s}, the passive side, librdmacm/examples/rping.c): accepts one connection (with
 * {@code -P}, client after client: {@link #runPersistent}), then for every round receives the source advert, RDMA
 * Reads the ping data, sends a go-ahead, receives the sink advert, RDMA Writes the data ({@code strlen + 1} octets)
 * back and sends a go-ahead. When the client disconnects (§G) the pending receive is flushed: the server says so as
 * rping does and ends successfully.
 */
final class RpingServer extends RpingSession {

    /** rping's {@code -d} line for either advert it receives ({@link #debugAdvert}). */
    private static final String RECEIVED_ADVERT = "Received rkey %2$x addr %1$x len %3$d from peer";

    private final CompletableFuture<ConnectionRequest> request = new CompletableFuture<>();
    private final CompletableFuture<String> autoRejected = new CompletableFuture<>();
    /** Rounds served: source read, sink written. */
    private long pings;

    /** rping without -P: one connection on an RNIC of its own. */
    RpingServer(RpingOptions options, PrintWriter out, PrintWriter err) {
        super(options, out, err, "rping-server");
    }

    /** One client of rping -P on the persistent server's RNIC. */
    private RpingServer(RpingOptions options, PrintWriter out, PrintWriter err, Rnic rnic) {
        super(options, out, err, rnic, false);
    }

    @Override
    String role() {
        return "server";
    }

    /** rping -s: serves the first connection request, refuses the others, ends when that client is gone. */
    void run() throws Exception {
        ListenOptions.Builder lb = options.responder().applyTo(options.connection().applyTo(options.wire().listen()));
        Listener listener = rnic.listen(options.address(), lb.eventListener(event -> {
            onCmEvent(event);
            if (event instanceof CmEvent.Rejected rejected) {
                // --required-ord: MPA rejected the Request itself (RFC 6581 §9.1)
                autoRejected.complete(Stacks.describeInsufficientIrd(rejected));
            }
        }).build(), r -> {
            // rping serves one connection (no -P): later requests are refused.
            if (!request.complete(r)) {
                r.reject(new byte[0]);
            }
        });
        debug("rdma_listen on %s", listener.localAddress());
        // Like rping, the listener lives until the end (it also owns the capture file of --pcap).
        try (listener) {
            CompletableFuture.anyOf(request, autoRejected).get();
            if (autoRejected.isDone()) {
                err.println("server: " + autoRejected.get() + " (--required-ord " + options.responder().requiredOrd()
                        + ")");
                err.flush();
                return;
            }
            answer(request.get());
        }
    }

    /**
     * rping -s -P (rping.c's persistent server): serves client after client, each on its own thread with its own
     * queue pair and buffers, at most {@code maxClients} at once, until SIGINT, SIGTERM or an interrupt.
     */
    static void runPersistent(RpingOptions options, int maxClients, PrintWriter out, PrintWriter err) {
        PersistentServer server = new PersistentServer("rping server", maxClients, out, err);
        ListenOptions.Builder lb = options.responder().applyTo(options.connection().applyTo(options.wire().listen()));
        try (Rnic rnic = Stacks.openRnic("rping-server");
             Listener listener = rnic.listen(options.address(), lb.eventListener(server.events()).build(),
                     server.requests((r, client) -> {
                         try (RpingServer s = new RpingServer(options, client.out(), client.err(), rnic)) {
                             client.onEvent(s::onCmEvent);
                             return s.answer(r);
                         }
                     }))) {
            server.serve(listener);
        }
    }

    /** rping's CM event handler: {@code -d} names every event, a disconnect is said on stderr. */
    private void onCmEvent(CmEvent event) {
        debug("cma_event type %s", cmaEventType(event));
        if (event instanceof CmEvent.Disconnected) {
            err.println("server DISCONNECT EVENT...");
            err.flush();
        }
    }

    /** Accepts (or with {@code --reject} rejects) {@code r} and serves it until the client disconnects. */
    private String answer(ConnectionRequest r) throws Exception {
        state = RpingState.CONNECT_REQUEST;
        debug("child cma from %s: %s", r.remoteAddress(), Stacks.describe(r));
        if (options.responder().reject()) {
            reject(r);
            return "rejected (--reject)";
        }
        accept(r);
        try {
            serve();
        } finally {
            disconnect();
        }
        return "disconnected after " + pings + (pings == 1 ? " ping" : " pings");
    }

    /**
     * As rping.c: receives posted before the Reply; the Reply answers IRD = the client's ORD and
     * ORD = the client's IRD (what librdmacm's {@code rdma_accept(id, NULL)} derives), so the server may
     * RDMA Read the client as many times at once as the client allows, both at most the RNIC's limit (128, as a
     * Linux siw device).
     */
    private void accept(ConnectionRequest r) throws Exception {
        ConnectionOptions mpa = options.connection();
        int max = rnic.query().maxIrdOrd();
        int ird = mpa.responderIrd(r.ord(), max, OptionalInt.of(Math.min(r.ord().orElse(1), max))).getAsInt();
        int ord = mpa.ord(Math.min(r.ird().orElse(1), max));
        qp = createQueuePair(Math.max(ird, 1), Math.max(ord, 1));
        verbs.postReceive();
        debug("accepting client connection request");
        try {
            AcceptOptions answer = AcceptOptions.withPrivateData(mpa.privateData()).withIrdOrd(ird, ord);
            connection = Stacks.get(r.accept(qp, answer), 30);
        } catch (Exception e) {
            throw new RpingFailure("connect error: " + Stacks.describe(e));
        }
        debugParameters();
        ord = connection.parameters().ord();
        if (ord < 1) {
            throw new RpingFailure("the client offers IRD " + Stacks.depth(r.ird()) + ": the server cannot RDMA Read "
                    + "its ping data (a client needs MPA revision 2 and IRD >= 1: RFC 6581 §9.1; "
                    + "interop/FINDINGS.md M4)");
        }
    }

    /** {@code --reject}: an MPA Reply with R=1 and the private data asked for (RFC 5044 §7.1.2 rule 2). */
    private void reject(ConnectionRequest r) throws Exception {
        byte[] data = options.responder().rejectData();
        Stacks.get(r.reject(data), 10);
        err.println("server: rejected the connection request from " + r.remoteAddress() + " (--reject), private data "
                + Stacks.hexOrNone(data));
        err.flush();
    }

    private void serve() throws Exception {
        int size = options.size();
        while (true) {
            // Wait for the client's source STag/TO/length.
            if (await(CompletionOpcode.RECV, RpingState.RDMA_READ_ADV) == null) {
                err.println(waitFailed(RpingState.RDMA_READ_ADV));
                err.flush();
                return;
            }
            state = RpingState.RDMA_READ_ADV;
            RemoteBuffer source = advert(recv.buffer());
            debugAdvert(RECEIVED_ADVERT, source);
            checkLength(source, size);
            verbs.read(source, (int) source.length());
            debug("server posted rdma read req");
            if (await(CompletionOpcode.RDMA_READ, RpingState.RDMA_READ_COMPLETE) == null) {
                throw new RpingFailure(waitFailed(RpingState.RDMA_READ_COMPLETE));
            }
            state = RpingState.RDMA_READ_COMPLETE;
            if (options.verbose()) {
                out.println("server ping data: " + RpingData.string(rdma.buffer(), size));
                out.flush();
            }
            verbs.sendGoAhead(1); // 16 octets of zeros, as rping sends
            debug("server posted go ahead");

            if (await(CompletionOpcode.RECV, RpingState.RDMA_WRITE_ADV) == null) {
                throw new RpingFailure(waitFailed(RpingState.RDMA_WRITE_ADV));
            }
            state = RpingState.RDMA_WRITE_ADV;
            RemoteBuffer sink = advert(recv.buffer());
            debugAdvert(RECEIVED_ADVERT, sink);
            // rping writes back strlen(rdma_buf) + 1 octets: the string and its NUL.
            int length = Math.min(RpingData.strlen(rdma.buffer(), size) + 1, size);
            verbs.write(sink, length);
            debug("rdma write from lkey %x laddr %x len %d", rdma.stag().value(), rdma.address(), length);
            if (await(CompletionOpcode.RDMA_WRITE, RpingState.RDMA_WRITE_COMPLETE) == null) {
                throw new RpingFailure(waitFailed(RpingState.RDMA_WRITE_COMPLETE));
            }
            state = RpingState.RDMA_WRITE_COMPLETE;
            debug("server rdma write complete");
            verbs.sendGoAhead(1);
            debug("server posted go ahead");
            pings++;
        }
    }

    /**
     * The client's advert (STag, TO, length) in the 16 octets of the receive buffer. It comes from the
     * network: a buffer that cannot exist (TO + length beyond 2^64) is the client's error, said as such.
     */
    static RemoteBuffer advert(ByteBuffer received) throws RpingFailure {
        try {
            return RemoteBuffer.decode(received);
        } catch (IllegalArgumentException e) {
            throw new RpingFailure("the client advertises an impossible buffer: " + e.getMessage());
        }
    }

    private static void checkLength(RemoteBuffer advert, int size) throws RpingFailure {
        if (advert.length() > size) {
            throw new RpingFailure("the client advertises " + advert.length()
                    + " octets, more than this server's -S " + size + " (both sides must use the same -S)");
        }
    }
}
