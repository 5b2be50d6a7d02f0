package org.iwarp4j.verbs;

/**
 * How a work request ended ({@code enum ibv_wc_status}), naming the cause. Whenever a Terminate is
 * involved, {@link WorkCompletion#terminate()} holds it (layer, error type, code, sent or received).
 *
 * <table>
 * <caption>When each status arises</caption>
 * <tr><th>status</th><th>cause</th></tr>
 * <tr><td>{@link #SUCCESS}</td><td>Send/Write/Immediate Data: TCP took the last octet; Read/Atomic:
 *     the response was placed; receive: a message was delivered; local operations: executed.</td></tr>
 * <tr><td>{@link #LOCAL_LENGTH_ERROR}</td><td>receive: the incoming Send was longer than the posted
 *     receive (we sent a Terminate 0x1/0x2/0x05).</td></tr>
 * <tr><td>{@link #LOCAL_PROTECTION_ERROR}</td><td>receive: a Send with Invalidate named an STag this
 *     queue pair may not invalidate (we sent 0x0/0x1/0x09); local invalidate of an STag this queue pair may not
 *     invalidate (a window bound on another queue pair, a stale key); fast register of a region that cannot be
 *     (re)bound.</td></tr>
 * <tr><td>{@link #MEMORY_WINDOW_BIND_ERROR}</td><td>a memory window bind could not be executed: the region lacks
 *     {@link Access#MW_BIND} (or LOCAL_WRITE for remote write/atomic rights), the range is outside it, the region
 *     is invalid, or the new STag does not keep the window's index ({@code IBV_WC_MW_BIND_ERR}).</td></tr>
 * <tr><td>{@link #LOCAL_QP_OPERATION_ERROR}</td><td>this side failed to process the operation (local
 *     catastrophic error; Terminate sent).</td></tr>
 * <tr><td>{@link #REMOTE_ACCESS_ERROR}</td><td>the peer's Terminate names this operation with a
 *     protection error: RDMAP Remote Protection (0x0/0x1/…) or a DDP tagged buffer error (0x1/0x1/…):
 *     bad STag, bounds, missing right, invalidated STag.</td></tr>
 * <tr><td>{@link #REMOTE_INVALID_REQUEST}</td><td>the peer's Terminate names this operation with a DDP
 *     untagged buffer error (no receive posted, message too long, 0x1/0x2/…) or an unexpected opcode
 *     / RDMAP version (0x0/0x2/0x05, 0x06), e.g. an RFC 7306 operation sent to a plain RFC 5040 peer.</td></tr>
 * <tr><td>{@link #REMOTE_OPERATION_ERROR}</td><td>the peer's Terminate names this operation with another
 *     error.</td></tr>
 * <tr><td>{@link #BAD_RESPONSE}</td><td>the Read/Atomic Response the peer sent for this operation was
 *     malformed (wrong STag, TO, length or request id); we sent a Terminate.</td></tr>
 * <tr><td>{@link #RESPONSE_TIMEOUT}</td><td>Read/Atomic: no FPDU at all arrived from the peer for the queue
 *     pair's {@link QueuePairConfig#responseTimeout()} while this request awaited its response; the connection
 *     was closed ({@code IBV_WC_RESP_TIMEOUT_ERR}).</td></tr>
 * <tr><td>{@link #TERMINATE_RECEIVED}</td><td>flushed: the peer sent a Terminate about another message
 *     (or about nothing in particular) while this request was outstanding.</td></tr>
 * <tr><td>{@link #TERMINATE_SENT}</td><td>flushed: this side detected an error in another message and
 *     sent a Terminate while this request was outstanding.</td></tr>
 * <tr><td>{@link #TERMINATE_WITHHELD}</td><td>flushed: this side detected an error in another message but
 *     could not send its Terminate, because a Responder sends nothing before it has validated the Initiator's
 *     first FPDU (RFC 5044 §7.1.2 rule 4); the connection was closed instead.</td></tr>
 * <tr><td>{@link #WORK_REQUEST_FLUSHED}</td><td>flushed by a disconnect: ours (graceful or abortive),
 *     the peer's (FIN or RST, both normal for iWARP), a closed queue pair, or a completion queue
 *     overflow.</td></tr>
 * <tr><td>{@link #TRANSPORT_ERROR}</td><td>flushed because TCP failed with an I/O error (write
 *     failure, connection lost) outside a disconnect.</td></tr>
 * </table>
 */
public enum CompletionStatus {
    SUCCESS,
    LOCAL_LENGTH_ERROR,
    LOCAL_PROTECTION_ERROR,
    MEMORY_WINDOW_BIND_ERROR,
    LOCAL_QP_OPERATION_ERROR,
    REMOTE_ACCESS_ERROR,
    REMOTE_INVALID_REQUEST,
    REMOTE_OPERATION_ERROR,
    BAD_RESPONSE,
    RESPONSE_TIMEOUT,
    TERMINATE_RECEIVED,
    TERMINATE_SENT,
    TERMINATE_WITHHELD,
    WORK_REQUEST_FLUSHED,
    TRANSPORT_ERROR;

    /** Whether the request was not executed because the queue pair went down (a flush status). */
    public boolean isFlush() {
        return this == WORK_REQUEST_FLUSHED || this == TERMINATE_RECEIVED || this == TERMINATE_SENT
                || this == TERMINATE_WITHHELD || this == TRANSPORT_ERROR;
    }
}
