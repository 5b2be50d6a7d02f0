package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionParameters;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.PeerProfile;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The settings for a Linux soft-iWARP (siw) peer (docs/guide.md, "Peer profiles"), on both sides of a
 * connection: here they meet another iwarp4j RNIC, which they suit just as well.
 */
public final class LinuxSiwPeer {

    /** What the client reads from the server. */
    public static final String TEXT = "read from a siw-compatible server";

    /**
     * What happened.
     *
     * @param parameters what MPA negotiated
     * @param read       what the client's RDMA Read returned
     * @param refused    the reason an atomic is refused on a queue pair without RFC 7306
     */
    public record Observed(ConnectionParameters parameters, String read, VerbsException.Reason refused) {}

    private LinuxSiwPeer() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(QueuePairConfig.builder(serverCq, serverCq)
                    .rfc7306(false).build());
            MemoryRegion exposed = serverPd.allocateRegion(64, Access.REMOTE_READ);
            exposed.buffer().put(TEXT.getBytes(StandardCharsets.US_ASCII));
            // tag::listen[]
            ListenOptions listenOptions = ListenOptions.builder().peerProfile(PeerProfile.LINUX_SIW).build();
            // end::listen[]
            Listener listener = serverRnic.listen(loopback, listenOptions, request ->
                    request.accept(serverQp, AcceptOptions.withPrivateData(exposed.remoteBuffer().encode())));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            // tag::connect[]
            // siw terminates the connection on the RFC 7306 opcodes: switch them off on the queue pair.
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).rfc7306(false).build());
            ConnectOptions options = ConnectOptions.builder()
                    .peerProfile(PeerProfile.LINUX_SIW) // tolerate what siw is known to do
                    .privateData(new byte[0])           // at most 252 octets: the profile refuses more
                    .build();                           // the MPA defaults suit siw: revision 2, CRC, no markers
            // end::connect[]
            Connection connection = rnic.connect(listener.localAddress(), qp, options).get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            MemoryRegion sink = pd.allocateRegion(64, Access.LOCAL_WRITE);
            WorkCompletion wc = qp.postSendAsync(RdmaRead.of(1, sink.sge(0, TEXT.length()), remote))
                    .get(10, TimeUnit.SECONDS);
            byte[] read = new byte[(int) wc.byteLength()];
            sink.buffer().get(read);
            VerbsException.Reason refused = null;
            try {
                qp.postSend(AtomicFetchAdd.of(2, remote.slice(0, 8), 1));
            } catch (VerbsException e) {
                refused = e.reason(); // NEEDS_RFC7306: refused here, instead of a Terminate from siw
            }
            connection.disconnect().get(10, TimeUnit.SECONDS);
            return new Observed(connection.parameters(), new String(read, StandardCharsets.US_ASCII), refused);
        }
    }
}
