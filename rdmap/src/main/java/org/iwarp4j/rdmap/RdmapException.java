package org.iwarp4j.rdmap;

import org.iwarp4j.rdmap.terminate.Terminate;
import org.iwarp4j.rdmap.terminate.TerminateCause;

import java.util.Objects;

/**
 * The one exception type of the RDMAP layer: an error that ends the RDMAP stream, carrying the
 * {@link Terminate} to send for it — cause (Layer/EType/Code) plus, per RFC 5040 Figure 10, the DDP
 * Segment Length and the copied DDP/RDMA headers of the offending message. Converting it to the wire is
 * therefore mechanical ({@code TerminateEncoder.encode(e.terminate(), out)}).
 *
 * <p>It never reaches the user's thread: the stream catches it, sends the Terminate (the first error
 * wins, RFC 5040 §7.1), completes outstanding work in error and reports through its listener. It
 * carries no stack trace (errors caused by a peer are expected events, and fuzzing produces many).
 */
public final class RdmapException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Terminate terminate;

    public RdmapException(Terminate terminate, String message) {
        super(message, null, false, false);
        this.terminate = Objects.requireNonNull(terminate, "terminate");
    }

    /** An error with no message to blame: local failures and errors building an outbound message. */
    public static RdmapException local(TerminateCause cause, String message) {
        return new RdmapException(Terminate.of(cause), message);
    }

    /** The Terminate to send for this error. */
    public Terminate terminate() {
        return terminate;
    }

    /** The registered cause (never {@code null} for exceptions created by this layer). */
    public TerminateCause cause() {
        return terminate.cause();
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " [" + terminate.describe() + "]";
    }
}
