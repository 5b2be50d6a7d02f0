package org.iwarp4j.verbs.internal;

import java.util.concurrent.CompletableFuture;

/** What a connection's users (its queue pair, its {@code Connection}) may ask of it; from any thread. */
interface ConnectionControl {

    /** Graceful disconnect (RFC 5040 §6.2.1); completes once the connection is closed. */
    CompletableFuture<Void> disconnect();

    /** Abortive close: TCP reset, everything flushed. */
    void abort();

    /** A completion queue of the queue pair overflowed (RFC 5040 §8.1.1): the queue pair fails. */
    void completionQueueOverflowed();
}
