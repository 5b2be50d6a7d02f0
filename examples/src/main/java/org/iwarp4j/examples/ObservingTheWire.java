package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Watching what goes over the wire (docs/guide.md): the client captures its connection to a pcap file while
 * it RDMA-Writes a line into the server. Run with the frame loggers at DEBUG to see every frame as well:
 * {@code java -Dorg.slf4j.simpleLogger.log.org.iwarp4j.frames=debug ... ObservingTheWire client.pcap}.
 */
public final class ObservingTheWire {

    /** What the client writes. */
    public static final String LINE = "RDMA Write, captured";

    private ObservingTheWire() {}

    public static void main(String[] args) throws Exception {
        Path capture = Path.of(args.length > 0 ? args[0] : "client.pcap");
        run(capture);
        System.out.println("captured the connection in " + capture + "; decode it with ./iwarp explain --pcap "
                + capture);
    }

    /**
     * @param capture the pcap file to write
     * @return what arrived in the server's memory
     * @throws Exception if the connection fails
     */
    public static String run(Path capture) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion target = serverPd.allocateRegion(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request -> request.accept(
                    serverQp, AcceptOptions.withPrivateData(target.remoteBuffer().encode()))
                    .thenAccept(accepted::complete));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(cq);
            // tag::pcap[]
            // The TCP traffic of this connection, MPA Request and Reply included, goes to a pcap file.
            ConnectOptions options = ConnectOptions.builder().pcapFile(capture).build();
            Connection connection = rnic.connect(listener.localAddress(), qp, options).get(10, TimeUnit.SECONDS);
            // end::pcap[]
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            MemoryRegion source = pd.allocateRegion(64);
            byte[] line = LINE.getBytes(StandardCharsets.US_ASCII);
            source.buffer().put(line);
            qp.postSendAsync(RdmaWrite.of(1, source.sge(0, line.length), remote)).get(10, TimeUnit.SECONDS);
            connection.disconnect().get(10, TimeUnit.SECONDS);
            // The Write completed when TCP took it, not when the server placed it (RFC 5040 §5.5); the end of
            // the server's connection, which follows the Write in the stream, comes after the placement.
            accepted.get(10, TimeUnit.SECONDS).closeFuture().get(10, TimeUnit.SECONDS);
            byte[] landed = new byte[line.length];
            target.buffer().get(landed);
            return new String(landed, StandardCharsets.US_ASCII);
        }
    }
}
