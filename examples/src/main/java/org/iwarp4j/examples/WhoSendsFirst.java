package org.iwarp4j.examples;

import org.iwarp4j.common.RtrType;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Who sends first (docs/guide.md): the server posts a Send the moment it has accepted. In client-server mode
 * (the default) MPA holds it until the client's first FPDU has arrived (RFC 5044 §7.1.2 rule 4); in
 * peer-to-peer mode (RFC 6581) the client's RTR releases it at once.
 *
 * <p>{@code java org.iwarp4j.examples.WhoSendsFirst [p2p]}
 */
public final class WhoSendsFirst {

    /** How long the client waits for the server's Send before it sends anything itself. */
    public static final Duration PATIENCE = Duration.ofSeconds(1);

    /**
     * What happened.
     *
     * @param peerToPeer           the mode MPA negotiated
     * @param rtr                  the RTR the client sent first in peer-to-peer mode
     * @param heldAfterAccept      {@code sendsHeld()} of the server's connection right after accept
     * @param arrivedBeforeClient  whether the server's Send reached the client before the client sent anything
     * @param received             the server's message as the client received it
     * @param heldAtEnd            {@code sendsHeld()} of the server's connection at the end
     */
    public record Observed(boolean peerToPeer, Optional<RtrType> rtr, boolean heldAfterAccept,
                           boolean arrivedBeforeClient, String received, boolean heldAtEnd) {}

    private WhoSendsFirst() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run(args.length > 0 && args[0].equals("p2p")));
    }

    /**
     * Connects, lets the server send first and sees when its Send arrives.
     *
     * @param peerToPeer ask for RFC 6581 peer-to-peer mode
     * @return what happened
     * @throws Exception if the connection fails
     */
    public static Observed run(boolean peerToPeer) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        byte[] text = "the server speaks".getBytes(StandardCharsets.UTF_8);
        try (Rnic serverRnic = Rnic.open(); Rnic clientRnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion greeting = serverPd.allocateRegion(64);
            greeting.buffer().put(text);
            serverQp.postReceive(ReceiveWorkRequest.of(1, serverPd.allocateRegion(64, Access.LOCAL_WRITE)));
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(),
                    request -> request.accept(serverQp).thenAccept(accepted::complete));

            ProtectionDomain pd = clientRnic.allocateProtectionDomain();
            CompletionQueue sendCq = clientRnic.createCompletionQueue(16);
            CompletionQueue recvCq = clientRnic.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).build());
            MemoryRegion inbox = pd.allocateRegion(64, Access.LOCAL_WRITE);
            qp.postReceive(ReceiveWorkRequest.of(1, inbox));

            // tag::peer-to-peer[]
            ConnectOptions options = peerToPeer
                    // RFC 6581: the client's first FPDU is a zero-length RDMA Write, the RTR ("ready to receive")
                    ? ConnectOptions.builder().mpa(mpa -> mpa.peerToPeer(RtrType.WRITE)).build()
                    : ConnectOptions.defaults();
            // end::peer-to-peer[]
            Connection client = clientRnic.connect(listener.localAddress(), qp, options).get(10, TimeUnit.SECONDS);
            Connection server = accepted.get(10, TimeUnit.SECONDS);

            // tag::server-first[]
            // Server: in client-server mode this side sends no FPDU before the client's first has arrived.
            boolean held = server.sendsHeld();
            server.queuePair().postSend(Send.of(1, greeting.sge(0, text.length))); // accepted, but waits
            // end::server-first[]

            // tag::client-speaks[]
            // Client: the server's Send comes only once the client has sent something (or sent the RTR).
            Optional<WorkCompletion> early = recvCq.take(PATIENCE);
            if (early.isEmpty()) {
                qp.postSend(Send.inline(2, StandardCharsets.UTF_8.encode("go ahead")));
            }
            WorkCompletion received = early.isPresent() ? early.get()
                    : recvCq.take(Duration.ofSeconds(10)).orElseThrow(() -> new TimeoutException("still held"));
            // end::client-speaks[]
            byte[] message = new byte[(int) received.byteLength()];
            inbox.buffer().get(message);
            return new Observed(client.parameters().peerToPeer(), client.parameters().rtr(), held, early.isPresent(),
                    new String(message, StandardCharsets.UTF_8), server.sendsHeld());
        }
    }
}
