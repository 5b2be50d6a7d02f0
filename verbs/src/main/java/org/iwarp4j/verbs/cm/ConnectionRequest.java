package org.iwarp4j.verbs.cm;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.QueuePair;

import java.net.InetSocketAddress;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A valid MPA Request waiting for accept or reject (librdmacm's CONNECT_REQUEST with its {@code rdma_cm_id}).
 * Decide from any thread; a request not answered in time (4/5 of the MPA startup timeout) is rejected.
 */
public interface ConnectionRequest {

    /**
     * The Initiator's TCP address.
     *
     * @return the address
     */
    InetSocketAddress remoteAddress();

    /**
     * The listener's TCP address of this connection.
     *
     * @return the address
     */
    InetSocketAddress localAddress();

    /**
     * The Request's MPA revision.
     *
     * @return 1 or 2
     */
    int mpaRevision();

    /**
     * The Initiator's private data (ULP part, without the RFC 6581 block).
     *
     * @return a copy
     */
    byte[] privateData();

    /**
     * The Initiator's IRD.
     *
     * @return the IRD, empty without RFC 6581 enhanced data
     */
    OptionalInt ird();

    /**
     * The Initiator's ORD.
     *
     * @return the ORD, empty without enhanced data
     */
    OptionalInt ord();

    /**
     * Whether the Initiator asks for peer-to-peer mode (A=1).
     *
     * @return true in peer-to-peer mode
     */
    boolean peerToPeer();

    /**
     * RTR types offered.
     *
     * @return the offered types, empty unless peer-to-peer
     */
    Set<RtrType> offeredRtrTypes();

    /**
     * C=1 in the Request: CRCs will be on whatever we answer (RFC 5044 §4.4).
     *
     * @return the C bit
     */
    boolean crcRequested();

    /**
     * M=1 in the Request: we must insert markers.
     *
     * @return the M bit
     */
    boolean markersRequested();

    /**
     * {@code rdma_accept}: binds {@code queuePair} (IDLE, same RNIC; the receives posted to it are in place
     * before the Reply goes out) and sends the accepting Reply. In client-server mode this side's FPDUs are then
     * held until the Initiator's first ({@link Connection#sendsHeld()}): post Sends now if you like, they go
     * out once the client has sent.
     *
     * @param queuePair a fresh queue pair of the listener's RNIC
     * @param options   private data, IRD and ORD of the Reply
     * @return completes with the connection when the queue pair is in RTS
     */
    CompletableFuture<Connection> accept(QueuePair queuePair, AcceptOptions options);

    /**
     * {@code rdma_accept} with {@link AcceptOptions#defaults()}.
     *
     * @param queuePair a fresh queue pair of the listener's RNIC
     * @return completes with the connection when the queue pair is in RTS
     */
    default CompletableFuture<Connection> accept(QueuePair queuePair) {
        return accept(queuePair, AcceptOptions.defaults());
    }

    /**
     * {@code rdma_reject}: Reply with R=1 and {@code privateData}, then close.
     *
     * @param privateData the Reply's private data (may be empty)
     * @return completes when the Reply was written
     */
    CompletableFuture<Void> reject(byte[] privateData);
}
