package org.iwarp4j.verbs.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import org.iwarp4j.common.RtrType;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.netty.MpaConnectRequest;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionFailedException;
import org.iwarp4j.verbs.cm.ConnectionRequest;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** A valid MPA Request waiting for the application: accept binds a queue pair, reject answers R=1. */
final class ConnectionRequestImpl implements ConnectionRequest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ConnectionRequestImpl.class);

    /** The connection as its request sees it: it binds the accepting queue pair. */
    interface Connecting extends ConnectionControl {
        /** On the loop, before MPA accepts: the queue pair that will run the connection, and its future. */
        void accepting(QueuePairImpl qp, CompletableFuture<Connection> result);
    }

    private final Connecting connection;
    private final MpaConnectRequest mpa;
    private final Channel channel;
    private final ListenerImpl listener;
    private final AtomicBoolean decided = new AtomicBoolean();
    /** The Initiator closed or reset the connection while the request waited for a decision. */
    private volatile boolean gone;

    private static final String GONE = "the client closed the connection (FIN or RST) before this request was "
            + "accepted or rejected";

    ConnectionRequestImpl(Connecting connection, MpaConnectRequest mpa, Channel channel, ListenerImpl listener) {
        this.connection = connection;
        this.mpa = mpa;
        this.channel = channel;
        this.listener = listener;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public int mpaRevision() {
        return mpa.revision();
    }

    @Override
    public byte[] privateData() {
        return mpa.privateData();
    }

    @Override
    public OptionalInt ird() {
        return MpaConfigs.depth(mpa.initiatorIrd());
    }

    @Override
    public OptionalInt ord() {
        return MpaConfigs.depth(mpa.initiatorOrd());
    }

    @Override
    public boolean peerToPeer() {
        return mpa.peerToPeer();
    }

    @Override
    public Set<RtrType> offeredRtrTypes() {
        return mpa.offeredRtrTypes();
    }

    @Override
    public boolean crcRequested() {
        return mpa.request().crc();
    }

    @Override
    public boolean markersRequested() {
        return mpa.request().markers();
    }

    @Override
    public CompletableFuture<Connection> accept(QueuePair queuePair, AcceptOptions options) {
        Objects.requireNonNull(options, "options");
        LoopSafeFuture<Connection> result = new LoopSafeFuture<>();
        if (!(queuePair instanceof QueuePairImpl qp) || qp.rnic() != listener.rnic()) {
            result.completeExceptionally(new IllegalArgumentException("the queue pair belongs to another RNIC"));
            return result;
        }
        byte[] data = options.privateData();
        int max = MpaFrame.MAX_PRIVATE_DATA_LENGTH - (mpa.revision() >= 2 ? EnhancedConnectionData.LENGTH : 0);
        try {
            if (data.length > max) {
                throw new IllegalArgumentException("private data of " + data.length + " octets exceeds the " + max
                        + " a Reply to a revision " + mpa.revision()
                        + " Request can carry (RFC 5044 §7.1.1, RFC 6581 §7)");
            }
            listener.options().peerProfile().checkPrivateData(data, mpa.revision());
        } catch (IllegalArgumentException e) {
            result.completeExceptionally(e);
            return result;
        }
        if (!decided.compareAndSet(false, true)) {
            result.completeExceptionally(alreadyDecided());
            return result;
        }
        int ird = options.ird().orElse(qp.config().ird());
        int ord = options.ord().orElse(qp.config().ord());
        // RFC 6581 §9.1: the Responder may raise its IRD to the Initiator's ORD; an explicit IRD is answered as is.
        int wanted = options.ird().isPresent() ? ird : Math.max(ird, listener.rnic().config().maxIrdOrd());
        // Before the Reply: the IRD from the RNIC's, and of the raise as much as is free.
        Reservation irds = listener.rnic().reserveIrd(ird, wanted);
        if (irds == null) {
            ResourceLimit limit = listener.rnic().inboundReadsAndAtomics();
            String reason = "iwarp4j: " + limit.reached();
            LOG.warn("{}: MPA Request refused with R=1: {} (RnicConfig)", channel, reason);
            result.completeExceptionally(limit.refusal(null, "accepting with IRD " + ird));
            refuse(reason.getBytes(StandardCharsets.US_ASCII));
            return result;
        }
        if (!qp.claim()) {
            irds.release();
            decided.set(false);
            result.completeExceptionally(new IllegalStateException("queue pair " + qp.number() + " is " + qp.state()
                    + " or already connecting; accept needs a fresh IDLE queue pair"));
            return result;
        }
        int irdLimit = Math.max(ird, (int) irds.held());
        qp.irdReservation(irds);
        channel.closeFuture().addListener(f -> irds.release());
        qp.bind(channel.eventLoop(), connection);
        channel.eventLoop().execute(() -> {
            connection.accepting(qp, result);
            mpa.accept(data, ird, ord, irdLimit).addListener(f -> {
                if (!f.isSuccess()) {
                    qp.stateError();
                    // A client that left while the decision was made is no failure of the accept itself.
                    String why = gone || !channel.isActive() ? GONE : "accept failed: " + f.cause();
                    result.completeExceptionally(new ConnectionFailedException(
                            ConnectionFailedException.Kind.CONNECT_ERROR, why, f.cause()));
                    channel.close();
                }
            });
        });
        return result;
    }

    @Override
    public CompletableFuture<Void> reject(byte[] privateData) {
        LoopSafeFuture<Void> result = new LoopSafeFuture<>();
        if (!decided.compareAndSet(false, true)) {
            result.completeExceptionally(alreadyDecided());
            return result;
        }
        return refuse(privateData == null ? new byte[0] : privateData.clone());
    }

    /** The decision is made: reject with {@code data}, then close. */
    private CompletableFuture<Void> refuse(byte[] data) {
        LoopSafeFuture<Void> result = new LoopSafeFuture<>();
        mpa.reject(data).addListener((ChannelFutureListener) f -> {
            // RFC 5044 §7.1.2: MPA leaves TCP open after a reject; the connection manager closes it.
            f.channel().close();
            if (f.isSuccess()) {
                result.complete(null);
            } else {
                result.completeExceptionally(f.cause());
            }
        });
        return result;
    }

    /** The decision timer ran out: reject with no private data. */
    void rejectUnanswered() {
        if (!decided.get()) {
            reject(new byte[0]);
        }
    }

    /** Not yet accepted or rejected, and the connection still there. */
    boolean isPending() {
        return !decided.get();
    }

    void connectionClosed() {
        gone = true;
        decided.set(true);
    }

    /** Why a second decision fails: the client left (issue 13: not "already accepted"), or one was made. */
    private Exception alreadyDecided() {
        return gone ? new ConnectionFailedException(ConnectionFailedException.Kind.CONNECT_ERROR, GONE, null)
                : new IllegalStateException("this request was already accepted or rejected");
    }
}
