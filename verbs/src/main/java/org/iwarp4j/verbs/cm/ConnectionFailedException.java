package org.iwarp4j.verbs.cm;

import java.util.Objects;

/** A connection could not be established: {@link CmEvent.Unreachable} or {@link CmEvent.ConnectError}. */
public final class ConnectionFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Which of the two failures. */
    public enum Kind {
        /** TCP connect refused or timed out, or no MPA Reply within the startup timeout. */
        UNREACHABLE,
        /** The MPA startup failed (invalid frame, peer closed, negotiation Terminate, local error). */
        CONNECT_ERROR
    }

    private final Kind kind;

    /**
     * @param kind    which failure
     * @param message what failed
     * @param cause   the underlying error, or {@code null}
     */
    public ConnectionFailedException(Kind kind, String message, Throwable cause) {
        super(Objects.requireNonNull(kind, "kind") + ": " + message, cause);
        this.kind = kind;
    }

    /**
     * Which failure.
     *
     * @return UNREACHABLE or CONNECT_ERROR
     */
    public Kind kind() {
        return kind;
    }
}
