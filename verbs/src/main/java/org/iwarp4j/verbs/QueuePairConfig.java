package org.iwarp4j.verbs;

import java.util.Objects;

/**
 * Attributes of a reliable connected queue pair ({@code ibv_qp_init_attr} + {@code ibv_qp_cap}).
 *
 * @param sendCompletionQueue    where send work requests complete
 * @param receiveCompletionQueue where receives complete
 * @param sharedReceiveQueue     take receives from this shared receive queue instead of posting them
 *                               to the queue pair, or {@code null}
 * @param maxSendWr              send work requests outstanding (a Read with n SGEs counts n)
 * @param maxRecvWr              receives outstanding
 * @param maxSge                 largest scatter/gather list
 * @param maxInlineData          largest {@link SendFlag#INLINE} payload
 * @param signalAll              every successful send request completes visibly ({@code sq_sig_all})
 * @param ird                    inbound RDMA Read / Atomic depth to offer in the MPA negotiation
 * @param ord                    outbound depth to ask for
 * @param rfc7306                RFC 7306 extensions (atomics, Immediate Data, Write with Immediate) on this
 *                               queue pair; switch off to talk to Linux siw, which terminates the
 *                               connection on opcodes 0x8–0xB (siw-interop §D)
 */
public record QueuePairConfig(CompletionQueue sendCompletionQueue, CompletionQueue receiveCompletionQueue,
                              SharedReceiveQueue sharedReceiveQueue, int maxSendWr, int maxRecvWr, int maxSge,
                              int maxInlineData, boolean signalAll, int ird, int ord, boolean rfc7306) {

    public QueuePairConfig {
        Objects.requireNonNull(sendCompletionQueue, "sendCompletionQueue");
        Objects.requireNonNull(receiveCompletionQueue, "receiveCompletionQueue");
        if (maxSendWr < 1 || maxRecvWr < 1 || maxSge < 1) {
            throw new IllegalArgumentException("maxSendWr, maxRecvWr and maxSge must be positive");
        }
        if (maxInlineData < 0 || ird < 0 || ord < 0) {
            throw new IllegalArgumentException("maxInlineData, ird and ord must not be negative");
        }
    }

    public static Builder builder(CompletionQueue sendCq, CompletionQueue receiveCq) {
        return new Builder(sendCq, receiveCq);
    }

    /** Defaults: 256 send and receive requests, 4 SGEs, 256 inline octets, IRD = ORD = 16, RFC 7306 on. */
    public static final class Builder {
        private final CompletionQueue sendCq;
        private final CompletionQueue receiveCq;
        private SharedReceiveQueue srq;
        private int maxSendWr = 256;
        private int maxRecvWr = 256;
        private int maxSge = 4;
        private int maxInlineData = 256;
        private boolean signalAll;
        private int ird = 16;
        private int ord = 16;
        private boolean rfc7306 = true;

        private Builder(CompletionQueue sendCq, CompletionQueue receiveCq) {
            this.sendCq = sendCq;
            this.receiveCq = receiveCq;
        }

        public Builder sharedReceiveQueue(SharedReceiveQueue v) { srq = v; return this; }
        public Builder maxSendWr(int v) { maxSendWr = v; return this; }
        public Builder maxRecvWr(int v) { maxRecvWr = v; return this; }
        public Builder maxSge(int v) { maxSge = v; return this; }
        public Builder maxInlineData(int v) { maxInlineData = v; return this; }
        public Builder signalAll(boolean v) { signalAll = v; return this; }
        public Builder ird(int v) { ird = v; return this; }
        public Builder ord(int v) { ord = v; return this; }
        public Builder rfc7306(boolean v) { rfc7306 = v; return this; }

        public QueuePairConfig build() {
            return new QueuePairConfig(sendCq, receiveCq, srq, maxSendWr, maxRecvWr, maxSge, maxInlineData,
                    signalAll, ird, ord, rfc7306);
        }
    }
}
