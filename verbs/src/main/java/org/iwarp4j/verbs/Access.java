package org.iwarp4j.verbs;

import java.util.EnumSet;
import java.util.Set;

/**
 * Access rights of a memory region or memory window, named as libibverbs names them
 * ({@code IBV_ACCESS_*}).
 *
 * <p>Local read access is implicit (a region can always be the source of a local Send or RDMA Write).
 * Like {@code ibv_reg_mr}, a region that the peer may write or run atomics on must also be locally
 * writable: {@link #validate} enforces "REMOTE_WRITE ⇒ LOCAL_WRITE" and "REMOTE_ATOMIC ⇒ LOCAL_WRITE".
 */
public enum Access {
    /** The local side may write the region: receive buffers, RDMA Read sinks, atomic result buffers. */
    LOCAL_WRITE,
    /** The peer may RDMA Write into the region (RFC 5040 §5.1). */
    REMOTE_WRITE,
    /** The peer may RDMA Read from the region (RFC 5040 §5.2). */
    REMOTE_READ,
    /** The peer may run RFC 7306 atomic operations on the region. */
    REMOTE_ATOMIC,
    /**
     * Memory windows may be bound to the region ({@code IBV_ACCESS_MW_BIND}): a
     * {@link SendWorkRequest.BindMemoryWindow} grants one peer remote access to part of it. A region only;
     * meaningless for a window.
     */
    MW_BIND;

    /**
     * Checks the rules of {@code ibv_reg_mr} and returns an immutable copy.
     *
     * @param access the rights asked for (an empty set: local read only)
     * @return an immutable copy of {@code access}
     * @throws IllegalArgumentException naming the broken rule
     */
    public static Set<Access> validate(Set<Access> access) {
        if (access == null) {
            throw new IllegalArgumentException("access must not be null (use an empty set for local read only)");
        }
        EnumSet<Access> copy = access.isEmpty() ? EnumSet.noneOf(Access.class) : EnumSet.copyOf(access);
        if (copy.contains(REMOTE_WRITE) && !copy.contains(LOCAL_WRITE)) {
            throw new IllegalArgumentException("REMOTE_WRITE requires LOCAL_WRITE (as ibv_reg_mr requires)");
        }
        if (copy.contains(REMOTE_ATOMIC) && !copy.contains(LOCAL_WRITE)) {
            throw new IllegalArgumentException("REMOTE_ATOMIC requires LOCAL_WRITE (as ibv_reg_mr requires)");
        }
        return Set.copyOf(copy);
    }

    /** The set of {@code access}, for the varargs overloads of the API. */
    static Set<Access> setOf(Access... access) {
        return access.length == 0 ? Set.of() : validate(EnumSet.of(access[0], access));
    }
}
