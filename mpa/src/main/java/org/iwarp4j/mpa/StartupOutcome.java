package org.iwarp4j.mpa;

/**
 * How a valid MPA Request/Reply exchange ended: {@link MpaParameters} (accepted, Full Operation) or
 * {@link MpaRejection} (Reply with R=1). Invalid frames and timeouts are {@link MpaException}s.
 */
public sealed interface StartupOutcome permits MpaParameters, MpaRejection {

    /** This endpoint's role. */
    MpaRole role();
}
