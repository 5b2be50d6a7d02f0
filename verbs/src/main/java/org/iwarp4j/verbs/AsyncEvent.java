package org.iwarp4j.verbs;

import java.util.Objects;
import java.util.Optional;

/**
 * An asynchronous event of a queue pair ({@code ibv_get_async_event}).
 *
 * @param type      what happened
 * @param queuePair the queue pair
 * @param terminate the Terminate sent or received, when one is involved
 * @param detail    a human-readable description
 */
public record AsyncEvent(Type type, QueuePair queuePair, Optional<TerminateInfo> terminate, String detail) {

    /** Checks the components. */
    public AsyncEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(terminate, "terminate");
        Objects.requireNonNull(detail, "detail");
    }

    /** What happened. */
    public enum Type {
        /** The peer sent a Terminate: the connection is going down (RFC 5040 §5.4). */
        TERMINATE_RECEIVED,
        /** This side detected a protocol error and sent a Terminate: the queue pair is fatal. */
        TERMINATE_SENT,
        /**
         * This side detected a protocol error but could send no Terminate (nothing before the Initiator's first
         * FPDU, RFC 5044 §7.1.2 rule 4): the queue pair is fatal and the connection is closed.
         */
        TERMINATE_WITHHELD,
        /** TCP failed (I/O error) while the connection was up: the "path error" of iWARP. */
        CONNECTION_LOST,
        /** A completion queue of this queue pair overflowed; completions were lost, the queue pair fails. */
        COMPLETION_QUEUE_OVERFLOW,
        /**
         * The peer went silent while it owed a Read or Atomic Response ({@link QueuePairConfig#responseTimeout()}):
         * the queue pair fails and the connection is closed.
         */
        RESPONSE_TIMEOUT
    }
}
