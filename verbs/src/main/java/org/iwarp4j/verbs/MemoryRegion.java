package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Registered memory ({@code ibv_mr}) named by an {@link Stag} (lkey = rkey in iWARP).
 *
 * <p>Offsets in {@link Sge}s are relative to the region; a peer addresses it with the STag and a Tagged
 * Offset in {@code [address(), address() + length())}, which is what {@link #remoteBuffer()} advertises.
 */
public interface MemoryRegion extends AutoCloseable {

    /**
     * The current STag (changes with every fast registration).
     *
     * @return the STag
     */
    Stag stag();

    /**
     * The base Tagged Offset (a verbs virtual address): the native address of the first octet for direct memory,
     * a unique synthetic base for heap memory registered through {@link org.iwarp4j.verbs.netty.NettyVerbs}.
     *
     * @return the Tagged Offset of octet 0
     */
    long address();

    /**
     * Registered octets (for a fast-registration shell: its current binding, 0 when unbound).
     *
     * @return the length
     */
    long length();

    /**
     * The rights the region grants.
     *
     * @return an immutable set
     */
    Set<Access> access();

    /**
     * Whether the STag is valid.
     *
     * @return false once deregistered, invalidated (local or remote), or while a fast-registration shell is unbound
     */
    boolean isValid();

    /**
     * Whether this region came from {@link ProtectionDomain#allocateFastRegistration}.
     *
     * @return true for a fast-registration region
     */
    boolean isFastRegistration();

    /**
     * The domain the region belongs to.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /**
     * The registered memory: a new {@link ByteBuffer} view of it (position 0, limit {@link #length()}, big-endian
     * like every new buffer), sharing its content with what peers read and write.
     *
     * @return a view of the memory (empty while a fast-registration shell is unbound)
     */
    ByteBuffer buffer();

    /**
     * One SGE over the whole region.
     *
     * @return {@code new Sge(this, 0, length())}
     */
    default Sge sge() {
        return Sge.of(this);
    }

    /**
     * One SGE over part of the region.
     *
     * @param offset first octet, relative to the region
     * @param length octets
     * @return {@code new Sge(this, offset, length)}
     */
    default Sge sge(long offset, int length) {
        return new Sge(this, offset, length);
    }

    /**
     * What a peer needs to address the whole region remotely: STag, base Tagged Offset and length, to send it
     * in private data or a message ({@link RemoteBuffer#encode()}).
     *
     * @return the advert of the region
     */
    default RemoteBuffer remoteBuffer() {
        return new RemoteBuffer(stag(), address(), length());
    }

    /**
     * The advert of part of the region.
     *
     * @param offset first octet, relative to the region
     * @param length octets
     * @return the advert of {@code [address() + offset, address() + offset + length)}
     * @throws IllegalArgumentException if the range is not inside the region
     */
    default RemoteBuffer remoteBuffer(long offset, long length) {
        return remoteBuffer().slice(offset, length);
    }

    /**
     * Deregisters ({@code ibv_dereg_mr}): the STag becomes invalid at once; memory still used by an
     * in-flight transfer stays alive until that transfer ends (reference counting). Memory from
     * {@link ProtectionDomain#allocateRegion} then goes back to the pool it came from: views from {@link #buffer()}
     * must not be used after close. Registered memory ({@code register(ByteBuffer)}) stays the application's.
     * {@link Rnic#close()} closes the regions still open.
     *
     * @throws IllegalStateException if memory windows are still bound to the region (libibverbs: EBUSY)
     */
    @Override
    void close();
}
