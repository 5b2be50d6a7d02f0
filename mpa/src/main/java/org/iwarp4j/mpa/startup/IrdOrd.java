package org.iwarp4j.mpa.startup;

import static org.iwarp4j.mpa.frame.EnhancedConnectionData.NO_NEGOTIATION;

/**
 * IRD/ORD negotiation rules of RFC 6581 §9.1, as pure functions.
 *
 * <p>After a successful exchange: Initiator ORD ≤ Responder IRD and Responder ORD ≤ Initiator IRD.
 * 0x3FFF means "no automatic negotiation": the side receiving it keeps its local value.
 */
final class IrdOrd {

    private IrdOrd() {}

    /**
     * Responder: the ORD to put in the Reply. RFC 6581 §9.1: at most the Initiator's IRD; for
     * Initiator IRD 0x3FFF the Responder keeps its ORD and returns 0x3FFF.
     */
    static int responderReplyOrd(int localOrd, int initiatorIrd) {
        return initiatorIrd == NO_NEGOTIATION ? NO_NEGOTIATION : Math.min(localOrd, initiatorIrd);
    }

    /** Responder: ORD it will use. */
    static int responderFinalOrd(int localOrd, int initiatorIrd) {
        return initiatorIrd == NO_NEGOTIATION ? localOrd : Math.min(localOrd, initiatorIrd);
    }

    /**
     * Responder: the IRD to put in the Reply. RFC 6581 §9.1: the Responder MAY raise its IRD (up to
     * what it can provide) to meet the Initiator's ORD, and raises it to at least {@code minimum}
     * (1 when a Read RTR may arrive); for Initiator ORD 0x3FFF it keeps its IRD and returns 0x3FFF.
     */
    static int responderReplyIrd(int localIrd, int irdLimit, int initiatorOrd, int minimum) {
        if (initiatorOrd == NO_NEGOTIATION) {
            return NO_NEGOTIATION;
        }
        return Math.max(minimum, Math.max(localIrd, Math.min(initiatorOrd, irdLimit)));
    }

    /** Responder: IRD it will use. */
    static int responderFinalIrd(int localIrd, int irdLimit, int initiatorOrd, int minimum) {
        int v = responderReplyIrd(localIrd, irdLimit, initiatorOrd, minimum);
        return v == NO_NEGOTIATION ? Math.max(localIrd, minimum) : v;
    }

    /**
     * Initiator: IRD to use after an accepting Reply, or -1 if it cannot provide one large enough
     * (RFC 6581 §9.1: IRD ≥ Responder ORD; otherwise Terminate 0x2/0x0/0x06). Responder ORD 0x3FFF
     * leaves the IRD unchanged.
     */
    static int initiatorFinalIrd(int localIrd, int irdLimit, int responderOrd) {
        if (responderOrd == NO_NEGOTIATION) {
            return localIrd;
        }
        if (responderOrd <= localIrd) {
            return localIrd;
        }
        return responderOrd <= irdLimit ? responderOrd : -1;
    }

    /** Initiator: ORD to use: at most the Responder's IRD; Responder IRD 0x3FFF leaves it unchanged. */
    static int initiatorFinalOrd(int localOrd, int responderIrd) {
        return responderIrd == NO_NEGOTIATION ? localOrd : Math.min(localOrd, responderIrd);
    }
}
