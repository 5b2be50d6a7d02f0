package org.iwarp4j.verbs.cm;

/** A connection could not be established: {@link CmEvent#UNREACHABLE} or {@link CmEvent#CONNECT_ERROR}. */
public final class ConnectionFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final CmEvent event;

    public ConnectionFailedException(CmEvent event, String message, Throwable cause) {
        super(event + ": " + message, cause);
        this.event = event;
    }

    /** UNREACHABLE (TCP or MPA Reply timeout, refused) or CONNECT_ERROR (MPA startup failed). */
    public CmEvent event() {
        return event;
    }
}
