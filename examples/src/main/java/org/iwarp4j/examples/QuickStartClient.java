package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client of the quick start (docs/guide.md, "A first program"): it connects, reads the server's
 * advert from the MPA Reply, RDMA-Writes a text into the server's memory, RDMA-Reads it back, Sends a
 * message and runs the two RFC 7306 atomics on a counter in the server's memory.
 *
 * <p>{@code java org.iwarp4j.examples.QuickStartClient [host [port]]} (default localhost 7471).
 */
public final class QuickStartClient {

    /** What the client writes into the server's memory. */
    public static final String GREETING = "written by RDMA";
    /** What the client sends. */
    public static final String MESSAGE = "hello from the client";

    /**
     * What the client saw.
     *
     * @param readBack            what the RDMA Read brought back from the server's memory
     * @param fetchAddOriginal    the counter before the FetchAdd
     * @param compareSwapOriginal the counter before the CmpSwap
     */
    public record Result(String readBack, long fetchAddOriginal, long compareSwapOriginal) {}

    private QuickStartClient() {}

    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "localhost";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 7471;
        Result result = run(new InetSocketAddress(host, port));
        System.out.println("read back \"" + result.readBack() + "\"; the counter was " + result.fetchAddOriginal()
                + " before the FetchAdd and " + result.compareSwapOriginal() + " before the CmpSwap");
    }

    /**
     * Runs the client against a {@link QuickStartServer}.
     *
     * @param server the server's address
     * @return what the client saw
     * @throws Exception if the connection or an operation fails
     */
    public static Result run(InetSocketAddress server) throws Exception {
        // tag::client[]
        try (Rnic rnic = Rnic.open()) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(cq);

            Connection connection = rnic.connect(server, qp, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
            // The server's advert: STag, Tagged Offset and length of its shared region.
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());

            MemoryRegion local = pd.allocateRegion(256, Access.LOCAL_WRITE);
            byte[] greeting = GREETING.getBytes(StandardCharsets.UTF_8);
            byte[] message = MESSAGE.getBytes(StandardCharsets.UTF_8);
            local.buffer().put(0, greeting).put(64, message);

            // Each postSendAsync returns the future of its completion (the CQ gets none of these).
            // RDMA Write into the server's memory; the server's CPU takes no part (RFC 5040 §5.1).
            CompletableFuture<WorkCompletion> write = qp.postSendAsync(
                    RdmaWrite.of(1, local.sge(0, greeting.length), remote));
            // RDMA Read it back into another part of local memory (RFC 5040 §5.2). A Read posted after a
            // Write returns data placed after that Write's (RFC 5040 §5.5).
            CompletableFuture<WorkCompletion> read = qp.postSendAsync(
                    RdmaRead.of(2, local.sge(128, greeting.length), remote));
            // end::client[]
            // tag::client-more[]
            // A Send consumes the receive the server posted (RFC 5040 §5.3).
            CompletableFuture<WorkCompletion> send = qp.postSendAsync(Send.of(3, local.sge(64, message.length)));
            // Atomics (RFC 7306 §5) on the 8-octet word at COUNTER_OFFSET: add 5, then swap 5 for 42.
            RemoteBuffer counter = remote.slice(QuickStartServer.COUNTER_OFFSET, 8);
            CompletableFuture<WorkCompletion> add = qp.postSendAsync(AtomicFetchAdd.of(4, counter, 5));
            CompletableFuture<WorkCompletion> swap = qp.postSendAsync(AtomicCompareSwap.of(5, counter, 5, 42));

            // Fails with a WorkCompletionException (the failed completion) if any request failed.
            CompletableFuture.allOf(write, read, send, add, swap).get(10, TimeUnit.SECONDS);
            byte[] readBack = new byte[greeting.length];
            local.buffer().get(128, readBack);

            connection.disconnect().get(10, TimeUnit.SECONDS);
            return new Result(new String(readBack, StandardCharsets.UTF_8),
                    add.join().atomicOriginalValue().orElseThrow(), swap.join().atomicOriginalValue().orElseThrow());
        }
        // end::client-more[]
    }
}
