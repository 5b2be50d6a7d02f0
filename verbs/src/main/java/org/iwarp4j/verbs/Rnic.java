package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.internal.RnicImpl;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One software RNIC ({@code ibv_context}): owns the event loops every connection runs on, the limits
 * ({@link #query()}), the STag table of its memory regions and windows and the RNIC-wide atomic lock
 * (RFC 7306 §5). It is also the connection manager ({@code rdma_cm}): {@link #listen} and {@link #connect}.
 *
 * <p>Thread-safe. {@link #close()} closes every listener and connection, deregisters what is still registered and
 * stops the event loops.
 *
 * <p><b>Threading rule.</b> Callbacks (connection manager events, connection request handlers, completion
 * handlers, async event listeners, and the dependent stages of the futures this API returns, unless given an
 * executor) run on the RNIC's event loops. They must not block: a blocking call of this API
 * ({@code CompletableFuture.get/join} on its futures, {@link CompletionQueue#take}, {@link Rnic#listen},
 * {@link Rnic#close}, ...) made on an event loop throws {@link IllegalStateException} instead of deadlocking it,
 * whenever it would have to wait (a future already done, a poll with completions at hand, return at once).
 */
public interface Rnic extends AutoCloseable {

    /**
     * Opens an RNIC.
     *
     * @param config limits, transport and threads
     * @return the RNIC
     */
    static Rnic open(RnicConfig config) {
        return new RnicImpl(config, null);
    }

    /**
     * Opens an RNIC with the defaults.
     *
     * @return the RNIC
     */
    static Rnic open() {
        return open(RnicConfig.defaults());
    }

    /**
     * The configured name, for logs and tools.
     *
     * @return the name
     */
    String name();

    /**
     * The configuration it was opened with.
     *
     * @return the configuration
     */
    RnicConfig config();

    /**
     * The transport in use (epoll when available unless configured).
     *
     * @return the transport
     */
    Transport transport();

    /**
     * {@code ibv_query_device}: the limits a user can ask for before hitting them.
     *
     * @return the RNIC's attributes
     */
    RnicAttributes query();

    /**
     * {@code ibv_alloc_pd}.
     *
     * @return a new protection domain
     */
    ProtectionDomain allocateProtectionDomain();

    /**
     * {@code ibv_create_cq} without a channel.
     *
     * @param capacity completions the queue holds, 1 to {@link RnicAttributes#maxCompletionQueueDepth()}
     * @return the completion queue
     */
    CompletionQueue createCompletionQueue(int capacity);

    /**
     * {@code ibv_create_cq} reporting to {@code channel} when armed.
     *
     * @param capacity completions the queue holds
     * @param channel  the channel {@link CompletionQueue#arm(NotifyMode)} reports to
     * @return the completion queue
     */
    CompletionQueue createCompletionQueue(int capacity, CompletionChannel channel);

    /**
     * {@code ibv_create_comp_channel}.
     *
     * @return a new completion channel
     */
    CompletionChannel createCompletionChannel();

    /**
     * {@code rdma_bind_addr} + {@code rdma_listen}: accepts TCP connections on {@code address} and runs the
     * MPA Responder on each; every valid MPA Request reaches {@code handler} as a
     * {@link org.iwarp4j.verbs.cm.ConnectionRequest}. Blocks until bound.
     *
     * @param address the local address (port 0: any free port, see {@link Listener#localAddress()})
     * @param options MPA and connection settings of the accepted connections
     * @param handler decides on each request
     * @return the listener
     * @throws VerbsException        if the address cannot be bound
     * @throws IllegalStateException on an event loop thread
     */
    Listener listen(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler);

    /**
     * {@code rdma_listen} without a handler: connection requests wait for {@link Listener#take(java.time.Duration)}.
     *
     * @param address the local address (port 0: any free port)
     * @param options MPA and connection settings of the accepted connections
     * @return the listener
     * @throws VerbsException        if the address cannot be bound
     * @throws IllegalStateException on an event loop thread
     */
    Listener listen(InetSocketAddress address, ListenOptions options);

    /**
     * {@code rdma_resolve_addr} + {@code rdma_resolve_route} + {@code rdma_connect}: connects {@code queuePair}
     * (in {@link QueuePairState#IDLE}; post its first receives before) to a listener. The future completes with
     * the connection once MPA reached Full Operation (after the RTR in peer-to-peer mode), or fails with
     * {@link org.iwarp4j.verbs.cm.ConnectionRejectedException} or
     * {@link org.iwarp4j.verbs.cm.ConnectionFailedException}; the connect and MPA startup timeouts of
     * {@code options} bound it.
     *
     * @param address   the listener's address
     * @param queuePair a fresh queue pair of this RNIC
     * @param options   MPA and connection settings
     * @return the connection, when established
     */
    CompletableFuture<Connection> connect(InetSocketAddress address, QueuePair queuePair, ConnectOptions options);

    /**
     * Closes every listener and connection (abortively; those still in MPA startup too, a request that waits for the
     * application's decision among them), then every memory window and region still registered (as their own
     * {@code close} does), and stops the event loops; waits for them.
     *
     * @throws IllegalStateException on an iwarp4j event loop (this RNIC's could not wait for its own end, and
     *                               another's must not block)
     */
    @Override
    void close();
}
