package org.iwarp4j.verbs;

import java.util.Optional;

/**
 * A verb refused a request ({@code ibv_post_send} returning an error and {@code bad_wr}, {@code ibv_create_*}
 * above a limit): thrown on the caller's thread before anything was queued, naming the reason and, for a
 * work request, the request. Unchecked: a refusal is a programming error or a limit the caller can ask
 * about in advance ({@link Rnic#query()}, {@link QueuePair#sendQueueAvailable()}); the one expected on the
 * data path, a full queue, is cheap (no stack trace, message built only when read) and avoidable with
 * {@link QueuePair#tryPostSend}.
 */
public final class VerbsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a request was refused. */
    public enum Reason {
        /** The send or receive queue (or shared receive queue) holds its maximum of work requests. */
        QUEUE_FULL,
        /** The queue pair (or queue) is not in a state that accepts this request. */
        WRONG_STATE,
        /** More SGEs than {@link QueuePairConfig#maxSge()}. */
        TOO_MANY_SGES,
        /** An SGE names a region that is invalid, of another protection domain, too short, or lacks a right. */
        INVALID_SGE,
        /** The operation needs RFC 7306, which this queue pair has switched off (e.g. for Linux siw). */
        NEEDS_RFC7306,
        /** Any other invalid field (alignment, length, STag). */
        INVALID_REQUEST,
        /** An RNIC limit ({@link RnicAttributes}) would be exceeded. */
        LIMIT_EXCEEDED
    }

    private final Reason reason;
    private final transient Object workRequest;
    /**
     * The rule broken; {@code null} for a full queue, whose message is made of {@link #queue} and {@link #capacity}.
     */
    private final String detail;
    private final String queue;
    private final int capacity;

    /**
     * @param reason      why
     * @param workRequest the refused request, or {@code null}
     * @param detail      the rule broken
     */
    public VerbsException(Reason reason, Object workRequest, String detail) {
        super(null, null, false, true);
        this.reason = reason;
        this.workRequest = workRequest;
        this.detail = detail;
        this.queue = null;
        this.capacity = 0;
    }

    private VerbsException(Object workRequest, String queue, int capacity) {
        super(null, null, false, false);
        this.reason = Reason.QUEUE_FULL;
        this.workRequest = workRequest;
        this.detail = null;
        this.queue = queue;
        this.capacity = capacity;
    }

    /**
     * The data-path refusal: a queue is full. No stack trace; the message is built only if read.
     *
     * @param workRequest the refused request
     * @param queue       which queue, e.g. {@code "send queue of queue pair 3"} (a string the caller keeps)
     * @param capacity    its capacity
     * @return the exception
     */
    public static VerbsException queueFull(Object workRequest, String queue, int capacity) {
        return new VerbsException(workRequest, queue, capacity);
    }

    /**
     * Why the request was refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The refused request.
     *
     * @return the {@link SendWorkRequest} or {@link ReceiveWorkRequest}, or empty when no request was involved
     */
    public Optional<Object> workRequest() {
        return Optional.ofNullable(workRequest);
    }

    @Override
    public String getMessage() {
        String rule = detail != null ? detail : queue + " is full (" + capacity + ")";
        return reason + ": " + rule + (workRequest == null ? "" : " [" + workRequest + "]");
    }
}
