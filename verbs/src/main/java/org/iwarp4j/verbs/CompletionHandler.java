package org.iwarp4j.verbs;

/**
 * Called once after {@link CompletionQueue#arm(NotifyMode, CompletionHandler)} when a matching completion
 * arrived. Runs on the completion queue's event loop: poll, re-arm, poll again; never block (a blocking
 * call of this API made there fails with an {@link IllegalStateException}).
 */
@FunctionalInterface
public interface CompletionHandler {
    /**
     * A matching completion arrived.
     *
     * @param completionQueue the queue that was armed
     */
    void onCompletion(CompletionQueue completionQueue);
}
