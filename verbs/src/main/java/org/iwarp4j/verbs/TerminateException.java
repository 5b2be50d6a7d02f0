package org.iwarp4j.verbs;

import java.util.Objects;

/**
 * The connection ended with a Terminate (RFC 5040 §5.4, §6.2): the cause of a
 * {@link org.iwarp4j.verbs.cm.CmEvent.Disconnected} or of a failed connect.
 */
public final class TerminateException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The Terminate. */
    private final transient TerminateInfo terminate;

    /**
     * @param terminate the Terminate sent or received
     */
    public TerminateException(TerminateInfo terminate) {
        super(Objects.requireNonNull(terminate, "terminate").toString());
        this.terminate = terminate;
    }

    /**
     * The Terminate.
     *
     * @return layer, error type, code and direction
     */
    public TerminateInfo terminate() {
        return terminate;
    }
}
