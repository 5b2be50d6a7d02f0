package org.iwarp4j.verbs.cm;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/** A listening endpoint ({@code rdma_listen}); closing it stops accepting, established connections stay. */
public interface Listener extends AutoCloseable {

    /**
     * The bound address.
     *
     * @return the address, with the port chosen when 0 was asked for
     */
    InetSocketAddress localAddress();

    /**
     * The next connection request of a listener opened without a handler
     * ({@link org.iwarp4j.verbs.Rnic#listen(InetSocketAddress, ListenOptions)}), in the spirit of
     * {@code rdma_get_cm_event}: accept or reject it from this thread. A request not answered in time is rejected
     * (see {@link ConnectionRequestHandler}) and not returned.
     *
     * @param timeout the longest wait
     * @return the request, or empty if none came in time
     * @throws InterruptedException  if the thread was interrupted while waiting
     * @throws IllegalStateException if the listener has a handler, or on an event loop thread
     */
    Optional<ConnectionRequest> take(Duration timeout) throws InterruptedException;

    /**
     * Stops listening (blocks until the server socket is closed; in a callback, only starts the close). Requests
     * nobody holds yet (waiting for {@link #take}, or arriving on a connection TCP accepted before the close) are
     * rejected at once, so their clients learn it now rather than at the decision timeout; a {@code take} waiting
     * meanwhile returns empty. A request already handed to the application is still its to decide.
     */
    @Override
    void close();
}
