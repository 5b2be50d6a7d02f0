package org.iwarp4j.rdmap.stream;

import org.iwarp4j.rdmap.terminate.TerminateLayout;

import java.util.Objects;

/**
 * Parameters of one {@link RdmapStream}.
 *
 * @param ird                 inbound limit: Read + Atomic Requests the peer may have outstanding at us
 *                            (RFC 5040 §6.1 IRD, RFC 7306 §5.2: atomics share the Read Request queue and
 *                            its limit). That many QN-1 buffers are posted [RDMAP-15]; one more request is
 *                            answered by DDP's "no buffer" error (RFC 5041 §7.2).
 * @param ord                 outbound limit: our Read + Atomic Requests outstanding at the peer (the peer's
 *                            IRD as negotiated by MPA, RFC 6581 §9.1) [RDMAP-16]
 * @param rfc7306             whether RFC 7306 (Immediate Data, atomics, QN 3) is enabled on this stream; off,
 *                            opcodes 0x8–0xB are "Unexpected OpCode" and QN 3 is an invalid queue
 * @param protectionDomain    the PD of this stream (RFC 5041 §8.2), compared with each STag's
 * @param streamIdentity      this stream's identity for STags bound to one stream (memory windows),
 *                            compared by identity with {@code TaggedBuffer.associatedStream()}
 * @param sendQueueDepth      maximum operations submitted and not yet completed
 * @param receiveQueueDepth   maximum receives posted and not yet completed
 * @param peerTerminateLayout how to read an ambiguous received Terminate Control word:
 *                            {@link TerminateLayout#SIW_MIRRORED} when the peer is known to be Linux siw
 */
public record RdmapStreamConfig(int ird, int ord, boolean rfc7306, long protectionDomain, Object streamIdentity,
                                int sendQueueDepth, int receiveQueueDepth, TerminateLayout peerTerminateLayout) {

    /** RFC 6581 IRD/ORD are 14-bit values. */
    public static final int MAX_READ_DEPTH = 0x3FFF;

    public RdmapStreamConfig {
        if (ird < 0 || ird > MAX_READ_DEPTH) {
            throw new IllegalArgumentException("ird must be in [0, 16383]: " + ird);
        }
        if (ord < 0 || ord > MAX_READ_DEPTH) {
            throw new IllegalArgumentException("ord must be in [0, 16383]: " + ord);
        }
        if (sendQueueDepth < 1 || receiveQueueDepth < 1) {
            throw new IllegalArgumentException("queue depths must be positive");
        }
        Objects.requireNonNull(peerTerminateLayout, "peerTerminateLayout");
    }

    /** IRD = ORD = 16, RFC 7306 on, PD 0, queue depths 256, RFC Terminate layout preferred. */
    public static RdmapStreamConfig defaults() {
        return new RdmapStreamConfig(16, 16, true, 0, null, 256, 256, TerminateLayout.RFC);
    }

    public RdmapStreamConfig withReadDepths(int newIrd, int newOrd) {
        return new RdmapStreamConfig(newIrd, newOrd, rfc7306, protectionDomain, streamIdentity, sendQueueDepth,
                receiveQueueDepth, peerTerminateLayout);
    }

    public RdmapStreamConfig withRfc7306(boolean enabled) {
        return new RdmapStreamConfig(ird, ord, enabled, protectionDomain, streamIdentity, sendQueueDepth,
                receiveQueueDepth, peerTerminateLayout);
    }

    public RdmapStreamConfig withProtectionDomain(long pd, Object identity) {
        return new RdmapStreamConfig(ird, ord, rfc7306, pd, identity, sendQueueDepth, receiveQueueDepth,
                peerTerminateLayout);
    }

    public RdmapStreamConfig withQueueDepths(int sendDepth, int receiveDepth) {
        return new RdmapStreamConfig(ird, ord, rfc7306, protectionDomain, streamIdentity, sendDepth, receiveDepth,
                peerTerminateLayout);
    }

    public RdmapStreamConfig withPeerTerminateLayout(TerminateLayout layout) {
        return new RdmapStreamConfig(ird, ord, rfc7306, protectionDomain, streamIdentity, sendQueueDepth,
                receiveQueueDepth, layout);
    }
}
