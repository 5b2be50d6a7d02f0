package org.iwarp4j.verbs.internal;

import java.time.Duration;

/**
 * Notices a peer that went silent while it owes us a response (RFC 5044 §7.1.2 rule 10: ULPs time out waiting
 * for FPDUs; MPA-39): a pure clock of ticks, every eighth of the timeout, each told how many RDMA Read and
 * Atomic Requests of ours are outstanding and how many FPDUs have arrived so far. It expires once a Read or
 * atomic has been outstanding through a whole timeout with no FPDU arriving at all: silence, not slowness, so a
 * long Read Response that keeps arriving never expires, nor does an idle connection that owes nothing. The
 * silence noticed (since the request, or since the last FPDU if one came later) is at least the timeout and less
 * than 5/4 of it: two ticks of uncertainty, where in its interval the silence began and where the tick falls.
 */
final class ResponseWatchdog {

    /** Ticks per timeout. */
    static final int TICKS = 8;

    private final Duration timeout;
    private final Duration tick;
    private long fpdusAtLastTick = -1;
    private int silentTicks;

    ResponseWatchdog(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        this.timeout = timeout;
        this.tick = Duration.ofNanos(Math.max(1, timeout.toNanos() / TICKS));
    }

    Duration timeout() {
        return timeout;
    }

    /** What expiry means, for the completion's async event and the disconnect's cause. */
    static String describe(Duration timeout) {
        return "the peer sent nothing for " + (timeout == null ? "the response timeout" : timeout.toMillis() + " ms")
                + " while it owed a Read or Atomic Response (QueuePairConfig.responseTimeout, RFC 5044 §7.1.2"
                + " rule 10): the connection was closed";
    }

    /** How long from one tick to the next. */
    Duration tickInterval() {
        return tick;
    }

    /**
     * One tick: {@code outstanding} Read/Atomic Requests await their response, {@code fpdusReceived} FPDUs have
     * arrived since Full Operation. True when the peer has been silent for the whole timeout while owing one.
     */
    boolean tick(int outstanding, long fpdusReceived) {
        boolean heard = fpdusReceived != fpdusAtLastTick;
        fpdusAtLastTick = fpdusReceived;
        if (outstanding == 0 || heard) {
            silentTicks = 0;
            return false;
        }
        // The first silent tick may come just after the request went out: only more than TICKS of them cover the
        // whole timeout.
        return ++silentTicks > TICKS;
    }
}
