package org.iwarp4j.verbs.cm;

import java.time.Duration;
import java.util.Objects;

/**
 * What this side tolerates and does for a particular kind of peer: every accommodation of another stack's
 * behaviour in one place, chosen per connection ({@link ConnectOptions#peerProfile()},
 * {@link ListenOptions#peerProfile()}). {@link #RFC_STRICT}, the default, holds peers to the RFCs;
 * {@link #LINUX_SIW} accepts what Linux soft-iWARP (siw) is known to do.
 *
 * @param name                           for logs
 * @param acceptFpdusBehindReply         Initiator: keep and read FPDUs that arrive together with the accepting
 *                                       MPA Reply (in the same read from TCP). RFC 5044 §7.1.2 rule 4 forbids a
 *                                       Responder to send before it received the Initiator's first FPDU; strict,
 *                                       such octets fail the startup (PD_Length mismatch, RFC 5044 §7.1.1). An
 *                                       FPDU the Responder sends later, but still before ours, is read either way:
 *                                       MPA cannot tell it from one sent after ours. Linux siw's Responder sends
 *                                       as soon as its application does.
 * @param firstFpduNudge                 Initiator: if nothing at all arrives from the Responder within this time
 *                                       after our first FPDU went out, send one zero-length RDMA Write (STag 1,
 *                                       TO 0), at most once. RFC 5041 §5.2 forbids checking a zero-length tagged
 *                                       segment and RFC 5040 §5.1 delivers nothing for a Write, so this is a
 *                                       no-op at every conforming peer; at a Linux siw Responder it releases a
 *                                       first FPDU that siw's accept race left unread in its socket.
 *                                       {@link Duration#ZERO}: off.
 * @param acceptUnverifiedSetupTerminate take a first FPDU that failed its CRC, whose CRC field is zero and
 *                                       which is a Terminate, as the peer's Terminate instead of answering with a
 *                                       CRC-error Terminate: Linux siw sends its RFC 6581 setup Terminates
 *                                       without CRC. Either way the connection ends; this keeps the peer's reason.
 * @param terminateControlLayout         how to read a Terminate control word that is ambiguous: Linux siw on a
 *                                       little-endian host sends it bit-mirrored within its octets
 * @param maxPdLength                    the largest PD_Length (private data, with the 4-octet RFC 6581 block in
 *                                       revision 2) the peer takes: 512 by RFC 5044 §7.1.1; Linux siw drops a
 *                                       connection above 256. Connect and accept refuse more at once, with an error
 *                                       that says so, instead of a peer that silently drops the connection.
 */
public record PeerProfile(String name, boolean acceptFpdusBehindReply, Duration firstFpduNudge,
                          boolean acceptUnverifiedSetupTerminate, TerminateControlLayout terminateControlLayout,
                          int maxPdLength) {

    /** How the first word of a received Terminate is laid out. */
    public enum TerminateControlLayout {
        /** RFC 5040 §4.8: octet 0 = Layer &lt;&lt; 4 | EType; M, D, R the top bits of octet 2. */
        RFC_5040,
        /** Linux siw on little-endian hosts: octet 0 = EType &lt;&lt; 4 | Layer; R, D, M the low bits of octet 2. */
        LINUX_SIW_MIRRORED
    }

    /** The RFCs to the letter: no accommodation. */
    public static final PeerProfile RFC_STRICT = new PeerProfile("rfc-strict", false, Duration.ZERO, false,
            TerminateControlLayout.RFC_5040, 512);

    /** Linux soft-iWARP (siw), as measured against the kernel module: every accommodation on. */
    public static final PeerProfile LINUX_SIW = new PeerProfile("linux-siw", true, Duration.ofMillis(500), true,
            TerminateControlLayout.LINUX_SIW_MIRRORED, 256);

    /** Checks the components. */
    public PeerProfile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(firstFpduNudge, "firstFpduNudge (Duration.ZERO = off)");
        Objects.requireNonNull(terminateControlLayout, "terminateControlLayout");
        if (firstFpduNudge.isNegative()) {
            throw new IllegalArgumentException("firstFpduNudge must not be negative: " + firstFpduNudge);
        }
        if (maxPdLength < 0 || maxPdLength > 512) {
            throw new IllegalArgumentException("maxPdLength must be 0..512 (RFC 5044 §7.1.1): " + maxPdLength);
        }
    }

    /**
     * This profile accepting (or refusing) FPDUs behind the MPA Reply.
     *
     * @param accept whether to keep and read them
     * @return a copy
     */
    public PeerProfile withAcceptFpdusBehindReply(boolean accept) {
        return new PeerProfile(name, accept, firstFpduNudge, acceptUnverifiedSetupTerminate, terminateControlLayout,
                maxPdLength);
    }

    /**
     * This profile taking (or not) a CRC-less setup Terminate for the peer's Terminate.
     *
     * @param accept whether to accept it
     * @return a copy
     */
    public PeerProfile withAcceptUnverifiedSetupTerminate(boolean accept) {
        return new PeerProfile(name, acceptFpdusBehindReply, firstFpduNudge, accept, terminateControlLayout,
                maxPdLength);
    }

    /**
     * This profile reading ambiguous Terminate control words in another layout.
     *
     * @param layout the layout preferred
     * @return a copy
     */
    public PeerProfile withTerminateControlLayout(TerminateControlLayout layout) {
        return new PeerProfile(name, acceptFpdusBehindReply, firstFpduNudge, acceptUnverifiedSetupTerminate, layout,
                maxPdLength);
    }

    /**
     * This profile with another PD_Length limit.
     *
     * @param limit the largest PD_Length the peer takes, at most 512
     * @return a copy
     */
    public PeerProfile withMaxPdLength(int limit) {
        return new PeerProfile(name, acceptFpdusBehindReply, firstFpduNudge, acceptUnverifiedSetupTerminate,
                terminateControlLayout, limit);
    }

    /**
     * Checks private data against this profile's limit.
     *
     * @param privateData the ULP private data
     * @param revision    the MPA revision (2 adds the 4-octet enhanced block)
     * @throws IllegalArgumentException if the PD_Length would exceed {@link #maxPdLength()}
     */
    public void checkPrivateData(byte[] privateData, int revision) {
        int pdLength = privateData.length + (revision >= 2 ? PrivateData.ENHANCED_DATA_LENGTH : 0);
        if (pdLength > maxPdLength) {
            throw new IllegalArgumentException("private data of " + privateData.length + " octets makes PD_Length "
                    + pdLength + ", above the " + maxPdLength + " the peer takes (PeerProfile " + name + ")");
        }
    }

    /**
     * This profile under another name (for logs).
     *
     * @param newName the name
     * @return a copy
     */
    public PeerProfile withName(String newName) {
        return new PeerProfile(newName, acceptFpdusBehindReply, firstFpduNudge, acceptUnverifiedSetupTerminate,
                terminateControlLayout, maxPdLength);
    }

    /**
     * This profile with another first-FPDU nudge.
     *
     * @param nudge the delay, {@link Duration#ZERO} for none
     * @return a copy
     */
    public PeerProfile withFirstFpduNudge(Duration nudge) {
        return new PeerProfile(name, acceptFpdusBehindReply, nudge, acceptUnverifiedSetupTerminate,
                terminateControlLayout, maxPdLength);
    }
}
