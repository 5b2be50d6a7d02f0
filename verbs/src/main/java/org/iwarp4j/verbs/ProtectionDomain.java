package org.iwarp4j.verbs;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A protection domain ({@code ibv_pd}): memory regions and queue pairs of one domain may be used
 * together; an STag of another domain is "not associated" with a queue pair (RFC 5041 §8.2).
 */
public interface ProtectionDomain extends AutoCloseable {

    Rnic rnic();

    /** The domain's number (as compared in RFC 5041 §7.1 checks). */
    long number();

    /**
     * {@code ibv_reg_mr} over the {@code position..limit} octets of a direct buffer. The base Tagged
     * Offset is the native address of the first octet (a verbs virtual address), the STag a fresh
     * index/key pair.
     *
     * @throws IllegalArgumentException for a heap buffer or invalid {@code access}
     */
    MemoryRegion register(ByteBuffer buffer, Set<Access> access) throws VerbsException;

    /**
     * {@code ibv_reg_mr} over indexes {@code 0..capacity()} of {@code buffer} (reader and writer indexes
     * are the application's). The region retains the buffer until it is closed and every operation using
     * it has finished. The base TO is the native address for direct memory, else a unique synthetic base.
     */
    MemoryRegion register(ByteBuf buffer, Set<Access> access) throws VerbsException;

    /**
     * A fast-registration region shell ({@code ibv_alloc_mr}): an STag index with no memory and no
     * valid key until a {@link SendWorkRequest.FastRegister} binds up to {@code maxLength} octets.
     */
    MemoryRegion allocateFastRegistration(int maxLength) throws VerbsException;

    /** {@code ibv_create_qp} of a reliable connected queue pair, in {@link QueuePairState#IDLE}. */
    QueuePair createQueuePair(QueuePairConfig config) throws VerbsException;

    /** {@code ibv_create_srq}: a shared receive queue of {@code capacity} receives of up to {@code maxSge} SGEs. */
    SharedReceiveQueue createSharedReceiveQueue(int capacity, int maxSge) throws VerbsException;

    @Override
    void close();
}
