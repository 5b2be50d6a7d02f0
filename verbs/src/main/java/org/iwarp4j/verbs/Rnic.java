package org.iwarp4j.verbs;

import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.internal.RnicImpl;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletionStage;

/**
 * One software RNIC ({@code ibv_context}): owns the Netty event loops every connection runs on, the
 * limits, the STag table of all its memory regions and the RNIC-wide atomic lock (RFC 7306 §5,
 * EXT-05). It is also the connection manager ({@code rdma_cm}): {@link #listen} and {@link #connect}.
 *
 * <p>Thread-safe. {@link #close()} closes every listener and connection and stops the event loops.
 */
public interface Rnic extends AutoCloseable {

    /** Opens an RNIC. */
    static Rnic open(RnicConfig config) {
        return new RnicImpl(config);
    }

    /** Opens an RNIC with the defaults. */
    static Rnic open() {
        return open(RnicConfig.defaults());
    }

    String name();

    RnicConfig config();

    /** The transport in use. */
    Transport transport();

    /** {@code ibv_alloc_pd}. */
    ProtectionDomain allocateProtectionDomain();

    /** {@code ibv_create_cq}: a completion queue holding up to {@code capacity} completions. */
    CompletionQueue createCompletionQueue(int capacity) throws VerbsException;

    /**
     * {@code rdma_bind_addr} + {@code rdma_listen}: accepts TCP connections on {@code address} and runs
     * the MPA Responder on each; every valid MPA Request reaches {@code handler} as a
     * {@link org.iwarp4j.verbs.cm.ConnectionRequest}. Blocks until bound (do not call on an event loop).
     */
    Listener listen(InetSocketAddress address, ListenOptions options, ConnectionRequestHandler handler)
            throws VerbsException;

    /**
     * {@code rdma_resolve_addr} + {@code rdma_resolve_route} + {@code rdma_connect}: connects
     * {@code queuePair} (in {@link QueuePairState#IDLE}) to a listener. The stage completes with the
     * connection once MPA reached Full Operation (after the RTR in peer-to-peer mode), or fails with
     * {@link org.iwarp4j.verbs.cm.ConnectionRejectedException} or
     * {@link org.iwarp4j.verbs.cm.ConnectionFailedException}; both timeouts of {@code options} apply.
     */
    CompletionStage<Connection> connect(InetSocketAddress address, QueuePair queuePair, ConnectOptions options);

    @Override
    void close();
}
