package org.iwarp4j.verbs.cm;

import org.iwarp4j.mpa.MpaParameters;
import org.iwarp4j.common.RtrType;

/**
 * What MPA negotiated for a connection (RFC 5044 §7.1, RFC 6581), as the tools show it.
 *
 * @param mpaRevision      the revision of the Reply
 * @param crc              CRC32c in both directions
 * @param txMarkers        we insert markers in what we send
 * @param rxMarkers        the peer inserts markers
 * @param ird              inbound Read/Atomic depth in force
 * @param ord              outbound depth in force
 * @param peerToPeer       RFC 6581 peer-to-peer mode (an RTR was exchanged)
 * @param rtr              the RTR type sent (initiator) in peer-to-peer mode, else {@code null}
 * @param mulpdu           largest ULPDU we send (one FPDU ≤ one MSS)
 * @param localPrivateData private data we sent (ULP part)
 * @param peerPrivateData  private data the peer sent (ULP part)
 * @param mpa              everything MPA knows (both frames, as sent and received)
 */
public record ConnectionParameters(int mpaRevision, boolean crc, boolean txMarkers, boolean rxMarkers, int ird,
                                   int ord, boolean peerToPeer, RtrType rtr, int mulpdu, byte[] localPrivateData,
                                   byte[] peerPrivateData, MpaParameters mpa) {

    public static ConnectionParameters of(MpaParameters p) {
        return new ConnectionParameters(p.revision(), p.crc(), p.txMarkers(), p.rxMarkers(), p.ird(), p.ord(),
                p.peerToPeer(), p.rtr(), p.mulpdu(), p.localPrivateData(), p.peerPrivateData(), p);
    }
}
