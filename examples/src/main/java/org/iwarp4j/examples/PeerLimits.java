package org.iwarp4j.examples;

import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicAttributes;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.TcpKeepalive;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Limits (docs/guide.md), the ones that keep peers and tools from sizing this side's memory: an RNIC and a
 * listener with small limits, a registration refused before it allocates, a connection beyond the listener's
 * limit rejected with the reason, the response timeout of a queue pair and TCP keepalive.
 */
public final class PeerLimits {

    /**
     * What was seen.
     *
     * @param limits              the server RNIC's limits
     * @param registrationRefusal the message of the refused registration
     * @param connectionRefusal   the private data of the rejecting MPA Reply the second client got
     * @param responseTimeout     the response timeout of the queue pair configured so
     * @param keepalive           the TCP keepalive the first client connected with
     */
    public record Observed(RnicAttributes limits, String registrationRefusal, String connectionRefusal,
                           Duration responseTimeout, Optional<TcpKeepalive> keepalive) {}

    private PeerLimits() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // tag::peer-limits[]
        RnicConfig config = RnicConfig.builder()
                .maxRegisteredBytes(64L << 20)    // 64 MiB registered at once
                .maxPostedReceives(4096)          // over all queue pairs and shared receive queues
                .maxStartupsInProgress(64)        // a 65th connection still in MPA startup is closed at once
                .maxInboundReadsAndAtomics(1024)  // the IRDs of all connections together
                .build();
        ListenOptions listenOptions = ListenOptions.builder().maxConnections(1).build(); // one client at a time
        // end::peer-limits[]
        try (Rnic serverRnic = Rnic.open(config); Rnic clientRnic = Rnic.open()) {
            ProtectionDomain pd = serverRnic.allocateProtectionDomain();
            CompletionQueue cq = serverRnic.createCompletionQueue(64);
            // tag::registration-refused[]
            String registrationRefusal = null;
            try {
                pd.allocateRegion(128 << 20); // refused before the 128 MiB are allocated
            } catch (VerbsException e) {
                registrationRefusal = e.getMessage(); // LIMIT_EXCEEDED: ... maxRegisteredBytes = 67108864 ...
            }
            // end::registration-refused[]
            QueuePair serverQp = pd.createQueuePair(cq);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, listenOptions,
                    request -> request.accept(serverQp).thenAccept(accepted::complete));

            ProtectionDomain clientPd = clientRnic.allocateProtectionDomain();
            CompletionQueue clientCq = clientRnic.createCompletionQueue(64);
            // tag::response-timeout[]
            // A Read or atomic whose peer then sends nothing for 10 s completes with RESPONSE_TIMEOUT, and the
            // connection closes (30 s by default; Duration.ZERO waits for ever).
            QueuePairConfig qpConfig = QueuePairConfig.builder(clientCq, clientCq)
                    .responseTimeout(Duration.ofSeconds(10)).build();
            // end::response-timeout[]
            QueuePair first = clientPd.createQueuePair(qpConfig);
            QueuePair second = clientPd.createQueuePair(qpConfig);
            // tag::keepalive[]
            // Off unless asked for: TCP probes a connection idle for 30 s every 5 s, and after 4 unanswered probes
            // (or sent octets unacknowledged for 20 s) fails it: DisconnectReason.TCP_TIMEOUT.
            ConnectOptions connectOptions = ConnectOptions.builder()
                    .keepalive(TcpKeepalive.of(Duration.ofSeconds(30), Duration.ofSeconds(5), 4)
                            .withUserTimeout(Duration.ofSeconds(20)))
                    .build();
            // end::keepalive[]
            Connection connection = clientRnic.connect(listener.localAddress(), first, connectOptions)
                    .get(10, TimeUnit.SECONDS);
            accepted.get(10, TimeUnit.SECONDS);
            // tag::connection-refused[]
            String connectionRefusal = null;
            try {
                clientRnic.connect(listener.localAddress(), second, ConnectOptions.defaults())
                        .get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ConnectionRejectedException r) {
                    // The MPA Reply said R=1; its private data, the reason: "iwarp4j: maxConnections = 1 reached"
                    connectionRefusal = new String(r.privateData(), StandardCharsets.US_ASCII);
                }
            }
            // end::connection-refused[]
            connection.disconnect().get(10, TimeUnit.SECONDS);
            return new Observed(serverRnic.query(), registrationRefusal, connectionRefusal,
                    first.config().responseTimeout(), connectOptions.keepalive());
        }
    }
}
