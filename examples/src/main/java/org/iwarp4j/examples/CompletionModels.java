package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionHandler;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.NotifyMode;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ways to learn that work requests completed (docs/guide.md, "Completions"): polling with reused
 * flyweights, a blocking poll, a completion channel one thread waits on for several queues, a handler
 * armed on a queue, and a future per request; then signaled and unsignaled requests.
 *
 * <p>The client RDMA-Writes into a region of the server and receives the server's Sends; its two completion
 * queues report to one completion channel.
 */
public final class CompletionModels {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * What each model reported.
     *
     * @param polledOctets      octets of the Writes counted by the busy poll
     * @param blockingPolled    completions the blocking poll returned
     * @param taken             the completion {@code take} returned
     * @param fromChannel       completions found through the channel: Writes and receives
     * @param handlerCount      completions the handler counted
     * @param handlerThread     the thread the handler ran on
     * @param fromFuture        the completion of {@code postSendAsync}
     * @param unsignaledWrIds   the wrIds that completed out of 99 unsignaled Writes and one signaled
     * @param freeAfterSignaled free send queue slots once the signaled Write completed
     * @param keptFull          Writes completed by the run-to-completion handler
     * @param loopThreads       the threads that ran its start and every call of it
     */
    public record Observed(long polledOctets, int blockingPolled, WorkCompletion taken, int fromChannel,
                           int handlerCount, String handlerThread, WorkCompletion fromFuture,
                           List<Long> unsignaledWrIds, int freeAfterSignaled, int keptFull, Set<String> loopThreads) {}

    private CompletionModels() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            // The server: a region the client writes into, advertised in the Reply, and a queue pair that Sends.
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(256);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion target = serverPd.allocateRegion(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion serverSource = serverPd.allocateRegion(64);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request -> request.accept(
                    serverQp, AcceptOptions.withPrivateData(target.remoteBuffer().encode()))
                    .thenAccept(accepted::complete));

