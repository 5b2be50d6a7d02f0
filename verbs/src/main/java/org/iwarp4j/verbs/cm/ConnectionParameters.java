package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.RtrType;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What MPA negotiated for a connection (RFC 5044 §7.1, RFC 6581).
 *
 * @param mpaRevision      the revision of the Reply
 * @param crc              CRC32c in both directions
 * @param txMarkers        we insert markers in what we send
 * @param rxMarkers        the peer inserts markers
 * @param ird              inbound Read/Atomic depth in force
 * @param ord              outbound depth in force
 * @param peerIrd          the IRD the peer advertised (empty without RFC 6581 enhanced data)
 * @param peerOrd          the ORD the peer advertised (empty without enhanced data)
 * @param peerToPeer       RFC 6581 peer-to-peer mode
 * @param rtr              the RTR type the Initiator sent in peer-to-peer mode
 * @param mulpdu           largest ULPDU we send (one FPDU ≤ one MSS)
 * @param localPrivateData private data we sent (ULP part)
 * @param peerPrivateData  private data the peer sent (ULP part)
 */
public record ConnectionParameters(int mpaRevision, boolean crc, boolean txMarkers, boolean rxMarkers, int ird,
                                   int ord, OptionalInt peerIrd, OptionalInt peerOrd, boolean peerToPeer,
                                   Optional<RtrType> rtr, int mulpdu, byte[] localPrivateData,
                                   byte[] peerPrivateData) {

    /** Copies the private data. */
    public ConnectionParameters {
        Objects.requireNonNull(peerIrd, "peerIrd");
        Objects.requireNonNull(peerOrd, "peerOrd");
        Objects.requireNonNull(rtr, "rtr");
        localPrivateData = localPrivateData.clone();
        peerPrivateData = peerPrivateData.clone();
    }

    /**
     * Our private data.
     *
     * @return a copy
     */
    @Override
    public byte[] localPrivateData() {
        return localPrivateData.clone();
    }

    /**
     * The peer's private data.
     *
     * @return a copy
     */
    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** E.g. {@code MPA rev 2, CRC on, markers off/off, IRD 1, ORD 1, client-server, MULPDU 1454}. */
    @Override
    public String toString() {
        return "MPA rev " + mpaRevision + ", CRC " + (crc ? "on" : "off") + ", markers " + (txMarkers ? "on" : "off")
                + "/" + (rxMarkers ? "on" : "off") + ", IRD " + ird + ", ORD " + ord + ", "
                + (peerToPeer ? "peer-to-peer" + rtr.map(r -> ", RTR " + r).orElse("") : "client-server")
                + ", MULPDU " + mulpdu;
    }
}
