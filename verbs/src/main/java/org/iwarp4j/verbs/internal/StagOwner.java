package org.iwarp4j.verbs.internal;

import org.iwarp4j.ddp.memory.TaggedBuffer;

/** What the STag table holds at an index: a memory region or a memory window. */
interface StagOwner {

    /** The current STag (index and key), 0 while the owner is being built. */
    int stagValue();

    /** DDP's view, which every event loop reads for the segments naming this STag. */
    TaggedBuffer tagged();

    /**
     * A peer's Send with Invalidate names this STag (RFC 5040 §5.3), RDMAP having checked domain and stream
     * association: invalidate it if the owner allows remote invalidation (RFC 5040 §8.1.1), else false.
     */
    boolean invalidateRemotely();
}
