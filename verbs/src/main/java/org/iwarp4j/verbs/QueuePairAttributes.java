package org.iwarp4j.verbs;

/**
 * A snapshot of a queue pair ({@code ibv_query_qp}): its state, what it was created with, what the
 * connection negotiated and how full its queues are.
 *
 * @param number         the queue pair number
 * @param state          the state when queried
 * @param maxSendWr      send queue depth (a Read with n SGEs takes n slots)
 * @param maxRecvWr      receive queue depth
 * @param maxSge         largest scatter/gather list
 * @param maxInlineData  largest {@link SendFlag#INLINE} payload
 * @param ird            inbound Read/Atomic depth: as negotiated by MPA once connected, else as configured
 * @param ord            outbound Read/Atomic depth: as negotiated once connected, else as configured
 * @param signalAll      every send request completes visibly
 * @param rfc7306        RFC 7306 operations enabled
 * @param sendQueueUsed  send queue slots taken: requests executing, and completed ones whose completion has not
 *                       been polled yet (as in libibverbs)
 * @param receivesPosted receive queue slots taken: receives posted and not yet completed, and completed ones not
 *                       polled yet (0 on a shared receive queue)
 * @param sendsHeld      a Responder's FPDUs are held until the Initiator's first (RFC 5044 §7.1.2 rule 4)
 */
public record QueuePairAttributes(int number, QueuePairState state, int maxSendWr, int maxRecvWr, int maxSge,
                                  int maxInlineData, int ird, int ord, boolean signalAll, boolean rfc7306,
                                  int sendQueueUsed, int receivesPosted, boolean sendsHeld) {

    /**
     * Free send queue slots.
     *
     * @return {@code maxSendWr - sendQueueUsed}
     */
    public int sendQueueAvailable() {
        return maxSendWr - sendQueueUsed;
    }
}
