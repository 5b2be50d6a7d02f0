/**
 * Implementation of the verbs API; nothing here is API. Map: {@code RnicImpl} (event loops, STag table,
 * atomic executor, connection manager), {@code QueuePairImpl} (thread-safe posting) and
 * {@code QueuePairEngine} (loop side: {@code SendQueue}, {@code PostedReceives}, {@code Completions}) over
 * the RDMAP stream, {@code QueuePairHandler} (the Netty adapter), {@code RegionImpl}/{@code StagTable}
 * (DDP's tagged buffers), {@code SgeReceiveBuffer} (DDP's untagged buffer for a receive),
 * {@code CompletionQueueImpl} (lock-free ring).
 */
package org.iwarp4j.verbs.internal;
