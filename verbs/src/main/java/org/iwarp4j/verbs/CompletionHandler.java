package org.iwarp4j.verbs;

/**
 * Called once after {@link CompletionQueue#arm} when a matching completion arrived (the
 * {@code ibv_get_cq_event} analog; events are acknowledged internally). Runs on the completion queue's
 * event loop: poll, re-arm, poll again; never block.
 */
@FunctionalInterface
public interface CompletionHandler {
    void onCompletion(CompletionQueue completionQueue);
}
