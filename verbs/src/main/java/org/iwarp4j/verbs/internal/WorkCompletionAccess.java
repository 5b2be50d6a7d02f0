package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.TerminateInfo;
import org.iwarp4j.verbs.WorkCompletion;

import java.util.function.IntFunction;

/**
 * How the RNIC fills {@link WorkCompletion}s, which have no public setters: the API class installs its
 * writer here when it is initialised (the JDK's "shared secrets" pattern). Not API.
 */
public abstract class WorkCompletionAccess {

    private static volatile WorkCompletionAccess instance;

    /** Installed once, by {@link WorkCompletion}'s static initialiser. */
    public static void install(WorkCompletionAccess access) {
        if (instance != null) {
            throw new IllegalStateException("already installed");
        }
        instance = access;
    }

    /** The writer; initialises {@link WorkCompletion} if nothing did yet. */
    static WorkCompletionAccess get() {
        WorkCompletionAccess a = instance;
        if (a == null) {
            new WorkCompletion(); // runs the static initialiser, which installs the writer
            a = instance;
        }
        return a;
    }

    /** Sets the common fields and clears the others (a completion queue's entry is filled again and again). */
    public abstract void set(WorkCompletion wc, long wrId, CompletionStatus status, CompletionOpcode opcode,
                             long byteLength, int queuePairNumber, IntFunction<QueuePair> queuePairs,
                             TerminateInfo terminate);

    /** Immediate Data of a receive. */
    public abstract void immediate(WorkCompletion wc, long value);

    /** The STag a Send with Invalidate invalidated. */
    public abstract void invalidated(WorkCompletion wc, int stag);

    /** Whether the message was a Solicited Event variant. */
    public abstract void solicited(WorkCompletion wc, boolean value);

    /** The original value of an atomic. */
    public abstract void atomicOriginalValue(WorkCompletion wc, long value);

    /** Copies every field. */
    public abstract void copy(WorkCompletion from, WorkCompletion to);
}
