package org.iwarp4j.mpa;

/**
 * How an enhanced Responder fills the RTR flags of its Reply when the Initiator asks for
 * peer-to-peer mode (RFC 6581 §9.2).
 */
public enum RtrReplyPolicy {
    /**
     * Set every offered flag the Responder supports (the RFC's SHOULD); if it supports none of the
     * offered ones, set its most preferred supported type (the RFC's MUST).
     */
    ALL_SUPPORTED,
    /**
     * Set only the most preferred supported type among the offered ones (or, if none, the most
     * preferred supported type). This is what Linux siw does (it picks Write, else Read).
     */
    PREFERRED_ONLY
}
