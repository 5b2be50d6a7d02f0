package org.iwarp4j.verbs.cm;

import java.net.InetSocketAddress;

/** A listening endpoint ({@code rdma_listen}); closing it stops accepting, established connections stay. */
public interface Listener extends AutoCloseable {

    /**
     * The bound address.
     *
     * @return the address, with the port chosen when 0 was asked for
     */
    InetSocketAddress localAddress();

    /** Stops listening (blocks until the server socket is closed). */
    @Override
    void close();
}
