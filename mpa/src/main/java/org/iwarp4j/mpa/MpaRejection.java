package org.iwarp4j.mpa;

import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;

/**
 * A startup that ended with a Reply with R=1 (RFC 5044 §7.1.2 rules 2 and 3): MPA is left, the TCP
 * connection stays open, and the ULP decides what to do (normally: close it).
 *
 * @param role           this endpoint's role
 * @param rejectedByPeer true at the Initiator (the Responder rejected); false at the Responder (it rejected)
 * @param request        the Request
 * @param reply          the rejecting Reply (R=1)
 * @param reason         {@link MpaError#INSUFFICIENT_IRD} when the reject is (or looks like) the RFC 6581 §9.1
 *                       "initiator IRD too small" reject, whose Reply ORD is the ORD the Responder needs;
 *                       otherwise {@code null} (private data not acceptable, application decision)
 */
public record MpaRejection(MpaRole role, boolean rejectedByPeer, MpaFrame request, MpaFrame reply, MpaError reason)
        implements StartupOutcome {

    /** The Responder's private data in the reject (ULP part). */
    public byte[] replyPrivateData() {
        return reply.privateData();
    }

    /** Responder IRD from the reject (-1 without enhanced data; RFC 6581 §9.1 passes it up on reject too). */
    public int responderIrd() {
        EnhancedConnectionData d = reply.enhancedData();
        return d == null ? -1 : d.ird();
    }

    /** Responder ORD from the reject: with {@link MpaError#INSUFFICIENT_IRD}, the ORD it needs. */
    public int responderOrd() {
        EnhancedConnectionData d = reply.enhancedData();
        return d == null ? -1 : d.ord();
    }
}
