package org.iwarp4j.mpa.netty;

import io.netty.channel.ChannelFuture;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;

import java.util.Set;

/**
 * A valid MPA Request waiting for the Responder's user (the connection manager) to decide, fired as a
 * user event by a Responder's {@link MpaStartupHandler} when {@code autoAccept} is off (RFC 5044
 * §7.1.2 rule 6: the ULP may inspect the private data; RFC 6581 §9.1: the peer's IRD/ORD are passed
 * up). Call exactly one of the {@code accept}/{@code reject} methods, from any thread, before the
 * startup timeout; a late or second call returns a failed future.
 */
public final class MpaConnectRequest {

    private final MpaStartupHandler handler;
    private final MpaFrame request;

    MpaConnectRequest(MpaStartupHandler handler, MpaFrame request) {
        this.handler = handler;
        this.request = request;
    }

    /** The Request as received. */
    public MpaFrame request() {
        return request;
    }

    /** The Initiator's ULP private data (without the enhanced data). */
    public byte[] privateData() {
        return request.privateData();
    }

    /** The Request's revision. */
    public int revision() {
        return request.revision();
    }

    /** Initiator IRD, or -1 without enhanced data. */
    public int initiatorIrd() {
        EnhancedConnectionData d = request.enhancedData();
        return d == null ? -1 : d.ird();
    }

    /** Initiator ORD, or -1 without enhanced data. */
    public int initiatorOrd() {
        EnhancedConnectionData d = request.enhancedData();
        return d == null ? -1 : d.ord();
    }

    /** Whether the Initiator asks for peer-to-peer mode (A=1). */
    public boolean peerToPeer() {
        EnhancedConnectionData d = request.enhancedData();
        return d != null && d.peerToPeer();
    }

    /** RTR types the Initiator offers (empty unless peer-to-peer). */
    public Set<RtrType> offeredRtrTypes() {
        EnhancedConnectionData d = request.enhancedData();
        return d == null ? Set.of() : d.rtrTypes();
    }

    /** Accepts with the configured private data, IRD and ORD. */
    public ChannelFuture accept() {
        return handler.acceptFromUser(null, -1, -1, -1);
    }

    /** Accepts with the given ULP private data and the configured IRD and ORD. */
    public ChannelFuture accept(byte[] privateData) {
        return handler.acceptFromUser(privateData, -1, -1, -1);
    }

    /**
     * Accepts with the given private data, IRD and ORD (RFC 6581 §9.1 rules still apply: the ORD
     * sent is at most the Initiator's IRD).
     *
     * @return completes when the Reply was written
     */
    public ChannelFuture accept(byte[] privateData, int ird, int ord) {
        return handler.acceptFromUser(privateData, ird, ord, -1);
    }

    /**
     * Accepts with the given private data, IRD and ORD, raising the IRD at most to {@code irdLimit} to match the
     * Initiator's ORD (RFC 6581 §9.1); {@code irdLimit == ird}: exactly this IRD.
     *
     * @return completes when the Reply was written
     */
    public ChannelFuture accept(byte[] privateData, int ird, int ord, int irdLimit) {
        return handler.acceptFromUser(privateData, ird, ord, irdLimit);
    }

    /**
     * Rejects with a Reply with R=1 carrying {@code privateData} (RFC 5044 §7.1.2 rule 2). The TCP
     * connection stays open; close it when the returned future completes.
     */
    public ChannelFuture reject(byte[] privateData) {
        return handler.rejectFromUser(privateData);
    }

    @Override
    public String toString() {
        return "MpaConnectRequest[" + request + "]";
    }
}
