package org.iwarp4j.tools.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import org.iwarp4j.verbs.Rnic;

/**
 * What one session of a tool (an rping, or an rdma_server/rdma_client exchange) allocated on an RNIC that is
 * either its own or shared with the other sessions of a persistent server. Closing an own RNIC releases everything
 * on it; on a shared one each resource is closed in the reverse order of its allocation, so the queue pair
 * (abortively, if still connected) goes before its regions and queues, and the protection domain last: it refuses
 * to go while anything of it is open, so a leak fails loudly.
 */
public final class SessionResources implements AutoCloseable {

    /** The session's own RNIC, or {@code null} when it is shared. */
    private final Rnic ownRnic;
    private final Deque<AutoCloseable> allocated = new ArrayDeque<>();

    /** The resources of a session on {@code rnic}, which {@link #close()} closes when {@code ownsRnic}. */
    public SessionResources(Rnic rnic, boolean ownsRnic) {
        ownRnic = ownsRnic ? rnic : null;
    }

    /** Records {@code resource}, just allocated on the RNIC, to be closed with the session; returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        allocated.push(resource);
        return resource;
    }

    /** Closes the session after an allocation failed with {@code failure}; returns it, for the caller to throw. */
    public RuntimeException closeAfter(RuntimeException failure) {
        try {
            close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }

    @Override
    public void close() {
        if (ownRnic != null) {
            ownRnic.close();
            return;
        }
        while (!allocated.isEmpty()) {
            try {
                allocated.pop().close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
