package org.iwarp4j.verbs.cm;

import org.iwarp4j.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletionStage;

/** An established iWARP connection: one queue pair over one MPA/TCP connection. */
public interface Connection extends AutoCloseable {

    QueuePair queuePair();

    ConnectionParameters parameters();

    InetSocketAddress localAddress();

    InetSocketAddress remoteAddress();

    /**
     * {@code rdma_disconnect}, graceful (siw-interop §G): the message being transmitted is finished and
     * written, then TCP is closed; every outstanding work request completes, those not done with
     * {@link org.iwarp4j.verbs.CompletionStatus#WORK_REQUEST_FLUSHED}. The stage completes when the TCP
     * connection is closed (bounded by the disconnect timeout, after which the close is abortive).
     */
    CompletionStage<Void> disconnect();

    /** Abortive close: TCP reset (SO_LINGER 0), every outstanding work request flushed at once. */
    @Override
    void close();

    /** Completes when the TCP connection is closed, whoever closed it. */
    CompletionStage<Void> closeFuture();
}
