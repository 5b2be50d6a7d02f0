package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest.AtomicCompareSwap;
import org.iwarp4j.verbs.SendWorkRequest.AtomicFetchAdd;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * RFC 7306 atomics and their byte order (docs/guide.md): a counter the client increments with FetchAdd, a
 * lock it takes with CmpSwap, two 32-bit counters in one word with a masked FetchAdd, and how to read the
 * words in memory.
 *
 * <p>{@code java org.iwarp4j.examples.Atomics [big-endian]}: the server's RNIC keeps atomic words in the
 * host's byte order, or big-endian.
 */
public final class Atomics {

    /** The word offsets in the server's region. */
    static final int COUNTER = 0, LOCK = 8, LANES = 16;

    /**
     * What happened.
     *
     * @param atomicByteOrder   the byte order of the server's atomic words
     * @param firstOriginal     the counter before the first of ten FetchAdds
     * @param counter           the counter after them, read in the atomic byte order
     * @param counterBigEndian  the same eight octets read with a new buffer's big-endian order
     * @param lastResult        the original value of the tenth FetchAdd as written in the client's result buffer
     * @param lockTaken         whether the first CmpSwap took the lock
     * @param lockTakenAgain    whether the second did
     * @param lanes             the word of two 32-bit counters after the masked FetchAdd
     */
    public record Observed(ByteOrder atomicByteOrder, long firstOriginal, long counter, long counterBigEndian,
                           long lastResult, boolean lockTaken, boolean lockTakenAgain, long lanes) {}

    private Atomics() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run(args.length > 0 && args[0].equals("big-endian")
                ? ByteOrder.BIG_ENDIAN : ByteOrder.nativeOrder()));
    }

    /**
     * @param serverOrder the atomic byte order of the server's RNIC
     * @return what happened
     * @throws Exception if the connection or an atomic fails
     */
    public static Observed run(ByteOrder serverOrder) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // tag::server-order[]
        RnicConfig serverConfig = RnicConfig.builder().atomicByteOrder(serverOrder).build(); // default: the host's
        // end::server-order[]
        try (Rnic serverRnic = Rnic.open(serverConfig); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            // tag::words[]
            MemoryRegion words = serverPd.allocateRegion(64, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            // A new ByteBuffer is big-endian; atomics see memory in the RNIC's atomic byte order.
            ByteBuffer memory = words.buffer().order(serverRnic.query().atomicByteOrder());
            memory.putLong(COUNTER, 100);
            // end::words[]
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(),
                    request -> request.accept(serverQp, AcceptOptions.withPrivateData(words.remoteBuffer().encode())));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(cq);
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());

            // tag::fetch-add[]
            RemoteBuffer counter = remote.slice(COUNTER, 8); // an 8-octet aligned word (RFC 7306 §5.2.1)
            MemoryRegion results = pd.allocateRegion(80, Access.LOCAL_WRITE);
            List<CompletableFuture<WorkCompletion>> adds = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                // The original value comes in the completion and, with withResult, into local memory too.
                adds.add(qp.postSendAsync(AtomicFetchAdd.of(i, counter, 1).withResult(results.sge(i * 8L, 8))));
            }
            long firstOriginal = adds.get(0).get(10, TimeUnit.SECONDS).atomicOriginalValue().orElseThrow(); // 100
            adds.get(9).get(10, TimeUnit.SECONDS); // completions come in posting order (RFC 5040 §5.5)
            // The result buffer is in this RNIC's atomic byte order.
            long lastResult = results.buffer().order(rnic.query().atomicByteOrder()).getLong(72); // 109
            // end::fetch-add[]

            // tag::compare-swap[]
            RemoteBuffer lock = remote.slice(LOCK, 8);
            long me = 7;
            // Take the lock if it is free (0): the swap happened if the original value was 0.
            boolean taken = qp.postSendAsync(AtomicCompareSwap.of(20, lock, 0, me)).get(10, TimeUnit.SECONDS)
                    .atomicOriginalValue().orElseThrow() == 0;
            boolean takenAgain = qp.postSendAsync(AtomicCompareSwap.of(21, lock, 0, me)).get(10, TimeUnit.SECONDS)
                    .atomicOriginalValue().orElseThrow() == 0; // false: the word holds 7
            // end::compare-swap[]

            // tag::masked[]
            // Two 32-bit counters in one word: bit 31 of the add mask stops the carry there (RFC 7306 §5.1.1).
            memory.putLong(LANES, 0x0000_0001_FFFF_FFFFL);
            qp.postSendAsync(AtomicFetchAdd.of(30, remote.slice(LANES, 8), 0x0000_0001_0000_0001L)
                    .withAddMask(0x0000_0000_8000_0000L)).get(10, TimeUnit.SECONDS);
            long lanes = memory.getLong(LANES); // 0x0000_0002_0000_0000: the low lane wrapped to 0, the high one got 1
            // end::masked[]

            connection.disconnect().get(10, TimeUnit.SECONDS);
            long value = memory.getLong(COUNTER);
            long bigEndian = words.buffer().getLong(COUNTER);
            return new Observed(serverRnic.query().atomicByteOrder(), firstOriginal, value, bigEndian, lastResult,
                    taken, takenAgain, lanes);
        }
    }

}
