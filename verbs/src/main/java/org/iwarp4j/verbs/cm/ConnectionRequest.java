package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/** A valid MPA Request waiting for accept or reject (librdmacm's CONNECT_REQUEST with its {@code rdma_cm_id}). */
public interface ConnectionRequest {

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /** The Request's MPA revision (1 or 2). */
    int mpaRevision();

    /** The Initiator's private data (ULP part, without the RFC 6581 block). */
    byte[] privateData();

    /** Initiator IRD, -1 without enhanced data. */
    int ird();

    /** Initiator ORD, -1 without enhanced data. */
    int ord();

    /** Whether the Initiator asks for peer-to-peer mode (A=1). */
    boolean peerToPeer();

    /** RTR types offered (empty unless peer-to-peer). */
    Set<RtrType> offeredRtrTypes();

    /** C=1 in the Request: CRCs will be on whatever we answer (RFC 5044 §4.4). */
    boolean crcRequested();

    /** M=1 in the Request: we must insert markers. */
    boolean markersRequested();

    /**
     * {@code rdma_accept}: binds {@code queuePair} (IDLE, same RNIC; its posted receives are in place
     * before the Reply goes out, siw-interop §B1) and sends the accepting Reply. Completes when the queue
     * pair is in RTS.
     */
    CompletionStage<Connection> accept(QueuePair queuePair, AcceptOptions options);

    /** {@code rdma_reject}: Reply with R=1 and {@code privateData}, then close. */
    CompletionStage<Void> reject(byte[] privateData);
}
