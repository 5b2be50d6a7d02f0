package org.iwarp4j.mpa.startup;

import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.FramingNegotiation;
import org.iwarp4j.mpa.MpaError;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.mpa.MpaRejection;
import org.iwarp4j.mpa.MpaRole;
import org.iwarp4j.mpa.Mulpdu;
import org.iwarp4j.mpa.RtrReplyPolicy;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameType;

import java.util.EnumSet;
import java.util.Set;

/**
 * The Responder's side of MPA startup as a pure state machine (RFC 5044 §7.1.2 rule 2,
 * RFC 6581 §9, §10): validates the Request, then builds an accepting Reply (with the IRD/ORD and RTR
 * negotiation) or a rejecting one.
 *
 * <p>Usage: {@link #onRequest} once; then exactly one of {@link #accept} or {@link #reject}.
 */
public final class ResponderStartup {

    /**
     * The values a Responder accepts with (from its configuration or its user).
     *
     * @param irdLimit the largest IRD it may raise {@code ird} to, to match the Initiator's ORD (RFC 6581 §9.1);
     *                 -1: the configuration's {@code irdLimit}; {@code ird} itself: no raise
     */
    public record Acceptance(byte[] privateData, int ird, int ord, int irdLimit) {
        public Acceptance {
            privateData = privateData == null ? new byte[0] : privateData.clone();
        }

        /** With the configuration's IRD limit. */
        public Acceptance(byte[] privateData, int ird, int ord) {
            this(privateData, ird, ord, -1);
        }
    }

    /** An accepting Reply and the parameters it establishes. */
    public record Accepted(MpaFrame reply, MpaParameters parameters) {}

    private final MpaConfig config;
    private final int emss;
    private MpaFrame request;
    private boolean decided;

    /**
     * @param config the Responder's configuration
     * @param emss   effective MSS of the connection (for MULPDU)
     */
    public ResponderStartup(MpaConfig config, int emss) {
        this.config = config;
        this.emss = emss;
    }

    /**
     * Validates the peer's frame (expected: the Request).
     *
     * @throws MpaException {@link MpaError#INVALID_STARTUP_FRAME} for a Reply (Responder/Responder or a
     *                      confused peer) or a revision above the configured one (RFC 6581 §10: a Responder
     *                      that does not support the enhanced format treats it as badly formatted)
     */
    public void onRequest(MpaFrame frame) {
        if (request != null) {
            throw new IllegalStateException("the Request was already processed");
        }
        if (frame.type() != MpaFrameType.REQUEST) {
            throw new MpaException(MpaError.INVALID_STARTUP_FRAME,
                    "received an MPA Reply while waiting for the Request: both ends are Responders");
        }
        if (frame.revision() > config.revision()) {
            throw new MpaException(MpaError.INVALID_STARTUP_FRAME, "Request has Rev " + frame.revision()
                    + " but this Responder is configured for Rev " + config.revision() + " at most");
        }
        request = frame;
    }

    /** The validated Request. */
    public MpaFrame request() {
        return request;
    }

    /**
     * Whether the configuration asks to reject this Request because the Initiator's IRD is below the
     * ORD this Responder needs ({@link MpaConfig#requiredOrd()}, RFC 6581 §9.1).
     */
    public boolean insufficientInitiatorIrd() {
        EnhancedConnectionData q = request.enhancedData();
        return q != null && config.requiredOrd() > 0 && q.ird() != EnhancedConnectionData.NO_NEGOTIATION
                && q.ird() < config.requiredOrd();
    }

    /** The acceptance values of the configuration. */
    public Acceptance defaultAcceptance() {
        return new Acceptance(config.privateData(), config.ird(), config.ord());
    }

    /** Builds the accepting Reply (R=0) and the negotiated parameters. */
    public Accepted accept(Acceptance acceptance) {
        checkDecidable();
        EnhancedConnectionData q = request.enhancedData();
        int maxPd = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (q != null ? EnhancedConnectionData.LENGTH : 0);
        if (acceptance.privateData().length > maxPd) {
            throw new IllegalArgumentException("private data of " + acceptance.privateData().length
                    + " octets exceeds " + maxPd + " (RFC 5044 §7.1.1, RFC 6581 §7)");
        }
        checkValue("ird", acceptance.ird());
        checkValue("ord", acceptance.ord());
        decided = true;
        int irdLimit =
                Math.max(acceptance.irdLimit() >= 0 ? acceptance.irdLimit() : config.irdLimit(), acceptance.ird());
        int ird = acceptance.ird();
        int ord = acceptance.ord();
        Set<RtrType> flags = EnumSet.noneOf(RtrType.class);
        MpaFrame reply;
        boolean p2p = false;
        if (q != null) {
            p2p = q.peerToPeer();
            if (p2p) {
                flags = replyRtrFlags(q.rtrFlags());
            }
            // RFC 6581 §9.1: a Read RTR consumes an IRD slot, so the IRD is raised to at least 1.
            int minimumIrd = flags.contains(RtrType.READ) ? 1 : 0;
            int replyIrd = IrdOrd.responderReplyIrd(ird, irdLimit, q.ord(), minimumIrd);
            int replyOrd = IrdOrd.responderReplyOrd(ord, q.ird());
            int finalIrd = IrdOrd.responderFinalIrd(ird, irdLimit, q.ord(), minimumIrd);
            int finalOrd = IrdOrd.responderFinalOrd(ord, q.ird());
            // RFC 6581 §9.2: A echoes the Request; with A=0 the flags are sent as 0.
            EnhancedConnectionData data = EnhancedConnectionData.of(p2p, flags, replyIrd, replyOrd);
            reply = new MpaFrame(MpaFrameType.REPLY, config.markers(), replyCrc(), false, true, 0,
                    request.revision(), data, acceptance.privateData());
            ird = finalIrd;
            ord = finalOrd;
        } else {
            // RFC 6581 §10: an S=0 Request gets an unenhanced Reply (same revision).
            reply = new MpaFrame(MpaFrameType.REPLY, config.markers(), replyCrc(), false, false, 0,
                    request.revision(), null, acceptance.privateData());
        }
        boolean txMarkers = FramingNegotiation.senderInsertsMarkers(request);
        MpaParameters params = new MpaParameters(MpaRole.RESPONDER, request, reply,
                FramingNegotiation.crc(request, reply), txMarkers, FramingNegotiation.senderInsertsMarkers(reply), ird,
                ord, p2p ? flags : Set.of(), null, null, Mulpdu.of(emss, txMarkers), config.receiveUlpduLimit());
        return new Accepted(reply, params);
    }

