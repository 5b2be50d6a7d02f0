package org.iwarp4j.mpa.startup;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.FramingNegotiation;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.StartupOutcome;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;

import java.util.EnumSet;
import java.util.Set;

/**
 * The Initiator's side of MPA startup as a pure state machine (RFC 5044 §7.1.2 rules 1 and 3,
 * RFC 6581 §9): builds the Request from the configuration and validates the Reply.
 *
 * <p>Checks on the Reply: the key must be the Reply key (a Request key means Initiator/Initiator,
 * rule 8); an S=1 Request needs an S=1 Reply and an S=0 Request an S=0 Reply (RFC 6581 §10); R=1
 * ends MPA with the TCP connection left open (rule 3). On an accepting Reply it applies the IRD/ORD
 * rules (§9.1, {@link IrdOrd}) and picks the RTR (§9.2–9.3); if it cannot provide the IRD the
 * Responder's ORD needs, or no offered RTR is usable, the result carries
 * {@link MpaParameters#requiredTerminate()} (0x06 or 0x07): the layer above must send that Terminate
 * as its first FPDU.
 */
public final class InitiatorStartup {

    private final MpaConfig config;
    private final int emss;
    private final MpaFrame request;
    private boolean done;

    /**
     * @param config the Initiator's configuration
     * @param emss   effective MSS of the connection (for MULPDU, RFC 5044 §4.5)
     */
    public InitiatorStartup(MpaConfig config, int emss) {
        this.config = config;
        this.emss = emss;
        this.request = buildRequest(config);
    }

    static MpaFrame buildRequest(MpaConfig config) {
        if (config.revision() < 2) {
            // RFC 6581 §10: no enhanced format when no enhanced feature is wanted.
            return MpaFrame.rev1(MpaFrameType.REQUEST, config.markers(), config.crc(), false, config.privateData());
        }
        // RFC 6581 §9.2: A=1 for peer-to-peer, then a flag for every RTR type supported; A=0 ⇒ flags 0.
        Set<RtrType> offered = config.peerToPeer() ? EnumSet.copyOf(config.rtrTypes()) : EnumSet.noneOf(RtrType.class);
        EnhancedConnectionData data =
                EnhancedConnectionData.of(config.peerToPeer(), offered, config.ird(), config.ord());
        return MpaFrame.enhanced(MpaFrameType.REQUEST, config.markers(), config.crc(), false, data,
                config.privateData());
    }

    /** The MPA Request to send (RFC 5044 §7.1.2 rule 1). */
    public MpaFrame request() {
        return request;
    }

    /**
     * Validates the peer's frame (expected: the Reply) and negotiates.
     *
     * @return {@link MpaParameters} for an accepting Reply, {@link MpaRejection} for R=1
     * @throws MpaException {@link MpaError#INVALID_STARTUP_FRAME} when the frame is not an acceptable Reply
     */
    public StartupOutcome onReply(MpaFrame reply) {
        if (done) {
            throw new IllegalStateException("the Reply was already processed");
        }
        done = true;
        if (reply.type() != MpaFrameType.REPLY) {
            // RFC 5044 §7.1.2 rule 8: the key difference detects Initiator/Initiator startups.
            throw new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    "received an MPA Request while waiting for the Reply: Initiator/Initiator startup");
        }
        boolean enhancedRequest = request.enhancedData() != null;
        if (enhancedRequest && reply.enhancedData() == null) {
            throw new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    "the Request had S=1 but the Reply has no enhanced data (RFC 6581 §10)");
        }
        if (!enhancedRequest && reply.enhancedData() != null) {
            throw new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    "the Request had S=0 but the Reply carries enhanced data (RFC 6581 §10)");
        }
        if (reply.rejected()) {
            return new MpaRejection(MpaRole.INITIATOR, true, request, reply, rejectReason(reply));
        }
        boolean crc = FramingNegotiation.crc(request, reply);
        boolean txMarkers = FramingNegotiation.senderInsertsMarkers(reply);
        boolean rxMarkers = FramingNegotiation.senderInsertsMarkers(request);
        int ird = config.ird();
        int ord = config.ord();
        MpaError terminate = null;
        Set<RtrType> mutual = EnumSet.noneOf(RtrType.class);
        RtrType rtr = null;
        if (enhancedRequest) {
            EnhancedConnectionData r = reply.enhancedData();
            // RFC 6581 §9.1: IRD ≥ Responder ORD, ORD ≤ Responder IRD.
            ird = IrdOrd.initiatorFinalIrd(config.ird(), config.irdLimit(), r.ord());
            if (ird < 0) {
                terminate = MpaError.INSUFFICIENT_IRD;
                ird = config.irdLimit();
            }
            ord = IrdOrd.initiatorFinalOrd(config.ord(), r.ird());
            if (request.enhancedData().peerToPeer()) {
                if (!r.peerToPeer()) {
                    // RFC 6581 §9.2: the Responder MUST echo A=1; without it no RTR can be agreed.
                    if (terminate == null) {
                        terminate = MpaError.NO_MATCHING_RTR;
                    }
                } else {
                    mutual.addAll(request.enhancedData().rtrFlags());
                    mutual.retainAll(r.rtrFlags());
                    rtr = chooseRtr(mutual, ord);
                    if (rtr == null && terminate == null) {
                        // RFC 6581 §9.3: no usable RTR ⇒ Terminate 0x2/0x0/0x07.
                        terminate = MpaError.NO_MATCHING_RTR;
                    }
                }
            }
            // RFC 6581 §9.2: with A=0 in the Request, B/C/D (and a wrongly set A) in the Reply are ignored.
        }
        int mulpdu = Mulpdu.of(emss, txMarkers);
        return new MpaParameters(MpaRole.INITIATOR, request, reply, crc, txMarkers, rxMarkers, ird, ord, mutual,
                terminate == null ? rtr : null, terminate, mulpdu, config.receiveUlpduLimit());
    }

    /** First type in preference order that both sides accept; a Read RTR needs an ORD slot. */
    private RtrType chooseRtr(Set<RtrType> mutual, int ord) {
        for (RtrType t : config.rtrTypes()) {
            if (mutual.contains(t) && (t != RtrType.READ || ord >= 1)) {
                return t;
            }
        }
        return null;
    }

    private MpaError rejectReason(MpaFrame reply) {
        EnhancedConnectionData r = reply.enhancedData();
        EnhancedConnectionData q = request.enhancedData();
        if (r != null && q != null && r.ord() != EnhancedConnectionData.NO_NEGOTIATION
                && q.ird() != EnhancedConnectionData.NO_NEGOTIATION && r.ord() > q.ird()) {
            return MpaError.INSUFFICIENT_IRD;
        }
        return null;
    }
}
