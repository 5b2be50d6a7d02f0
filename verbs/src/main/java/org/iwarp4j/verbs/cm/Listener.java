package org.iwarp4j.verbs.cm;

import java.net.InetSocketAddress;

/** A listening endpoint ({@code rdma_listen}); closing it stops accepting, established connections stay. */
public interface Listener extends AutoCloseable {

    InetSocketAddress localAddress();

    @Override
    void close();
}
