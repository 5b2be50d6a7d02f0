package org.iwarp4j.ddp.memory;

/**
 * STag lookup, implemented by the verbs layer (its table of registered regions and windows).
 *
 * <p>Called on the event loop of the DDP stream for every non-empty incoming tagged segment; the lookup
 * must be cheap and must not allocate. Return {@code null} for an STag that is not registered at all; an
 * invalidated STag may be returned with {@link TaggedBuffer#isValid()} false — either way DDP reports
 * Invalid STag (RFC 5041 §7.2).
 *
 * <p>The lookup must use the complete 32-bit STag (index and key), so a stale key never finds a region.
 */
@FunctionalInterface
public interface TaggedBufferRegistry {

    /** The tagged buffer named by {@code stag}, or {@code null} if none is registered. */
    TaggedBuffer lookup(int stag);

    /** A registry with no tagged buffer. */
    static TaggedBufferRegistry empty() {
        return stag -> null;
    }
}
