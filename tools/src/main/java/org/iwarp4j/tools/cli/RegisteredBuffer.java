package org.iwarp4j.tools.cli;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.Stag;

/**
 * A direct buffer and the memory region registered over it: what a tool reads and writes, and what it
 * names in work requests and adverts.
 *
 * @param region the registration ({@code ibv_mr})
 * @param buffer the memory (index 0 = the region's base Tagged Offset)
 */
public record RegisteredBuffer(MemoryRegion region, ByteBuffer buffer) {

    /** Registers a fresh direct buffer of {@code length} octets with {@code access}. */
    public static RegisteredBuffer allocate(ProtectionDomain pd, int length, Access... access) {
        ByteBuffer memory = ByteBuffer.allocateDirect(length);
        Set<Access> set = access.length == 0 ? Set.of() : EnumSet.of(access[0], access);
        return new RegisteredBuffer(pd.register(memory, set), memory);
    }

    public Stag stag() {
        return region.stag();
    }

    /** The Tagged Offset of octet 0 (the native address: a verbs virtual address). */
    public long address() {
        return region.address();
    }

    public int length() {
        return buffer.capacity();
    }

    /** The whole buffer as one SGE. */
    public Sge sge() {
        return Sge.of(region);
    }

    public Sge sge(int offset, int length) {
        return new Sge(region, offset, length);
    }
}
