package org.iwarp4j.rdmap.stream;

/** The life of an {@link RdmapStream} (RFC 5040 §6, iWARP verbs QP states RTS / TERMINATE / ERROR). */
public enum RdmapStreamState {
    /** Running: messages flow in both directions. */
    OPERATIONAL,
    /** An error was detected: the Terminate waits to be written; nothing else will be sent or placed. */
    TERMINATING,
    /** Terminal: a Terminate was sent or received, or the lower layer failed. Operations are flushed. */
    ERROR,
    /** {@link RdmapStream#close()} was called: every resource is released. */
    CLOSED
}
