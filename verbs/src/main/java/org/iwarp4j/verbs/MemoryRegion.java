package org.iwarp4j.verbs;

import java.util.Set;

/**
 * Registered memory ({@code ibv_mr}) named by an {@link Stag} (lkey = rkey in iWARP).
 *
 * <p>Offsets in {@link Sge}s are relative to the region; a peer addresses it with the STag and a Tagged
 * Offset in {@code [address(), address() + length())}.
 */
public interface MemoryRegion extends AutoCloseable {

    /** The current STag (changes with every fast registration). */
    Stag stag();

    /** The base Tagged Offset: the native address of direct memory (a verbs VA), else a synthetic base. */
    long address();

    /** Registered octets (for a fast-registration shell: its current binding, 0 when unbound). */
    long length();

    Set<Access> access();

    /** False once deregistered, invalidated (local or remote), or while a fast-registration shell is unbound. */
    boolean isValid();

    /** Whether this is a fast-registration region ({@link ProtectionDomain#allocateFastRegistration}). */
    boolean isFastRegistration();

    ProtectionDomain protectionDomain();

    /**
     * Deregisters ({@code ibv_dereg_mr}): the STag becomes invalid at once; memory still used by an
     * in-flight zero-copy transfer stays alive until that transfer ends (reference counting).
     */
    @Override
    void close();
}
