package org.iwarp4j.mpa;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;

import java.util.EnumSet;
import java.util.Set;

/**
 * The negotiated result of a successful MPA startup, handed to the layer above (RFC 5044 §3: MPA
 * reports MULPDU and the revision to DDP; RFC 6581 §9.1: both sides pass the peer's IRD/ORD up).
 * Immutable.
 *
 * @param role              this endpoint's role
 * @param request           the MPA Request as sent/received
 * @param reply             the MPA Reply as sent/received (R=0)
 * @param crc               CRCs generated and checked in both directions (C=1 in either frame, RFC 5044 §4.4)
 * @param txMarkers         this endpoint inserts markers in what it sends (the peer's frame had M=1)
 * @param rxMarkers         the peer inserts markers (this endpoint's frame had M=1)
 * @param ird               final IRD to use (RFC 6581 §9.1; with Rev 1, the configured value)
 * @param ord               final ORD to use
 * @param rtrTypes          peer-to-peer only: RTR types both sides accept (empty in client-server mode)
 * @param rtr               Initiator in peer-to-peer mode: the RTR type it MUST send as its first FPDU
 *                          (RFC 6581 §9.3); {@code null} otherwise
 * @param requiredTerminate Initiator only: when non-null the Initiator MUST send a Terminate with
 *                          Layer 2 / EType 0 / this code as its first FPDU and then end the connection
 *                          ({@link MpaError#INSUFFICIENT_IRD}, RFC 6581 §9.1; or
 *                          {@link MpaError#NO_MATCHING_RTR}, RFC 6581 §9.2–9.3)
 * @param mulpdu            MULPDU for what this endpoint sends (RFC 5044 §4.5, clamped 128…64768)
 * @param receiveUlpduLimit largest ULPDU_Length the receiver accepts
 */
public record MpaParameters(MpaRole role, MpaFrame request, MpaFrame reply, boolean crc, boolean txMarkers,
                            boolean rxMarkers, int ird, int ord, Set<RtrType> rtrTypes, RtrType rtr,
                            MpaError requiredTerminate, int mulpdu, int receiveUlpduLimit)
        implements StartupOutcome {

    public MpaParameters {
        rtrTypes = rtrTypes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rtrTypes));
    }

    /** Negotiated MPA revision (the Reply's Rev; RFC 5044 §3 MPA-08). */
    public int revision() {
        return reply.revision();
    }

    /** Whether RFC 6581 enhanced data was exchanged (S=1 in both frames). */
    public boolean enhanced() {
        return reply.enhancedData() != null && request.enhancedData() != null;
    }

    /** Peer-to-peer (RTR) mode: A=1 in both frames (RFC 6581 §9.2). */
    public boolean peerToPeer() {
        return enhanced() && request.enhancedData().peerToPeer() && reply.enhancedData().peerToPeer();
    }

    /** The frame this endpoint sent. */
    public MpaFrame localFrame() {
        return role == MpaRole.INITIATOR ? request : reply;
    }

    /** The frame the peer sent. */
    public MpaFrame peerFrame() {
        return role == MpaRole.INITIATOR ? reply : request;
    }

    /** ULP private data this endpoint sent. */
    public byte[] localPrivateData() {
        return localFrame().privateData();
    }

    /** ULP private data the peer sent (without the enhanced data). */
    public byte[] peerPrivateData() {
        return peerFrame().privateData();
    }

    /** IRD this endpoint advertised (-1 without enhanced data). */
    public int localIrd() {
        EnhancedConnectionData d = localFrame().enhancedData();
        return d == null ? -1 : d.ird();
    }

    /** ORD this endpoint advertised (-1 without enhanced data). */
    public int localOrd() {
        EnhancedConnectionData d = localFrame().enhancedData();
        return d == null ? -1 : d.ord();
    }

    /** IRD the peer advertised (-1 without enhanced data). */
    public int peerIrd() {
        EnhancedConnectionData d = peerFrame().enhancedData();
        return d == null ? -1 : d.ird();
    }

    /** ORD the peer advertised (-1 without enhanced data). */
    public int peerOrd() {
        EnhancedConnectionData d = peerFrame().enhancedData();
        return d == null ? -1 : d.ord();
    }

    /**
     * Octets this endpoint sent before Full Operation (its frame); the first FPDU octet it sends is
     * SeqStart of its half connection (RFC 5044 §4.3), stream offset 0.
     */
    public int txSeqStartOffset() {
        return localFrame().length();
    }

    @Override
    public String toString() {
        return "MpaParameters[" + role + " rev=" + revision() + (enhanced() ? " enhanced" : "") + " crc=" + crc
                + " markers tx=" + txMarkers + " rx=" + rxMarkers + " ird=" + ird + " ord=" + ord
                + (peerToPeer() ? " p2p rtrTypes=" + rtrTypes + " rtr=" + rtr : "")
                + (requiredTerminate != null ? " requiredTerminate=" + requiredTerminate : "")
                + " mulpdu=" + mulpdu + " rxLimit=" + receiveUlpduLimit + "]";
    }
}
