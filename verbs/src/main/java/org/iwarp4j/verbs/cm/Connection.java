package org.iwarp4j.verbs.cm;

import org.iwarp4j.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** An established iWARP connection: one queue pair over one MPA/TCP connection. */
public interface Connection extends AutoCloseable {

    /**
     * The queue pair.
     *
     * @return the connected queue pair
     */
    QueuePair queuePair();

    /**
     * What MPA negotiated.
     *
     * @return the parameters
     */
    ConnectionParameters parameters();

    /**
     * The local TCP address.
     *
     * @return the address
     */
    InetSocketAddress localAddress();

    /**
     * The peer's TCP address.
     *
     * @return the address
     */
    InetSocketAddress remoteAddress();

    /**
     * Whether this side's FPDUs are held: an MPA Responder sends nothing until the Initiator's first FPDU has
     * arrived (RFC 5044 §7.1.2 rule 4), so Sends, Writes and Reads posted on an accepted connection wait — and
     * do not complete — until the client sends. True from accept until then; always false at the Initiator and
     * in peer-to-peer mode once the RTR arrived.
     *
     * @return true while held
     */
    boolean sendsHeld();

    /**
     * {@code rdma_disconnect}, graceful: the message being transmitted is finished and written, then TCP is
     * closed; every outstanding work request completes, those not done with
     * {@link org.iwarp4j.verbs.CompletionStatus#WORK_REQUEST_FLUSHED} — including requests posted but not started
     * yet: to have them sent, wait for their completions before disconnecting. Bounded by the disconnect timeout,
     * after which the close is abortive.
     *
     * @return completes when the TCP connection is closed
     */
    CompletableFuture<Void> disconnect();

    /** Abortive close: TCP reset, every outstanding work request flushed at once. */
    @Override
    void close();

    /**
     * The end of the connection, whoever ended it.
     *
     * @return completes with the {@link CmEvent.Disconnected} event when the TCP connection is closed
     */
    CompletableFuture<CmEvent.Disconnected> closeFuture();
}
