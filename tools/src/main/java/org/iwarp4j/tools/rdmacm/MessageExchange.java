package org.iwarp4j.tools.rdmacm;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.iwarp4j.tools.cli.SessionResources;
import org.iwarp4j.tools.cli.Stacks;
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
 * What librdmacm's {@code rdma_server} and {@code rdma_client} examples share (rdma_server.c, rdma_client.c): one
 * queue pair of one send and one receive, {@code sq_sig_all}, 16-octet inline Sends, a 16-octet receive
 * posted before connecting or accepting, and {@code rdma_get_send_comp}/{@code rdma_get_recv_comp}.
 */
final class MessageExchange implements AutoCloseable {

    /** Both examples exchange exactly 16 octets (zeros, never checked). */
    static final int MESSAGE_LENGTH = 16;
    private static final Duration COMPLETION_TIMEOUT = Duration.ofSeconds(30);

    final Rnic rnic;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final MemoryRegion recv;
    /** The 16 octets sent: inline, so unregistered, as the examples leave them with IBV_SEND_INLINE. */
    private final ByteBuffer send = ByteBuffer.allocate(MESSAGE_LENGTH);
    QueuePair qp;
    Connection connection;

    /** What {@link #close()} releases: the RNIC, or only what this exchange allocated on it. */
    private final SessionResources resources;

    /** An exchange on an RNIC of its own, closed with it. */
    MessageExchange(String name) {
        this(Stacks.openRnic(name.replace('_', '-')), true);
    }

    /**
     * An exchange on {@code rnic}; without {@code ownsRnic} (a persistent server's client), {@link #close()} releases
     * only the queue pair, region, completion queues and protection domain of this exchange.
     */
    MessageExchange(Rnic rnic, boolean ownsRnic) {
        this.rnic = rnic;
        this.resources = new SessionResources(rnic, ownsRnic);
        try {
            pd = resources.add(rnic.allocateProtectionDomain());
            sendCq = resources.add(rnic.createCompletionQueue(4));
            recvCq = resources.add(rnic.createCompletionQueue(4));
            recv = resources.add(pd.allocateRegion(MESSAGE_LENGTH, Access.LOCAL_WRITE));
        } catch (RuntimeException e) {
            throw resources.closeAfter(e);
        }
    }

    /**
     * The RNIC's largest IRD/ORD (128 by default, as on siw): what librdmacm offers when {@code rdma_connect} or
     * {@code rdma_accept} get no parameters.
     */
    int maxIrdOrd() {
        return rnic.query().maxIrdOrd();
    }

    /**
     * {@code rdma_create_ep} with one send, one receive, 16 octets inline, every send signaled; then
     * {@code rdma_post_recv}.
     */
    void createQueuePairAndPostReceive(int ird, int ord) {
        qp = resources.add(pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).maxSendWr(1).maxRecvWr(1)
                .maxSge(1).maxInlineData(MESSAGE_LENGTH).signalAll(true).ird(ird).ord(ord).rfc7306(false).build()));
        qp.postReceive(ReceiveWorkRequest.of(1, recv));
    }

    /** {@code rdma_post_send(..., IBV_SEND_INLINE)} of the 16-octet message. */
    void postSend() {
        qp.postSend(SendWorkRequest.Send.inline(2, send));
    }

    /**
     * {@code rdma_get_send_comp} / {@code rdma_get_recv_comp}: the next completion of the queue, which must succeed.
     */
    void awaitCompletion(CompletionQueue cq, CompletionOpcode opcode, String verb) throws Exception {
        WorkCompletion wc = cq.take(COMPLETION_TIMEOUT).orElseThrow(
                () -> new Exception(verb + ": no completion within " + COMPLETION_TIMEOUT.toSeconds() + " s"));
        if (!wc.isSuccess() || wc.opcode() != opcode) {
            throw new Exception(verb + ": " + wc);
        }
        if (opcode == CompletionOpcode.RECV && wc.byteLength() != MESSAGE_LENGTH) {
            throw new Exception(verb + ": received " + wc.byteLength() + " octets, expected " + MESSAGE_LENGTH);
        }
    }

    /** What one example does once its queue pair exists: connect or accept, then the exchange. */
    @FunctionalInterface
    interface Body {
        void run(MessageExchange x) throws Exception;
    }

    /**
     * Runs {@code body} in a fresh exchange as the example {@code program} does: 0 on success, -1 (with the
     * reason on {@code err}) on any failure; the connection is disconnected either way.
     */
    static int run(String program, PrintWriter err, Body body) {
        try (MessageExchange x = new MessageExchange(program)) {
            try {
                body.run(x);
            } finally {
                x.disconnect(err);
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(program + ": interrupted");
        } catch (Exception e) {
            err.println(program + ": " + Stacks.describe(e));
        } finally {
            err.flush();
        }
        return -1;
    }

    /** {@code rdma_disconnect}: graceful (RFC 5040 §6.2.1). */
    void disconnect(PrintWriter err) {
        if (connection == null) {
            return;
        }
        try {
            Stacks.get(connection.disconnect(), 10);
        } catch (Exception e) {
            err.println("rdma_disconnect: " + Stacks.describe(e));
        }
    }

    /**
     * Closes the RNIC if it is this exchange's own; else releases the queue pair (abortively if still connected),
     * the region, both queues and the protection domain, which refuses to go while anything of it is open.
     */
    @Override
    public void close() {
        resources.close();
    }
}
