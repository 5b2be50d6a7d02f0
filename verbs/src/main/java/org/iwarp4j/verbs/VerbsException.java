package org.iwarp4j.verbs;

/**
 * A verb refused a request ({@code ibv_post_send} returning an error and {@code bad_wr}): thrown on the
 * caller's thread before anything was queued, naming the work request and the reason.
 */
public final class VerbsException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a request was refused. */
    public enum Reason {
        /** The send or receive queue (or shared receive queue) holds its maximum of work requests. */
        QUEUE_FULL,
        /** The queue pair is not in a state that accepts this request. */
        WRONG_STATE,
        /** More SGEs than {@link QueuePairConfig#maxSge()}. */
        TOO_MANY_SGES,
        /** An SGE names a region that is invalid, of another protection domain, too short, or lacks a right. */
        INVALID_SGE,
        /** The operation needs RFC 7306, which this queue pair has switched off (e.g. for Linux siw). */
        NEEDS_RFC7306,
        /** Any other invalid field (alignment, length, STag). */
        INVALID_REQUEST,
        /** An RNIC limit ({@link RnicConfig}) would be exceeded. */
        LIMIT_EXCEEDED
    }

    private final Reason reason;
    private final transient Object workRequest;

    public VerbsException(Reason reason, Object workRequest, String message) {
        super(message + (workRequest == null ? "" : " [" + workRequest + "]"));
        this.reason = reason;
        this.workRequest = workRequest;
    }

    public Reason reason() {
        return reason;
    }

    /** The refused {@link SendWorkRequest} or {@link ReceiveWorkRequest}, or {@code null}. */
    public Object workRequest() {
        return workRequest;
    }
}
