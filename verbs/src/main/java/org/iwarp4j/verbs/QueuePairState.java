package org.iwarp4j.verbs;

/** States of an iWARP queue pair (iWARP verbs / RFC 5040 §6). */
public enum QueuePairState {
    /** Created, not connected. Receives may be posted (they are waiting when the connection starts). */
    IDLE,
    /** Connected: Ready To Send. */
    RTS,
    /** A graceful disconnect is finishing the message in progress. */
    CLOSING,
    /** A Terminate was sent or received; the connection is being closed. */
    TERMINATE,
    /** Terminal: disconnected or failed. Every outstanding work request has completed. */
    ERROR
}