    /**
     * The C bit of an accepting Reply. RFC 5044 §4.4: CRCs are on when either side asks, so a Request with
     * C=1 gets a Reply with C=1 whatever this side's preference: the Reply then says what will happen. A Linux
     * siw Initiator with {@code mpa_crc_required} refuses a C=0 Reply (REJECTED, interop/FINDINGS.md B2).
     */
    private boolean replyCrc() {
        return config.crc() || request.crc();
    }

    /**
     * Builds a rejecting Reply (R=1) with the given ULP private data (RFC 5044 §7.1.2 rule 2).
     *
     * @param neededOrd the ORD to put in an enhanced reject (RFC 6581 §9.1: the ORD the Responder
     *                  needs when rejecting for insufficient Initiator IRD), or -1 for the configured ORD
     */
    public MpaRejection reject(byte[] privateData, int neededOrd) {
        checkDecidable();
        EnhancedConnectionData q = request.enhancedData();
        byte[] pd = privateData == null ? new byte[0] : privateData;
        int maxPd = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (q != null ? EnhancedConnectionData.LENGTH : 0);
        if (pd.length > maxPd) {
            throw new IllegalArgumentException("private data of " + pd.length + " octets exceeds " + maxPd);
        }
        decided = true;
        MpaFrame reply;
        if (q != null) {
            // RFC 6581 §9.1: a reject whose ORD exceeds the Initiator's IRD says "your IRD is insufficient, I need
            // this ORD". A reject for any other reason (the application's) must not read as one, so its ORD is
            // capped at the Initiator's IRD (interop/FINDINGS.md B1).
            int ord = neededOrd >= 0 ? Math.min(neededOrd, EnhancedConnectionData.NO_NEGOTIATION)
                    : q.ird() == EnhancedConnectionData.NO_NEGOTIATION ? config.ord() : Math.min(config.ord(), q.ird());
            EnhancedConnectionData data = EnhancedConnectionData.of(q.peerToPeer(), EnumSet.noneOf(RtrType.class),
                    config.ird(), ord);
            reply = new MpaFrame(MpaFrameType.REPLY, config.markers(), config.crc(), true, true, 0,
                    request.revision(), data, pd);
        } else {
            reply = new MpaFrame(MpaFrameType.REPLY, config.markers(), config.crc(), true, false, 0,
                    request.revision(), null, pd);
        }
        return new MpaRejection(MpaRole.RESPONDER, false, request, reply,
                neededOrd >= 0 ? MpaError.INSUFFICIENT_IRD : null);
    }

    /**
     * RFC 6581 §9.2: set each offered type this Responder supports (or only the preferred one, by
     * policy); if none of the offered types is supported, set the most preferred supported type.
     */
    Set<RtrType> replyRtrFlags(Set<RtrType> offered) {
        EnumSet<RtrType> flags = EnumSet.noneOf(RtrType.class);
        for (RtrType t : config.rtrTypes()) {
            if (offered.contains(t)) {
                flags.add(t);
                if (config.rtrReplyPolicy() == RtrReplyPolicy.PREFERRED_ONLY) {
                    break;
                }
            }
        }
        if (flags.isEmpty()) {
            flags.add(config.rtrTypes().get(0));
        }
        return flags;
    }

    private void checkDecidable() {
        if (request == null) {
            throw new IllegalStateException("no Request yet");
        }
        if (decided) {
            throw new IllegalStateException("the Request was already accepted or rejected");
        }
    }

    private static void checkValue(String name, int v) {
        if (v < 0 || v > EnhancedConnectionData.NO_NEGOTIATION) {
            throw new IllegalArgumentException(name + " must be 0..0x3FFF: " + v);
        }
    }
}
