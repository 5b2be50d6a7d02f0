/**
 * The verbs API of iwarp4j: RDMA over ordinary TCP, with the concepts and names of libibverbs and librdmacm
 * in idiomatic Java. The library guide ({@code docs/guide.md} in the repository) walks through a complete
 * client and server; this is the map.
 *
 * <table>
 * <caption>Names RDMA programmers know</caption>
 * <tr><th>libibverbs / librdmacm</th><th>iwarp4j</th></tr>
 * <tr><td>{@code ibv_context}, {@code ibv_query_device}</td><td>{@link org.iwarp4j.verbs.Rnic},
 *     {@link org.iwarp4j.verbs.Rnic#query()}</td></tr>
 * <tr><td>{@code ibv_pd}</td><td>{@link org.iwarp4j.verbs.ProtectionDomain}</td></tr>
 * <tr><td>{@code ibv_mr}, lkey/rkey, {@code IBV_ACCESS_*}</td><td>{@link org.iwarp4j.verbs.MemoryRegion},
 *     {@link org.iwarp4j.verbs.Stag}, {@link org.iwarp4j.verbs.Access}</td></tr>
 * <tr><td>{@code ibv_mw}</td><td>{@link org.iwarp4j.verbs.MemoryWindow}</td></tr>
 * <tr><td>{@code ibv_qp} (RC), {@code ibv_query_qp}</td><td>{@link org.iwarp4j.verbs.QueuePair},
 *     {@link org.iwarp4j.verbs.QueuePair#query()}</td></tr>
 * <tr><td>{@code ibv_send_wr} / {@code ibv_recv_wr} / {@code ibv_sge}</td>
 *     <td>{@link org.iwarp4j.verbs.SendWorkRequest}, {@link org.iwarp4j.verbs.ReceiveWorkRequest},
 *     {@link org.iwarp4j.verbs.Sge}</td></tr>
 * <tr><td>remote address + rkey + length (as rping exchanges them)</td>
 *     <td>{@link org.iwarp4j.verbs.RemoteBuffer}</td></tr>
 * <tr><td>{@code ibv_cq}, {@code ibv_poll_cq}, {@code ibv_wc}</td><td>{@link org.iwarp4j.verbs.CompletionQueue},
 *     {@link org.iwarp4j.verbs.WorkCompletion}</td></tr>
 * <tr><td>{@code ibv_comp_channel}, {@code ibv_req_notify_cq}, {@code ibv_get_cq_event}</td>
 *     <td>{@link org.iwarp4j.verbs.CompletionChannel},
 *     {@link org.iwarp4j.verbs.CompletionQueue#arm(NotifyMode)}</td></tr>
 * <tr><td>{@code ibv_srq}</td><td>{@link org.iwarp4j.verbs.SharedReceiveQueue}</td></tr>
 * <tr><td>{@code ibv_get_async_event}</td><td>{@link org.iwarp4j.verbs.AsyncEvent}</td></tr>
 * <tr><td>{@code rdma_listen}, {@code rdma_connect}, {@code rdma_accept}, {@code RDMA_CM_EVENT_*}</td>
 *     <td>{@link org.iwarp4j.verbs.Rnic#listen}, {@link org.iwarp4j.verbs.Rnic#connect}, package
 *     {@link org.iwarp4j.verbs.cm}</td></tr>
 * </table>
 *
 * <h2>Threading</h2>
 * Every method may be called from any thread. A queue pair lives on one event loop: posting validates on the
 * caller's thread and hands the request over a lock-free queue. Callbacks (connection manager events,
 * completion handlers, async events, the dependent stages of the futures) run on event loops and must not
 * block; the API's blocking calls throw {@link java.lang.IllegalStateException} there instead of
 * deadlocking. Waiting threads, platform or virtual, park without spinning.
 *
 * <h2>Errors</h2>
 * A refused request throws the unchecked {@link org.iwarp4j.verbs.VerbsException} on the caller's thread
 * and posts nothing; what goes wrong later is a {@link org.iwarp4j.verbs.CompletionStatus} on the completion,
 * with the {@link org.iwarp4j.verbs.TerminateInfo} that explains it, an {@link org.iwarp4j.verbs.AsyncEvent},
 * and a {@link org.iwarp4j.verbs.cm.CmEvent.Disconnected} that says why the connection ended.
 *
 * <h2>Observing the wire</h2>
 * Two slf4j loggers at DEBUG print one line per frame: {@code org.iwarp4j.frames.mpa} (MPA Request/Reply and
 * FPDUs) and {@code org.iwarp4j.frames.rdmap} (RDMA messages, prefixed with the queue pair and peer).
 * {@code ConnectOptions.pcapFile} / {@code ListenOptions.pcapFile} write a connection's TCP traffic to a pcap
 * file for Wireshark or {@code iwarp explain}; everything in the JVM that captures to the same path shares one file.
 */
package org.iwarp4j.verbs;
