package org.iwarp4j.examples;

import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairAttributes;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicAttributes;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Limits (docs/guide.md): what an RNIC allows ({@code ibv_query_device}), what a queue pair was given and
 * negotiated ({@code ibv_query_qp}), and the refusal of a request above a limit.
 */
public final class Limits {

    /**
     * What was seen.
     *
     * @param rnic       the client RNIC's limits
     * @param refused    the reason a queue pair deeper than the RNIC allows is refused
     * @param idle       the client queue pair before it connected
     * @param connected  the client queue pair once connected
     * @param parameters what MPA negotiated
     * @param serverOrd  the ORD in force at the server
     */
    public record Observed(RnicAttributes rnic, VerbsException.Reason refused, QueuePairAttributes idle,
                           QueuePairAttributes connected, ConnectionParameters parameters, int serverOrd) {}

    private Limits() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // tag::configure[]
        RnicConfig config = RnicConfig.builder().name("small").maxWorkRequests(1024).maxIrdOrd(8).build();
        // end::configure[]
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open(config)) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(64);
            // IRD 16 and ORD 16, the defaults: the server answers and issues up to 16 Reads or atomics at a time.
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(),
                    request -> request.accept(serverQp).thenAccept(accepted::complete));

            // tag::query[]
            RnicAttributes limits = rnic.query(); // ibv_query_device
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(Math.min(4096, limits.maxCompletionQueueDepth()));
            VerbsException.Reason refused = null;
            try {
                pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(limits.maxWorkRequests() + 1).build());
            } catch (VerbsException e) {
                refused = e.reason(); // LIMIT_EXCEEDED: ask query() first instead
            }
            // This side answers at most 4 Reads at a time (IRD) and issues up to the RNIC's 8 (ORD).
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq)
                    .maxSendWr(limits.maxWorkRequests()).ird(4).ord(limits.maxIrdOrd()).build());
            QueuePairAttributes idle = qp.query(); // ibv_query_qp: state IDLE, the depths as configured
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            QueuePairAttributes connected = qp.query(); // RTS, and IRD/ORD as MPA negotiated them
            ConnectionParameters parameters = connection.parameters(); // revision, CRC, markers, MULPDU, peer's IRD/ORD
            // RFC 6581 §9.1: a Responder's ORD never exceeds the Initiator's IRD: the server may issue 4, not 16.
            int serverOrd = accepted.get(10, TimeUnit.SECONDS).parameters().ord();
            // end::query[]
            connection.disconnect().get(10, TimeUnit.SECONDS);
            return new Observed(limits, refused, idle, connected, parameters, serverOrd);
        }
    }
}
