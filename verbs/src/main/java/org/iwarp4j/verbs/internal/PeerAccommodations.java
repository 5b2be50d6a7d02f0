package org.iwarp4j.verbs.internal;

import org.iwarp4j.ddp.header.DdpControl;
import org.iwarp4j.ddp.header.UntaggedHeaderFlyweight;
import org.iwarp4j.mpa.MpaException;
import org.iwarp4j.rdmap.terminate.TerminateLayout;
import org.iwarp4j.rdmap.wire.RdmapControl;
import org.iwarp4j.rdmap.wire.RdmapOpcode;
import org.iwarp4j.rdmap.wire.TerminateHeader;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.PeerProfile;

import java.time.Duration;
import java.util.Objects;

/**
 * What one connection does for a peer that departs from the RFCs (today: Linux siw), in one place instead of
 * branches in the connection's handler: the loop side of the public {@link PeerProfile} (whose FPDUs-behind-the-
 * Reply setting goes to MPA instead, {@code MpaConfigs}).
 *
 * @param firstFpduNudge                 Initiator: if the peer stays silent this long after our first FPDUs,
 *                                       send one zero-length RDMA Write ({@link Duration#ZERO}: never). A Linux
 *                                       siw Responder may leave an FPDU that arrived between its Reply and the
 *                                       switch of its socket to the queue pair unread until more octets arrive
 *                                       (interop/FINDINGS.md M15); a zero-length tagged segment is never checked
 *                                       and delivers nothing (RFC 5041 §5.2 [DDP-20], RFC 5040 §5.1).
 * @param acceptUnverifiedSetupTerminate take a first FPDU that failed its CRC with a zero CRC field and is a
 *                                       Terminate as the peer's Terminate: Linux siw sends its RFC 6581 setup
 *                                       Terminate without CRC although CRC was negotiated (interop/FINDINGS.md M17).
 * @param terminateLayout                how to read an ambiguous Terminate control word of the peer (siw
 *                                       mirrors it, interop/FINDINGS.md F1)
 */
record PeerAccommodations(Duration firstFpduNudge, boolean acceptUnverifiedSetupTerminate,
                          TerminateLayout terminateLayout) {

    PeerAccommodations {
        Objects.requireNonNull(firstFpduNudge, "firstFpduNudge");
        Objects.requireNonNull(terminateLayout, "terminateLayout");
    }

    /** An Initiator's: as its profile says. */
    static PeerAccommodations of(ConnectOptions options) {
        PeerProfile p = options.peerProfile();
        return new PeerAccommodations(p.firstFpduNudge(), p.acceptUnverifiedSetupTerminate(), layout(p));
    }

    /** A Responder's: never a nudge (the Initiator sends first, RFC 5044 §7.1.2 rule 4). */
    static PeerAccommodations of(ListenOptions options) {
        PeerProfile p = options.peerProfile();
        return new PeerAccommodations(Duration.ZERO, p.acceptUnverifiedSetupTerminate(), layout(p));
    }

    private static TerminateLayout layout(PeerProfile p) {
        return p.terminateControlLayout() == PeerProfile.TerminateControlLayout.LINUX_SIW_MIRRORED
                ? TerminateLayout.SIW_MIRRORED : TerminateLayout.RFC;
    }

    boolean nudges() {
        return !firstFpduNudge.isZero();
    }

    /**
     * Whether the peer's first FPDU {@code f}, which failed its CRC check, is taken as the peer's Terminate:
     * its CRC field is zero and it is a Terminate (untagged, RDMAP opcode 7, RFC 5040 §4.8). Nothing else is
     * accepted unverified, and a Terminate only ever ends the stream (RFC 5040 §5.4): the connection goes down
     * either way, now with the reason the peer gave.
     */
    boolean takesAsSetupTerminate(MpaException.UnverifiedFpdu f) {
        if (!acceptUnverifiedSetupTerminate || f == null || f.crcField() != 0) {
            return false;
        }
        byte[] u = f.ulpdu();
        // An untagged DDP header and the Terminate control word, at least.
        return u.length >= UntaggedHeaderFlyweight.HEADER_LENGTH + TerminateHeader.CONTROL_LENGTH
                && !DdpControl.isTagged(u[0]) && RdmapControl.opcodeCode(u[1]) == RdmapOpcode.TERMINATE.code();
    }
}
