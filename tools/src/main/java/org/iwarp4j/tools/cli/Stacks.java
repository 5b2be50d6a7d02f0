package org.iwarp4j.tools.cli;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;

/** The small things every tool does with the stack: open an RNIC, await a stage, describe a failure. */
public final class Stacks {

    private Stacks() {}

    /**
     * An RNIC for a command-line tool: one event loop (a tool drives one queue pair; a second loop would
     * only add a thread hop on a small machine), epoll when available.
     */
    public static Rnic openRnic(String name) {
        return Rnic.open(RnicConfig.builder().name(name).eventLoopThreads(1).build());
    }

    /**
     * Waits for {@code stage}; its failure is rethrown unwrapped (e.g. a
     * {@link org.iwarp4j.verbs.cm.ConnectionRejectedException}).
     */
    public static <T> T await(CompletionStage<T> stage, Duration timeout) throws Exception {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer within " + timeout.toSeconds() + " s");
        }
    }

    /** The message of {@code t} or of its innermost cause, for one-line error reports. */
    public static String describe(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return m == null ? c.getClass().getSimpleName() : m;
    }
}
