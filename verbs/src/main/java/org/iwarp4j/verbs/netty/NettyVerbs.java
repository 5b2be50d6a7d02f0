package org.iwarp4j.verbs.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.internal.RnicImpl;

import java.util.Set;

/**
 * The explicit Netty extras of the verbs API, for applications that already hold Netty buffers: register a
 * {@link ByteBuf} without copying, and choose the allocator of an RNIC's headers and control messages. The
 * rest of the API uses only {@link java.nio.ByteBuffer}.
 */
public final class NettyVerbs {

    private NettyVerbs() {}

    /**
     * {@code ibv_reg_mr} over indexes {@code 0..capacity()} of {@code buffer} (reader and writer indexes are
     * the application's). The region retains the buffer until it is closed and every operation using it has
     * finished. The base Tagged Offset is the native address for direct memory, else a unique synthetic base.
     *
     * @param pd     the protection domain
     * @param buffer the memory
     * @param access the rights
     * @return the region
     */
    public static MemoryRegion register(ProtectionDomain pd, ByteBuf buffer, Set<Access> access) {
        return RnicImpl.registerByteBuf(pd, buffer, access);
    }

    /**
     * Opens an RNIC whose headers and control messages come from {@code allocator} (pooled by default).
     *
     * @param config    the configuration
     * @param allocator the allocator, e.g. a fault-injecting one in tests
     * @return the RNIC
     */
    public static Rnic open(RnicConfig config, ByteBufAllocator allocator) {
        return new RnicImpl(config, allocator);
    }
}
