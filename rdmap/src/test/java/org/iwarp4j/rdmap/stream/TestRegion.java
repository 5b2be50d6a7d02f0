package org.iwarp4j.rdmap.stream;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.EnumSet;
import java.util.Set;

/** A registered region for tests: memory (owned by the {@link TestMemory}), base TO, rights, PD, validity. */
final class TestRegion implements TaggedBuffer {

    final int stag;
    final long base;
    final ByteBuf memory;
    final Set<TaggedBufferAccess> access;
    long pd;
    Object boundStream;
    boolean valid = true;
    boolean remotelyInvalidatable = true;

    TestRegion(int stag, long base, ByteBuf memory, Set<TaggedBufferAccess> access, long pd) {
        this.stag = stag;
        this.base = base;
        this.memory = memory;
        this.access = EnumSet.copyOf(access);
        this.pd = pd;
    }

    @Override
    public int stag() {
        return stag;
    }

    @Override
    public long baseTaggedOffset() {
        return base;
    }

    @Override
    public ByteBuf memory() {
        return memory;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public boolean grants(TaggedBufferAccess right) {
        return access.contains(right);
    }

    @Override
    public long protectionDomain() {
        return pd;
    }

    @Override
    public Object associatedStream() {
        return boundStream;
    }

    byte[] bytes() {
        byte[] b = new byte[memory.capacity()];
        memory.getBytes(0, b);
        return b;
    }
}
