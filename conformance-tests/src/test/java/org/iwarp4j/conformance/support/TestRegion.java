package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.ddp.memory.TaggedBufferAccess;

import java.util.EnumSet;
import java.util.Set;

/**
 * A registered tagged buffer for tests (DDP's {@link ByteBufTaggedBuffer}, as the verbs layer's memory region
 * uses it) that owns pooled memory filled with a recognisable pattern, so that "nothing was placed" is
 * checkable. Release with {@link #close()}.
 */
public final class TestRegion extends ByteBufTaggedBuffer implements AutoCloseable {

    /** The fill octet of untouched memory. */
    public static final byte FILL = (byte) 0xEE;

    private final ByteBuf memory;

    public TestRegion(int stag, long base, int length, long pd, Object stream, Set<TaggedBufferAccess> access) {
        this(stag, base, filled(length), pd, stream, access);
    }

    private TestRegion(int stag, long base, ByteBuf memory, long pd, Object stream, Set<TaggedBufferAccess> access) {
        super(stag, base, memory, access, pd, stream);
        this.memory = memory;
    }

    private static ByteBuf filled(int length) {
        ByteBuf memory = Bytes.ALLOC.directBuffer(length, length);
        for (int i = 0; i < length; i++) {
            memory.setByte(i, FILL);
        }
        return memory;
    }

    /** Writable by the peer (RDMA Write) and locally (Read Response sink), PD-associated only. */
    public static TestRegion writable(int stag, long base, int length, long pd) {
        return new TestRegion(stag, base, length, pd, null,
                EnumSet.of(TaggedBufferAccess.REMOTE_WRITE, TaggedBufferAccess.LOCAL_WRITE));
    }

    @Override
    public TestRegion invalidate() {
        super.invalidate();
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
    public void close() {
        memory.release();
    }
}
