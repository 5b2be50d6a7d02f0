package org.iwarp4j.verbs;

import java.util.List;

/**
 * A receive work request ({@code ibv_recv_wr}): the next Send or Immediate Data message of the peer is
 * scattered over {@code sges} (which need {@link Access#LOCAL_WRITE}). iWARP has no RNR: a Send that
 * finds no receive posted, or is longer than it, ends the connection with a Terminate.
 *
 * @param wrId echoed in the completion
 * @param sges where the message goes, in order
 */
public record ReceiveWorkRequest(long wrId, List<Sge> sges) {

    /** Copies the list. */
    public ReceiveWorkRequest {
        sges = List.copyOf(sges);
    }

    /**
     * A receive into the given SGEs.
     *
     * @param wrId echoed in the completion
     * @param sges where the message goes
     * @return the request
     */
    public static ReceiveWorkRequest of(long wrId, Sge... sges) {
        return new ReceiveWorkRequest(wrId, List.of(sges));
    }

    /**
     * A receive into a whole region.
     *
     * @param wrId   echoed in the completion
     * @param region where the message goes (with {@link Access#LOCAL_WRITE})
     * @return the request
     */
    public static ReceiveWorkRequest of(long wrId, MemoryRegion region) {
        return new ReceiveWorkRequest(wrId, List.of(Sge.of(region)));
    }
}
