/**
 * Implementation of the verbs API; nothing here is API. Map: {@code RnicImpl} (event loops, STag table,
 * atomic executor, connection manager), {@code QueuePairImpl} (thread-safe posting) and
 * {@code QueuePairEngine} (loop side: {@code SendQueue}, {@code PostedReceives}, {@code Completions}) over
 * the RDMAP stream; a connection's life: {@code ConnectionLifecycle} (the pure core: {@code ConnectionState},
 * events in, {@code LifecycleActions} out, {@code ConnectionEnd} why it ended), {@code QueuePairHandler} (the
 * Netty adapter) with {@code ChannelActions} (the actions on the channel), {@code CmEvents} (the CM events and
 * futures), {@code TransmitPump} (segments out), {@code PeerAccommodations} (Linux siw's quirks) and
 * {@code TcpResets}; {@code RegionImpl}/{@code StagTable} (DDP's tagged buffers), {@code SgeReceiveBuffer}
 * (DDP's untagged buffer for a receive), {@code CompletionQueueImpl} (lock-free ring).
 */
package org.iwarp4j.verbs.internal;
