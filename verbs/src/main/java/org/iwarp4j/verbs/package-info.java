/**
 * The verbs API of iwarp4j: libibverbs concepts in idiomatic Java over the iWARP stack
 * (RDMAP / DDP / MPA over TCP, built on Netty).
 *
 * <table>
 * <caption>Names RDMA programmers know</caption>
 * <tr><th>libibverbs</th><th>here</th></tr>
 * <tr><td>{@code ibv_context}</td><td>{@link org.iwarp4j.verbs.Rnic}</td></tr>
 * <tr><td>{@code ibv_pd}</td><td>{@link org.iwarp4j.verbs.ProtectionDomain}</td></tr>
 * <tr><td>{@code ibv_mr}, lkey/rkey</td><td>{@link org.iwarp4j.verbs.MemoryRegion}, {@link org.iwarp4j.verbs.Stag}</td></tr>
 * <tr><td>{@code ibv_qp} (RC)</td><td>{@link org.iwarp4j.verbs.QueuePair}</td></tr>
 * <tr><td>{@code ibv_send_wr} / {@code ibv_recv_wr} / {@code ibv_sge}</td><td>{@link org.iwarp4j.verbs.SendWorkRequest},
 *     {@link org.iwarp4j.verbs.ReceiveWorkRequest}, {@link org.iwarp4j.verbs.Sge}</td></tr>
 * <tr><td>{@code ibv_cq}, {@code ibv_wc}, {@code ibv_req_notify_cq}</td><td>{@link org.iwarp4j.verbs.CompletionQueue},
 *     {@link org.iwarp4j.verbs.WorkCompletion}, {@link org.iwarp4j.verbs.CompletionQueue#arm}</td></tr>
 * <tr><td>{@code ibv_srq}</td><td>{@link org.iwarp4j.verbs.SharedReceiveQueue}</td></tr>
 * <tr><td>{@code rdma_cm}</td><td>{@link org.iwarp4j.verbs.Rnic#listen}, {@link org.iwarp4j.verbs.Rnic#connect},
 *     package {@link org.iwarp4j.verbs.cm}</td></tr>
 * </table>
 *
 * <h2>A connection's pipeline</h2>
 * <pre>
 * TCP ─ [PcapWriteHandler] ─ MpaStartupHandler ─ QueuePairHandler
 *                            └ replaced by FpduDecoder / FpduEncoder at Full Operation
 * </pre>
 * {@code QueuePairHandler} owns one RDMAP stream (the protocol core of the queue pair): it feeds it
 * every ULPDU, pulls DDP segments while the channel is writable (backpressure), and reports written
 * segments back so that Sends and Writes complete once TCP took them.
 *
 * <h2>Threading</h2>
 * A queue pair lives on one event loop. {@code postSend}/{@code postReceive} validate on the caller's
 * thread and hand the request over an MPSC queue, waking the loop only when the queue was idle (one
 * atomic flag): no lock on the data path. Completion queues are bounded lock-free rings several loops
 * write into; {@code poll} copies into preallocated {@link org.iwarp4j.verbs.WorkCompletion}s.
 *
 * <h2>Observing the wire</h2>
 * Two slf4j loggers at DEBUG print one line per frame: {@code org.iwarp4j.frames.mpa} (MPA
 * Request/Reply and FPDUs) and {@code org.iwarp4j.frames.rdmap} (RDMA messages, prefixed with the queue
 * pair and peer). {@code ConnectOptions.pcapFile} / {@code ListenOptions.pcapFile} write the TCP traffic
 * to a pcap file for Wireshark ("Decode As" iWARP MPA).
 */
package org.iwarp4j.verbs;
