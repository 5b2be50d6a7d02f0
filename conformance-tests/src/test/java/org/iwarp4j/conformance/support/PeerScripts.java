package org.iwarp4j.conformance.support;

import org.iwarp4j.oracle.DecodedFpdu;
import org.iwarp4j.testkit.peer.ScriptedPeer;
import org.iwarp4j.oracle.StartupFrame;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** Scripted-peer openings shared by the RDMAP conformance tests (MPA Rev 2 with the enhanced block, CRC). */
public final class PeerScripts {

    private PeerScripts() {}

    /** A client-server enhanced block (A=0, no RTR flags). */
    public static StartupFrame.Enhanced block(int ird, int ord) {
        return new StartupFrame.Enhanced(false, false, ird, false, false, ord);
    }

    /**
     * A peer that connects to the stack's listener at {@code address} as a Linux-siw-like Initiator (Rev 2,
     * S=1, IRD/ORD, C=1) and expects an accepting Reply; afterwards it is in Full Operation with CRCs.
     */
    public static ScriptedPeer initiator(InetSocketAddress address, int ird, int ord) {
        ScriptedPeer peer = ScriptedPeer.client(address).stepTimeout(VerbsStack.WAIT);
        peer.sendMpaFrame(StartupFrame.request().crc(true).enhanced(block(ird, ord)))
                .expectMpaReply().withRejected(false).withCrc(true);
        return peer;
    }

    /** A peer that accepts the stack's connection with an enhanced Reply (C=1, IRD/ORD). */
    public static ScriptedPeer responder(int ird, int ord) {
        ScriptedPeer peer = ScriptedPeer.server().stepTimeout(VerbsStack.WAIT);
        peer.expectMpaRequest().respond(StartupFrame.reply().crc(true).enhanced(block(ird, ord)));
        return peer;
    }

    /** Several ULPDUs framed (CRC on, no markers) back to back: one write, so normally one read at the stack. */
    public static byte[] fpdus(byte[]... ulpdus) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] u : ulpdus) {
            out.writeBytes(Codec.frame(true, false, 0, u));
        }
        return out.toByteArray();
    }

    /** Expects the next FPDU and returns (bounded wait) its ULPDU. */
    public static CompletableFuture<DecodedFpdu> expectAny(ScriptedPeer peer) {
        return peer.expectFpdu().received();
    }
}
