package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.ddp.memory.TaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.EnumSet;
import java.util.Set;

/**
 * A registered tagged buffer for tests (what the verbs layer's memory region will be): pooled memory
 * filled with a recognisable pattern, so that "nothing was placed" is checkable. Release with
 * {@link #close()}.
 */
public final class TestRegion implements TaggedBuffer, AutoCloseable {

    /** The fill octet of untouched memory. */
    public static final byte FILL = (byte) 0xEE;

    private final int stag;
    private final long base;
    private final ByteBuf memory;
    private final Set<TaggedBufferAccess> access;
    private final long pd;
    private final Object stream;
    private boolean valid = true;

    public TestRegion(int stag, long base, int length, long pd, Object stream, Set<TaggedBufferAccess> access) {
        this.stag = stag;
        this.base = base;
        this.memory = Bytes.ALLOC.directBuffer(length, length);
        for (int i = 0; i < length; i++) {
            memory.setByte(i, FILL);
        }
        this.pd = pd;
        this.stream = stream;
        this.access = access.isEmpty() ? EnumSet.noneOf(TaggedBufferAccess.class) : EnumSet.copyOf(access);
    }

    /** Writable by the peer (RDMA Write) and locally (Read Response sink), PD-associated only. */
    public static TestRegion writable(int stag, long base, int length, long pd) {
        return new TestRegion(stag, base, length, pd, null,
                EnumSet.of(TaggedBufferAccess.REMOTE_WRITE, TaggedBufferAccess.LOCAL_WRITE));
    }

    public TestRegion invalidate() {
        valid = false;
        return this;
    }

    /** The region's current content. */
    public byte[] content() {
        return ByteBufUtil.getBytes(memory, 0, memory.capacity());
    }

    public boolean untouched() {
        for (byte b : content()) {
            if (b != FILL) {
                return false;
            }
        }
        return true;
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

    @Override
    public void close() {
        memory.release();
    }
}
