package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ending a connection with work outstanding (docs/guide.md, "Teardown"): a graceful disconnect or an abortive
 * close while 16 RDMA Writes of 1 MiB and three receives are outstanding; what completes how, what each side
 * hears, what posting does afterwards, and the order in which resources close.
 *
 * <p>{@code java org.iwarp4j.examples.Teardown [abortive]}
 */
public final class Teardown {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int WRITES = 16, SIZE = 1 << 20;

    /**
     * What happened.
     *
     * @param writes     the statuses of the Writes, in completion order
     * @param writeIds   their wrIds, in completion order
     * @param receives   the statuses of the client's receives
     * @param clientEnd  what the client heard
     * @param serverEnd  what the server heard
     * @param late       the status of a Send posted after the end
     * @param afterClose the reason a post to a closed queue pair is refused
     * @param busy       the refusal to close a protection domain that still has a queue pair
     */
    public record Observed(List<CompletionStatus> writes, List<Long> writeIds, List<CompletionStatus> receives,
                           CmEvent.Disconnected clientEnd, CmEvent.Disconnected serverEnd, CompletionStatus late,
                           VerbsException.Reason afterClose, String busy) {}

    private Teardown() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run(args.length == 0 || !args[0].equals("abortive")));
    }

    /**
     * @param graceful disconnect gracefully, else close abortively
     * @return what happened
     * @throws Exception if the connection fails
     */
    public static Observed run(boolean graceful) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion target = serverPd.allocateRegion(SIZE, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request -> request.accept(
                    serverQp, AcceptOptions.withPrivateData(target.remoteBuffer().encode()))
                    .thenAccept(accepted::complete));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue sendCq = rnic.createCompletionQueue(64);
            CompletionQueue recvCq = rnic.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).build());
            MemoryRegion inbox = pd.allocateRegion(48, Access.LOCAL_WRITE);
            for (int i = 0; i < 3; i++) {
                qp.postReceive(ReceiveWorkRequest.of(100 + i, inbox.sge(i * 16L, 16)));
            }
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            Connection server = accepted.get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            MemoryRegion source = pd.allocateRegion(SIZE);

            for (int i = 0; i < WRITES; i++) {
                qp.postSend(RdmaWrite.of(i, source, remote));
            }
            if (graceful) {
                // tag::graceful[]
                // Finishes the message on the wire, then closes TCP; what has not gone out is flushed.
                connection.disconnect().get(10, TimeUnit.SECONDS);
                // end::graceful[]
            } else {
                // tag::abortive[]
                // Resets TCP at once: everything outstanding is flushed.
                connection.close();
                // end::abortive[]
            }

            // tag::flushed[]
            // Every work request completes, in posting order: the done ones SUCCESS, the rest flushed.
            List<WorkCompletion> writes = new ArrayList<>();
            while (writes.size() < WRITES) {
                writes.add(sendCq.take(TIMEOUT).orElseThrow(() -> new TimeoutException("a Write never completed")));
            }
            List<WorkCompletion> receives = new ArrayList<>();
            while (receives.size() < 3) {
                receives.add(recvCq.take(TIMEOUT).orElseThrow(() -> new TimeoutException("a receive never completed")));
            }
            // end::flushed[]

            // tag::ends[]
            CmEvent.Disconnected clientEnd = connection.closeFuture().get(10, TimeUnit.SECONDS);
            CmEvent.Disconnected serverEnd = server.closeFuture().get(10, TimeUnit.SECONDS);
            // graceful: LOCAL_DISCONNECT here, PEER_DISCONNECT there, no cause on either side
            // abortive: LOCAL_CLOSE here, PEER_RESET there with a ConnectionLostException as the cause
            // end::ends[]

            // tag::after-end[]
            // A queue pair whose connection ended still takes requests, and flushes them (the error state).
            qp.postSend(Send.of(200));
            WorkCompletion late = sendCq.take(TIMEOUT).orElseThrow(); // WORK_REQUEST_FLUSHED
            // end::after-end[]

            // tag::close-order[]
            String busy = null;
            try {
                pd.close(); // refused while it holds regions and a queue pair, as ibv_dealloc_pd says EBUSY
            } catch (IllegalStateException e) {
                busy = e.getMessage(); // names what is still open
            }
            qp.close(); // first the queue pairs,
            VerbsException.Reason afterClose = null;
            try {
                qp.postSend(Send.of(201));
            } catch (VerbsException e) {
                afterClose = e.reason(); // WRONG_STATE: a closed queue pair takes nothing
            }
            sendCq.close(); // then what they used,
            recvCq.close();
            inbox.close();
            source.close();
            pd.close(); // then the domain. Rnic.close() instead closes every connection and queue at once.
            // end::close-order[]

            return new Observed(writes.stream().map(WorkCompletion::status).toList(),
                    writes.stream().map(WorkCompletion::wrId).toList(),
                    receives.stream().map(WorkCompletion::status).toList(), clientEnd, serverEnd, late.status(),
                    afterClose, busy);
        }
    }
}
