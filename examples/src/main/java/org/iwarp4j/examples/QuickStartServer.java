package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The server of the quick start (docs/guide.md, "A first program"): it registers 4 KiB that the client may
 * write, read and run atomics on, tells the client where they are in the private data of its MPA Reply,
 * receives one Send, and shows what the client left in its memory once the client has disconnected.
 *
 * <p>{@code java org.iwarp4j.examples.QuickStartServer [port]} (default 7471) serves one client.
 */
public final class QuickStartServer {

    /** Where the client's atomics operate: the 8-octet word at this offset of the shared region. */
    public static final int COUNTER_OFFSET = 1024;

    /**
     * What the server saw.
     *
     * @param message the client's Send
     * @param written the text the client's RDMA Write left at the start of the shared region
     * @param counter the word the client's atomics changed
     * @param end     how the connection ended
     */
    public record Result(String message, String written, long counter, CmEvent.Disconnected end) {}

    private QuickStartServer() {}

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7471;
        Result result = serve(new InetSocketAddress(port), address -> System.out.println("listening on " + address));
        System.out.println("the client sent \"" + result.message() + "\", wrote \"" + result.written()
                + "\" and left the counter at " + result.counter() + "; " + result.end().reason());
    }

    /**
     * Serves one client.
     *
     * @param address   where to listen (port 0: any free port)
     * @param listening told the bound address once the server listens
     * @return what the client did
     * @throws Exception if the client does not come, fails, or takes too long
     */
    public static Result serve(InetSocketAddress address, Consumer<InetSocketAddress> listening) throws Exception {
        // tag::server[]
        try (Rnic rnic = Rnic.open()) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(cq);

            // The memory the client may write, read and run atomics on, and a buffer for its Send.
            MemoryRegion shared = pd.allocateRegion(4096,
                    Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
            MemoryRegion inbox = pd.allocateRegion(256, Access.LOCAL_WRITE);
            // iWARP has no "receiver not ready" retry: a Send that finds no receive ends the connection.
            qp.postReceive(ReceiveWorkRequest.of(1, inbox));

            // Without a handler, the listener keeps each connection request until a thread takes it.
            try (Listener listener = rnic.listen(address, ListenOptions.defaults())) {
                listening.accept(listener.localAddress());
                ConnectionRequest request = listener.take(Duration.ofSeconds(60))
                        .orElseThrow(() -> new TimeoutException("no client came"));
                // Accept, telling the client where the shared memory is: 16 octets of private data.
                byte[] advert = shared.remoteBuffer().encode();
                Connection connection = request.accept(qp, AcceptOptions.withPrivateData(advert))
                        .get(10, TimeUnit.SECONDS);

                WorkCompletion received = cq.take(Duration.ofSeconds(30))
                        .orElseThrow(() -> new TimeoutException("no Send from the client"));
                if (!received.isSuccess()) {
                    throw new IllegalStateException("the receive failed: " + received);
                }
                byte[] message = new byte[(int) received.byteLength()];
                inbox.buffer().get(message);

                // The client disconnects when it is done; then its Writes and atomics are all in memory.
                CmEvent.Disconnected end = connection.closeFuture().get(30, TimeUnit.SECONDS);

                byte[] written = new byte[QuickStartClient.GREETING.length()];
                shared.buffer().get(written);
                // Atomics keep the word in the RNIC's byte order (the host's), not in a ByteBuffer's big-endian.
                long counter = shared.buffer().order(rnic.query().atomicByteOrder()).getLong(COUNTER_OFFSET);
                return new Result(new String(message, StandardCharsets.UTF_8),
                        new String(written, StandardCharsets.UTF_8), counter, end);
            }
        }
        // end::server[]
    }
}
