package org.iwarp4j.verbs;

import java.nio.ByteOrder;

/**
 * What an RNIC can do ({@code ibv_device_attr}), from {@link Rnic#query()}: ask before creating instead of
 * hitting an error.
 *
 * @param name                    the RNIC's name
 * @param transport               the transport in use
 * @param eventLoopThreads        event loops (each queue pair lives on one)
 * @param maxQueuePairs           queue pairs open at once
 * @param maxWorkRequests         largest send or receive queue of a queue pair, and of a shared receive queue
 * @param maxSge                  largest scatter/gather list
 * @param maxInlineData           largest {@link SendFlag#INLINE} payload a queue pair may allow
 * @param maxCompletionQueueDepth largest completion queue
 * @param maxStags                memory regions and memory windows at once (they share the STag table)
 * @param maxRegionSize           largest memory region, in octets
 * @param maxMessageSize          largest message, in octets
 * @param maxIrdOrd               largest IRD / ORD of a queue pair
 * @param atomicByteOrder         the byte order of the 64-bit words RFC 7306 atomics operate on in registered
 *                                memory (see {@link RnicConfig#atomicByteOrder()})
 * @param maxRegisteredBytes      octets registered in memory regions at once
 * @param maxPostedReceives       receives posted and not yet polled, over the whole RNIC
 * @param maxStartupsInProgress   accepted connections whose MPA startup has not ended
 * @param maxInboundReadsAndAtomics the sum of the IRDs of the RNIC's connections ({@code max_res_rd_atom})
 */
public record RnicAttributes(String name, Transport transport, int eventLoopThreads, int maxQueuePairs,
                             int maxWorkRequests, int maxSge, int maxInlineData, int maxCompletionQueueDepth,
                             int maxStags, long maxRegionSize, int maxMessageSize, int maxIrdOrd,
                             ByteOrder atomicByteOrder, long maxRegisteredBytes, int maxPostedReceives,
                             int maxStartupsInProgress, int maxInboundReadsAndAtomics) {
}
