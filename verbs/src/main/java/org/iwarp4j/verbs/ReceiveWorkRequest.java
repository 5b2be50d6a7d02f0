package org.iwarp4j.verbs;

import java.util.List;

/**
 * A receive work request ({@code ibv_recv_wr}): the next Send or Immediate Data message of the peer is
 * scattered over {@code sges} (which need {@link Access#LOCAL_WRITE}). iWARP has no RNR: a Send that
 * finds no receive posted, or is longer than it, ends the connection with a Terminate.
 */
public record ReceiveWorkRequest(long wrId, List<Sge> sges) {

    public ReceiveWorkRequest {
        sges = List.copyOf(sges);
    }

    public static ReceiveWorkRequest of(long wrId, Sge... sges) {
        return new ReceiveWorkRequest(wrId, List.of(sges));
    }
}
