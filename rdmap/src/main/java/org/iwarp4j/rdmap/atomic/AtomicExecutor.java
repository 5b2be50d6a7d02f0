package org.iwarp4j.rdmap.atomic;

import io.netty.buffer.ByteBuf;

/**
 * Performs the read-modify-write of an incoming Atomic Request on registered memory.
 *
 * <p><b>Atomicity</b> (RFC 7306 §5 [EXT-05]): the responder RNIC MUST keep other atomic operations —
 * from <em>any</em> stream of that RNIC — from touching the target between the read and the write.
 * RDMAP streams run on different event loops, so the verbs layer backs this interface with one
 * instance per RNIC shared by all its streams ({@link LockingAtomicExecutor} with one lock or striped
 * locks). Atomicity against CPU or non-atomic RDMA access to the same word is OPTIONAL in the RFC and
 * not provided.
 *
 * <p><b>Byte order of the target word</b> (RFC 7306 §5.1): operands and the returned original value
 * travel big-endian on the wire, but the word lives in the host's memory, and applications expect to
 * read it with their native loads. The executor therefore reads and writes the 8 octets in a
 * configurable {@link java.nio.ByteOrder}; the default is little-endian, as on x86 / ARM hosts under
 * libibverbs (a FetchAdd of 1 on a word the application reads with {@code ByteBuffer.order(LITTLE_ENDIAN)
 * .getLong()} increments it by one).
 *
 * <p>Both methods are called on the stream's event loop with a region buffer already checked to
 * contain {@code [index, index + 8)}, and return the original value of the word.
 */
public interface AtomicExecutor {

    /** RFC 7306 §5.1.1 FetchAdd: {@code mem = maskedAdd(mem, addData, addMask)}; returns the original. */
    long fetchAdd(ByteBuf memory, int index, long addData, long addMask);

    /** RFC 7306 §5.1.2 CmpSwap (masked); returns the original value. */
    long compareSwap(ByteBuf memory, int index, long compareData, long compareMask, long swapData, long swapMask);
}
