package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.Set;

/**
 * A registered region for tests: DDP's {@link ByteBufTaggedBuffer} over memory owned by the {@link TestMemory},
 * and whether the peer may invalidate it (what the verbs layer decides for its regions).
 */
final class TestRegion extends ByteBufTaggedBuffer {

    final int stag;
    final ByteBuf memory;
    private final Set<TaggedBufferAccess> access;
    boolean remotelyInvalidatable = true;

    TestRegion(int stag, long base, ByteBuf memory, Set<TaggedBufferAccess> access, long pd) {
        super(stag, base, memory, access, pd, null);
        this.stag = stag;
        this.memory = memory;
        this.access = access;
    }

    /** As registered again: valid (a peer may have invalidated it), its whole memory readable. */
    void restore() {
        if (!isValid()) {
            rebind(stag, baseTaggedOffset(), memory, access);
        }
        memory.setIndex(0, memory.capacity());
    }

    byte[] bytes() {
        byte[] b = new byte[memory.capacity()];
        memory.getBytes(0, b);
        return b;
    }
}
