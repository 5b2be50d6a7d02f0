package org.iwarp4j.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A protection domain ({@code ibv_pd}): memory regions, memory windows and queue pairs of one domain may be
 * used together; an STag of another domain is "not associated" with a queue pair (RFC 5041 §8.2).
 */
public interface ProtectionDomain extends AutoCloseable {

    /**
     * The RNIC the domain belongs to.
     *
     * @return the RNIC
     */
    Rnic rnic();

    /**
     * The domain's number (as compared in RFC 5041 §7.1 checks).
     *
     * @return a number unique within the RNIC
     */
    long number();

    /**
     * {@code ibv_reg_mr} over the {@code position..limit} octets of a direct buffer. The base Tagged
     * Offset is the native address of the first octet (a verbs virtual address), the STag a fresh
     * index/key pair. The region does not copy: peers read and write {@code buffer}'s memory.
     *
     * @param buffer a direct buffer
     * @param access the rights ({@link Access#validate} rules)
     * @return the region
     * @throws IllegalArgumentException for a heap buffer or invalid {@code access}
     * @throws VerbsException           with {@link VerbsException.Reason#LIMIT_EXCEEDED} when the STag table is full
     */
    MemoryRegion register(ByteBuffer buffer, Set<Access> access);

    /**
     * {@code ibv_reg_mr} with the rights as arguments.
     *
     * @param buffer a direct buffer
     * @param access the rights (none: local read only)
     * @return the region
     * @see #register(ByteBuffer, Set)
     */
    default MemoryRegion register(ByteBuffer buffer, Access... access) {
        return register(buffer, Access.setOf(access));
    }

    /**
     * Allocates {@code length} octets of zeroed direct memory and registers them; the memory is read and
     * written through {@link MemoryRegion#buffer()}. The region owns it: iwarp4j takes it from Netty's pooled
     * allocator and gives it back when the region is closed (or its RNIC), so the views {@code buffer()} returned
     * must not be used after that. Memory the application keeps itself is registered with
     * {@link #register(ByteBuffer, Access...)}.
     *
     * @param length octets, positive
     * @param access the rights (none: local read only)
     * @return the region
     */
    default MemoryRegion allocateRegion(int length, Access... access) {
        if (length < 1) {
            throw new IllegalArgumentException("length must be positive: " + length);
        }
        return register(ByteBuffer.allocateDirect(length), Access.setOf(access));
    }

    /**
     * A fast-registration region shell ({@code ibv_alloc_mr}): an STag index with no memory and no
     * valid key until a {@link SendWorkRequest.FastRegister} binds up to {@code maxLength} octets.
     *
     * @param maxLength the most octets a fast registration may bind
     * @return the unbound region
     */
    MemoryRegion allocateFastRegistration(int maxLength);

    /**
     * {@code ibv_alloc_mw} (type 2): an unbound memory window, bound by a
     * {@link SendWorkRequest.BindMemoryWindow}.
     *
     * @return the window
     * @throws VerbsException with {@link VerbsException.Reason#LIMIT_EXCEEDED} when the STag table is full
     */
    MemoryWindow allocateMemoryWindow();

    /**
     * {@code ibv_create_qp} of a reliable connected queue pair, in {@link QueuePairState#IDLE}.
     *
     * @param config the queue pair's attributes
     * @return the queue pair
     * @throws VerbsException with {@link VerbsException.Reason#LIMIT_EXCEEDED} above an RNIC limit
     */
    QueuePair createQueuePair(QueuePairConfig config);

    /**
     * {@code ibv_create_qp} with every attribute at its default ({@link QueuePairConfig.Builder} names them): sends
     * and receives complete on {@code completionQueue}. The same as
     * {@code createQueuePair(QueuePairConfig.builder(completionQueue, completionQueue).build())}.
     *
     * @param completionQueue where both the send and the receive work requests complete
     * @return the queue pair, in {@link QueuePairState#IDLE}
     * @throws VerbsException with {@link VerbsException.Reason#LIMIT_EXCEEDED} above an RNIC limit
     */
    default QueuePair createQueuePair(CompletionQueue completionQueue) {
        return createQueuePair(QueuePairConfig.builder(completionQueue, completionQueue).build());
    }

    /**
     * {@code ibv_create_srq}: a shared receive queue.
     *
     * @param capacity receives it holds
     * @param maxSge   SGEs per receive
     * @return the queue
     */
    SharedReceiveQueue createSharedReceiveQueue(int capacity, int maxSge);

    /**
     * {@code ibv_dealloc_pd}. As there (EBUSY), a domain still holding regions, windows, queue pairs or shared
     * receive queues is not deallocated: close those first.
     *
     * @throws IllegalStateException naming what is still open
     */
    @Override
    void close();
}
