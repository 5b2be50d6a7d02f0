package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A full send queue is backpressure, not an error (docs/guide.md): 1000 RDMA Writes of 64 KiB through a send
 * queue four deep, with {@code tryPostSend}, and the cheap exception {@code postSend} throws instead.
 */
public final class Backpressure {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int WRITES = 1000, SIZE = 64 * 1024, DEPTH = 4;

    /**
     * What happened.
     *
     * @param completed        Writes that completed successfully
     * @param octets           octets they wrote
     * @param full             how often {@code tryPostSend} found the queue full
     * @param reason           the reason of the exception {@code postSend} threw on a full queue
     * @param stackTraceLength the length of its stack trace (none: it is cheap)
     * @param freeAtEnd        free send queue slots once every Write completed
     */
    public record Observed(int completed, long octets, int full, VerbsException.Reason reason, int stackTraceLength,
                           int freeAtEnd) {}

    private Backpressure() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion target = serverPd.allocateRegion(SIZE, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request ->
                    request.accept(serverQp, AcceptOptions.withPrivateData(target.remoteBuffer().encode())));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(DEPTH).build());
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            MemoryRegion source = pd.allocateRegion(SIZE);

            // tag::try-post[]
            WorkCompletion[] completions = WorkCompletion.array(16);
            int posted = 0, completed = 0, full = 0;
            long octets = 0;
            while (completed < WRITES) {
                // Reap first: a Write keeps its slot until its completion is polled.
                int n = cq.poll(completions);
                if (posted < WRITES) {
                    if (qp.tryPostSend(RdmaWrite.of(posted, source.sge(), remote))) {
                        posted++;
                    } else if (n == 0) {
                        // Full: four Writes not yet completed and polled. Wait for a completion.
                        full++;
                        n = cq.poll(completions, TIMEOUT);
                    }
                } else if (n == 0) {
                    n = cq.poll(completions, TIMEOUT); // all posted: wait for the rest
                }
                for (int i = 0; i < n; i++) {
                    if (!completions[i].isSuccess()) {
                        throw new IllegalStateException(completions[i].toString());
                    }
                    octets += completions[i].byteLength();
                }
                completed += n;
            }
            // end::try-post[]
            int freeAtEnd = qp.sendQueueAvailable();

            // tag::queue-full[]
            VerbsException refusal = null;
            for (int i = 0; i < 60 && refusal == null; i++) { // 60 at most: the completion queue holds 64
                try {
                    qp.postSend(RdmaWrite.of(WRITES + i, source.sge(), remote));
                } catch (VerbsException e) {
                    // QUEUE_FULL is the one refusal expected on the data path: no stack trace, a lazy message.
                    if (e.reason() != VerbsException.Reason.QUEUE_FULL) {
                        throw e;
                    }
                    refusal = e;
                }
            }
            // end::queue-full[]
            if (refusal == null) {
                throw new IllegalStateException("the send queue never filled");
            }
            connection.disconnect().get(10, TimeUnit.SECONDS);
            return new Observed(completed, octets, full, refusal.reason(), refusal.getStackTrace().length, freeAtEnd);
        }
    }
}