            // tag::channel-setup[]
            // One channel for both queues: one thread can wait for sends and receives alike.
            CompletionChannel channel = rnic.createCompletionChannel();
            CompletionQueue sendCq = rnic.createCompletionQueue(256, channel);
            CompletionQueue recvCq = rnic.createCompletionQueue(256, channel);
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).build());
            // end::channel-setup[]
            MemoryRegion source = pd.allocateRegion(4096);
            MemoryRegion inbox = pd.allocateRegion(64, Access.LOCAL_WRITE);
            qp.postReceive(ReceiveWorkRequest.of(1, inbox.sge(0, 32)));
            qp.postReceive(ReceiveWorkRequest.of(2, inbox.sge(32, 32)));
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());

            // tag::busy-poll[]
            for (int i = 0; i < 8; i++) {
                qp.postSend(RdmaWrite.of(i, source.sge(i * 512, 512), remote.slice(i * 512, 512)));
            }
            WorkCompletion[] completions = WorkCompletion.array(16); // allocated once, refilled by every poll
            long octets = 0;
            for (int done = 0; done < 8; ) {
                int n = sendCq.poll(completions); // never blocks, allocates nothing
                for (int i = 0; i < n; i++) {
                    requireSuccess(completions[i]); // read each entry before the next poll overwrites it
                    octets += completions[i].byteLength();
                }
                done += n;
                if (n == 0) {
                    Thread.onSpinWait();
                }
            }
            // end::busy-poll[]

            // tag::blocking-poll[]
            qp.postSend(RdmaWrite.of(20, source.sge(0, 64), remote));
            int n = sendCq.poll(completions, Duration.ofSeconds(5)); // parks until one arrives; 0 if none did
            qp.postSend(RdmaWrite.of(21, source.sge(0, 64), remote));
            Optional<WorkCompletion> next = sendCq.take(Duration.ofSeconds(5)); // a new object: convenient, allocates
            // end::blocking-poll[]

            // tag::channel-loop[]
            sendCq.arm(NotifyMode.NEXT); // arm before the completions can arrive
            recvCq.arm(NotifyMode.NEXT);
            qp.postSend(RdmaWrite.of(30, source.sge(0, 64), remote));
            qp.postSend(RdmaWrite.of(31, source.sge(0, 64), remote));
            QueuePair server = accepted.get(10, TimeUnit.SECONDS).queuePair();
            server.postSend(Send.of(1, serverSource.sge(0, 32)));
            server.postSend(Send.of(2, serverSource.sge(32, 32)));
            int seen = 0;
            while (seen < 4) {
                CompletionQueue ready = channel.take(TIMEOUT)
                        .orElseThrow(() -> new TimeoutException("no completion event"));
                ready.arm(NotifyMode.NEXT); // re-arm first, then poll: nothing that arrives in between is missed
                seen += ready.drain(CompletionModels::requireSuccess);
            }
            // end::channel-loop[]

            // tag::future[]
            CompletableFuture<WorkCompletion> written = qp.postSendAsync(RdmaWrite.of(50, source.sge(0, 64), remote));
            // Stages run on the queue pair's event loop (no blocking there), or on an executor given to *Async.
            written.thenAccept(wc -> System.out.println("wrote " + wc.byteLength() + " octets"));
            WorkCompletion fromFuture = written.get(10, TimeUnit.SECONDS); // fails with a WorkCompletionException
            // end::future[]

            // tag::unsignaled[]
            for (int i = 1; i < 100; i++) {
                // Unsignaled: no completion if it succeeds (a failure still completes, flushed requests too).
                qp.postSend(RdmaWrite.of(i, source.sge(0, 64), remote).withFlags(Set.of()));
            }
            qp.postSend(RdmaWrite.of(100, source.sge(0, 64), remote)); // the factories set SIGNALED
            WorkCompletion last = sendCq.take(TIMEOUT).orElseThrow(); // wrId 100; the 99 before it are done too
            int free = qp.sendQueueAvailable(); // all 256 slots: unsignaled requests free theirs when they finish
            // end::unsignaled[]
            List<Long> signaled = new ArrayList<>(List.of(last.wrId()));
            sendCq.drain(wc -> signaled.add(wc.wrId()));

            // tag::handler[]
            CompletableFuture<String> counted = new CompletableFuture<>();
            AtomicInteger count = new AtomicInteger();
            sendCq.arm(NotifyMode.NEXT, new CompletionHandler() {
                @Override
                public void onCompletion(CompletionQueue cq) {
                    // On the queue's event loop: poll, re-arm, poll again, and never block.
                    count.addAndGet(cq.drain(CompletionModels::requireSuccess));
                    cq.arm(NotifyMode.NEXT, this);
                    if (count.addAndGet(cq.drain(CompletionModels::requireSuccess)) >= 5) {
                        counted.complete(Thread.currentThread().getName());
                    }
                }
            });
            for (int i = 0; i < 5; i++) {
                qp.postSend(RdmaWrite.of(60 + i, source.sge(0, 64), remote));
            }
            String handlerThread = counted.get(10, TimeUnit.SECONDS);
            // end::handler[]

            // tag::run-to-completion[]
            // Run to completion: the queue's event loop posts, polls and posts again; no thread waits for another.
            PreparedSend write = qp.prepare(RdmaWrite.of(70, source.sge(0, 64), remote)); // built once, posted often
            WorkCompletion[] batch = WorkCompletion.array(16);
            CompletableFuture<Integer> finished = new CompletableFuture<>();
            Set<String> loopThreads = ConcurrentHashMap.newKeySet();
            CompletionHandler keepFull = new CompletionHandler() {
                private int posted;
                private int done;

                @Override
                public void onCompletion(CompletionQueue cq) {
                    loopThreads.add(Thread.currentThread().getName());
                    do {
                        for (int n; (n = cq.poll(batch)) > 0; done += n) {
                            for (int i = 0; i < n; i++) {
                                requireSuccess(batch[i]);
                            }
                        }
                        while (posted < 1000 && posted - done < 16) { // 16 in flight, 1000 in all
                            write.execute();
                            posted++;
                        }
                        if (done == 1000) {
                            finished.complete(done);
                            return;
                        }
                        cq.arm(NotifyMode.NEXT, this);
                    } while (cq.size() > 0); // a completion came before the arm: go round again
                }
            };
            sendCq.executor().execute(() -> keepFull.onCompletion(sendCq)); // start on the loop
            int keptFull = finished.get(10, TimeUnit.SECONDS);
            write.close(); // lets go of the memory it holds; closing the queue pair would too
            // end::run-to-completion[]

            return new Observed(octets, n, next.orElseThrow(), seen, count.get(), handlerThread, fromFuture,
                    List.copyOf(signaled), free, keptFull, Set.copyOf(loopThreads));
        }
    }

    // tag::require-success[]
    static void requireSuccess(WorkCompletion wc) {
        if (!wc.isSuccess()) {
            throw new IllegalStateException("work request " + wc.wrId() + " failed: " + wc);
        }
    }
    // end::require-success[]
}
