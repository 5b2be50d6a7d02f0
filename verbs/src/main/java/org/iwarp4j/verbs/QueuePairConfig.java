package org.iwarp4j.verbs;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Attributes of a reliable connected queue pair ({@code ibv_qp_init_attr} + {@code ibv_qp_cap}); build with
 * {@link #builder(CompletionQueue, CompletionQueue)}, whose setters name the defaults.
 *
 * @param sendCompletionQueue    where send work requests complete
 * @param receiveCompletionQueue where receives complete
 * @param sharedReceiveQueue     take receives from this shared receive queue instead of posting them to the
 *                               queue pair
 * @param maxSendWr              send work requests outstanding (a Read with n SGEs counts n)
 * @param maxRecvWr              receives outstanding
 * @param maxSge                 largest scatter/gather list
 * @param maxInlineData          largest {@link SendFlag#INLINE} payload
 * @param signalAll              every successful send request completes visibly ({@code sq_sig_all})
 * @param ird                    inbound RDMA Read / Atomic depth to offer in the MPA negotiation
 * @param ord                    outbound depth to ask for
 * @param rfc7306                RFC 7306 extensions (atomics, Immediate Data, Write with Immediate) on this
 *                               queue pair; switch off to talk to Linux siw, which terminates the connection on
 *                               their opcodes 0x8–0xB
 * @param responseTimeout        how long the peer may stay silent (no FPDU at all) while an RDMA Read or atomic of
 *                               this queue pair awaits its response (RFC 5044 §7.1.2 rule 10: the ULP times out
 *                               waiting for FPDUs); then that request completes with
 *                               {@link CompletionStatus#RESPONSE_TIMEOUT}, the queue pair fails with an
 *                               {@link AsyncEvent.Type#RESPONSE_TIMEOUT} event and the connection is closed.
 *                               {@link Duration#ZERO}: wait for ever
 */
public record QueuePairConfig(CompletionQueue sendCompletionQueue, CompletionQueue receiveCompletionQueue,
                              Optional<SharedReceiveQueue> sharedReceiveQueue, int maxSendWr, int maxRecvWr,
                              int maxSge, int maxInlineData, boolean signalAll, int ird, int ord, boolean rfc7306,
                              Duration responseTimeout) {

    /** Checks the attributes. */
    public QueuePairConfig {
        Objects.requireNonNull(sendCompletionQueue, "sendCompletionQueue");
        Objects.requireNonNull(receiveCompletionQueue, "receiveCompletionQueue");
        Objects.requireNonNull(sharedReceiveQueue, "sharedReceiveQueue");
        if (maxSendWr < 1 || maxRecvWr < 1 || maxSge < 1) {
            throw new IllegalArgumentException("maxSendWr, maxRecvWr and maxSge must be positive");
        }
        if (maxInlineData < 0 || ird < 0 || ord < 0) {
            throw new IllegalArgumentException("maxInlineData, ird and ord must not be negative");
        }
        Objects.requireNonNull(responseTimeout, "responseTimeout");
        if (responseTimeout.isNegative()) {
            throw new IllegalArgumentException("responseTimeout must not be negative: " + responseTimeout);
        }
    }

    /**
     * A builder with the defaults.
     *
     * @param sendCq    where send work requests complete
     * @param receiveCq where receives complete (may be the same queue)
     * @return a new builder
     */
    public static Builder builder(CompletionQueue sendCq, CompletionQueue receiveCq) {
        return new Builder(sendCq, receiveCq);
    }

    /** Builder; each setter names its default. */
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
        private Duration responseTimeout = Duration.ofSeconds(30);

        private Builder(CompletionQueue sendCq, CompletionQueue receiveCq) {
            this.sendCq = sendCq;
            this.receiveCq = receiveCq;
        }

        /** @param v default none @return this */
        public Builder sharedReceiveQueue(SharedReceiveQueue v) { srq = Objects.requireNonNull(v); return this; }
        /** @param v default 256 @return this */
        public Builder maxSendWr(int v) { maxSendWr = v; return this; }
        /** @param v default 256 @return this */
        public Builder maxRecvWr(int v) { maxRecvWr = v; return this; }
        /** @param v default 4 @return this */
        public Builder maxSge(int v) { maxSge = v; return this; }
        /** @param v default 256 @return this */
        public Builder maxInlineData(int v) { maxInlineData = v; return this; }
        /** @param v default false @return this */
        public Builder signalAll(boolean v) { signalAll = v; return this; }
        /** @param v default 16 @return this */
        public Builder ird(int v) { ird = v; return this; }
        /** @param v default 16 @return this */
        public Builder ord(int v) { ord = v; return this; }
        /** @param v default true @return this */
        public Builder rfc7306(boolean v) { rfc7306 = v; return this; }
        /** @param v default 30 s; {@link Duration#ZERO}: never @return this */
        public Builder responseTimeout(Duration v) { responseTimeout = v; return this; }

        /**
         * Validates and builds.
         *
         * @return the configuration
         */
        public QueuePairConfig build() {
            return new QueuePairConfig(sendCq, receiveCq, Optional.ofNullable(srq), maxSendWr, maxRecvWr, maxSge,
                    maxInlineData, signalAll, ird, ord, rfc7306, responseTimeout);
        }
    }
}
