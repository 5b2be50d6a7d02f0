package org.iwarp4j.verbs;

import java.util.Objects;

/**
 * A work request posted with {@link QueuePair#postSendAsync} did not succeed: its future fails with this,
 * which holds the completion (status, the Terminate that explains it).
 */
public final class WorkCompletionException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient WorkCompletion completion;

    /**
     * @param completion the unsuccessful completion (not a reused flyweight)
     */
    public WorkCompletionException(WorkCompletion completion) {
        super(Objects.requireNonNull(completion, "completion").toString());
        this.completion = completion;
    }

    /**
     * The completion.
     *
     * @return the unsuccessful completion
     */
    public WorkCompletion completion() {
        return completion;
    }

    /**
     * Its status.
     *
     * @return {@code completion().status()}
     */
    public CompletionStatus status() {
        return completion.status();
    }
}
