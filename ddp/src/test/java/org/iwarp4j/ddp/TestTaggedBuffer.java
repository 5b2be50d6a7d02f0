package org.iwarp4j.ddp;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.EnumSet;
import java.util.Set;

/** A tagged buffer for tests: fields set by the test, memory owned (and released) by the test. */
public final class TestTaggedBuffer implements TaggedBuffer {

    private final int stag;
    private final long base;
    private final ByteBuf memory;
    private final Set<TaggedBufferAccess> access;
    private final long pd;
    private final Object stream;
    private boolean valid = true;

    public TestTaggedBuffer(int stag, long base, ByteBuf memory, Set<TaggedBufferAccess> access, long pd,
                            Object stream) {
        this.stag = stag;
        this.base = base;
        this.memory = memory;
        this.access = access.isEmpty() ? EnumSet.noneOf(TaggedBufferAccess.class) : EnumSet.copyOf(access);
        this.pd = pd;
        this.stream = stream;
    }

    public static TestTaggedBuffer writable(int stag, long base, ByteBuf memory, long pd) {
        return new TestTaggedBuffer(stag, base, memory,
                EnumSet.of(TaggedBufferAccess.LOCAL_WRITE, TaggedBufferAccess.REMOTE_WRITE), pd, null);
    }

    public TestTaggedBuffer invalidate() {
        valid = false;
        return this;
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
    public boolean grants(TaggedBufferAccess a) {
        return access.contains(a);
    }

    @Override
    public long protectionDomain() {
        return pd;
    }

    @Override
    public Object associatedStream() {
        return stream;
    }
}
