package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRejectedException;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Exchanging memory adverts in MPA private data (docs/guide.md): the client's Request carries a protocol
 * version and the advert of a buffer the server may read; the server checks the version, rejects a wrong one
 * with a reason, and accepts with the advert of a buffer the client may write; the client checks the Reply.
 * Then each side uses the other's buffer, and the size limits of private data are shown.
 */
public final class PrivateDataAdvert {

    /** The version the server speaks. */
    public static final int VERSION = 1;
    /** What the client offers for the server to read. */
    public static final String CLIENT_TEXT = "the client's buffer";
    /** What the client writes into the server's buffer. */
    public static final String WRITTEN = "written into the server";

    /**
     * What happened.
     *
     * @param serverRead    what the server's RDMA Read brought back from the client's buffer
     * @param serverBuffer  what the client's RDMA Write left in the server's buffer
     * @param rejectReason  the private data of the Reply that rejected a client of another version
     */
    public record Observed(String serverRead, String serverBuffer, String rejectReason) {}

    private PrivateDataAdvert() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            MemoryRegion serverBuffer = serverPd.allocateRegion(256, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion sink = serverPd.allocateRegion(256, Access.LOCAL_WRITE);
            CompletableFuture<WorkCompletion> serverRead = new CompletableFuture<>();

            // tag::server-decides[]
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request -> {
                ByteBuffer offer = ByteBuffer.wrap(request.privateData());
                if (offer.remaining() != 4 + RemoteBuffer.ENCODED_LENGTH || offer.getInt() != VERSION) {
                    request.reject("unsupported version".getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                RemoteBuffer clientBuffer = RemoteBuffer.decode(offer); // the 16 octets after the version
                QueuePair qp = serverPd.createQueuePair(serverCq);
                request.accept(qp, AcceptOptions.withPrivateData(serverBuffer.remoteBuffer().encode()))
                        // Posted at once; MPA holds it until the client's first FPDU (RFC 5044 §7.1.2 rule 4).
                        .thenCompose(connection -> qp.postSendAsync(RdmaRead.of(1,
                                sink.sge(0, CLIENT_TEXT.length()), clientBuffer.slice(0, CLIENT_TEXT.length()))))
                        .whenComplete((wc, failure) -> {
                            if (failure != null) {
                                serverRead.completeExceptionally(failure);
                            } else {
                                serverRead.complete(wc);
                            }
                        });
            });
            // end::server-decides[]

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(cq);
            MemoryRegion offered = pd.allocateRegion(256, Access.LOCAL_WRITE, Access.REMOTE_READ);
            offered.buffer().put(CLIENT_TEXT.getBytes(StandardCharsets.US_ASCII));
            MemoryRegion source = pd.allocateRegion(256);
            source.buffer().put(WRITTEN.getBytes(StandardCharsets.US_ASCII));

            // tag::client-offers[]
            // The Request's private data: a version, then the advert of the buffer the server may read.
            ByteBuffer offer = ByteBuffer.allocate(4 + RemoteBuffer.ENCODED_LENGTH).putInt(VERSION);
            offered.remoteBuffer().encode(offer);
            ConnectOptions options = ConnectOptions.builder()
                    .privateData(offer.array())
                    // A Reply whose private data is not an advert fails the connect (RFC 5044 §7.1.2 rule 3).
                    .replyPrivateDataCheck(reply -> reply.length == RemoteBuffer.ENCODED_LENGTH)
                    .build();
            Connection connection = rnic.connect(listener.localAddress(), qp, options).get(10, TimeUnit.SECONDS);
            RemoteBuffer serverSide = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            // end::client-offers[]

            // The client's Write is its first FPDU: it also releases the server's Read.
            qp.postSendAsync(RdmaWrite.of(1, source.sge(0, WRITTEN.length()), serverSide)).get(10, TimeUnit.SECONDS);
            WorkCompletion read = serverRead.get(10, TimeUnit.SECONDS);
            byte[] got = new byte[(int) read.byteLength()];
            sink.buffer().get(got);
            byte[] written = new byte[WRITTEN.length()];
            serverBuffer.buffer().get(written);
            connection.disconnect().get(10, TimeUnit.SECONDS);

            // tag::rejected[]
            QueuePair other = pd.createQueuePair(cq);
            ByteBuffer wrongVersion = ByteBuffer.allocate(4 + RemoteBuffer.ENCODED_LENGTH).putInt(VERSION + 1);
            offered.remoteBuffer().encode(wrongVersion);
            String reason;
            try {
                rnic.connect(listener.localAddress(), other,
                        ConnectOptions.builder().privateData(wrongVersion.array()).build()).get(10, TimeUnit.SECONDS);
                throw new IllegalStateException("the server accepted another version");
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ConnectionRejectedException rejected)) {
                    throw e;
                }
                reason = new String(rejected.privateData(), StandardCharsets.US_ASCII);
            }
            // end::rejected[]
            return new Observed(new String(got, StandardCharsets.US_ASCII),
                    new String(written, StandardCharsets.US_ASCII), reason);
        }
    }

    /**
     * The private data lengths a Request accepts: 508 octets with MPA revision 2 (the 512 of RFC 5044 §7.1.1
     * minus the 4 octets of RFC 6581 §7), 512 with revision 1.
     *
     * @return the message of the refusal of 509 octets with revision 2
     */
    public static String sizeLimits() {
        // tag::size-limits[]
        ConnectOptions.builder().privateData(new byte[508]).build();                       // revision 2: the most
        ConnectOptions.builder().mpa(mpa -> mpa.revision(1)).privateData(new byte[512]).build(); // no IRD/ORD
        try {
            ConnectOptions.builder().privateData(new byte[509]).build();
            throw new IllegalStateException("509 octets were accepted");
        } catch (IllegalArgumentException tooLong) {
            return tooLong.getMessage(); // "private data of 509 octets exceeds 508 (...)"
        }
        // end::size-limits[]
    }
}
