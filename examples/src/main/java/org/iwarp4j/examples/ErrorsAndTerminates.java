package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.TerminateException;
import org.iwarp4j.verbs.TerminateInfo;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How things go wrong (docs/guide.md, "Errors and Terminates"): requests refused when posted, an RDMA Read
 * outside the peer's region, a Send that finds no receive, and a completion queue that overflows; what each
 * side's completions, async events and disconnect events then say.
 *
 * <p>{@code java org.iwarp4j.examples.ErrorsAndTerminates
 * [READ_OUT_OF_BOUNDS|SEND_WITHOUT_RECEIVE|COMPLETION_QUEUE_OVERFLOW]}
 */
public final class ErrorsAndTerminates {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** What goes wrong. */
    public enum Scenario {
        /** The client reads 200 octets from offset 4000 of the server's 4096. */
        READ_OUT_OF_BOUNDS,
        /** The client Sends while the server has no receive posted. */
        SEND_WITHOUT_RECEIVE,
        /** The client's completion queue, two deep beside a four-deep send queue, is never polled. */
        COMPLETION_QUEUE_OVERFLOW
    }

    /**
     * What happened.
     *
     * @param refusals    the reasons of the requests refused when posted
     * @param failed      the client's unsuccessful completion, if the scenario has one
     * @param clientEvent the client queue pair's first async event
     * @param serverEvent the server queue pair's first async event, if any
     * @param clientEnd   how the client's connection ended
     * @param serverEnd   how the server's connection ended
     * @param described   the lines {@link #describe} printed for the client's end
     */
    public record Observed(List<VerbsException.Reason> refusals, Optional<WorkCompletion> failed,
                           AsyncEvent clientEvent, Optional<AsyncEvent> serverEvent, CmEvent.Disconnected clientEnd,
                           CmEvent.Disconnected serverEnd, String described) {}

    private ErrorsAndTerminates() {}

    public static void main(String[] args) throws Exception {
        for (Scenario s : args.length > 0 ? new Scenario[] {Scenario.valueOf(args[0])} : Scenario.values()) {
            System.out.println(s + ": " + run(s));
        }
    }

    public static Observed run(Scenario scenario) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion exposed = serverPd.allocateRegion(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                    Access.REMOTE_READ);
            if (scenario != Scenario.SEND_WITHOUT_RECEIVE) {
                serverQp.postReceive(ReceiveWorkRequest.of(1, serverPd.allocateRegion(64, Access.LOCAL_WRITE)));
            }
            CompletableFuture<AsyncEvent> serverEvent = new CompletableFuture<>();
            serverQp.onAsyncEvent(serverEvent::complete);
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(), request -> request.accept(
                    serverQp, AcceptOptions.withPrivateData(exposed.remoteBuffer().encode()))
                    .thenAccept(accepted::complete));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            // The overflow scenario sizes its completion queue below its queue pair's depths: the mistake it shows.
            CompletionQueue cq = rnic.createCompletionQueue(scenario == Scenario.COMPLETION_QUEUE_OVERFLOW ? 2 : 64);
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(4).maxRecvWr(4).build());
            // tag::async-events[]
            // Called on the queue pair's event loop: hand the event over, never block.
            CompletableFuture<AsyncEvent> asyncEvent = new CompletableFuture<>();
            qp.onAsyncEvent(asyncEvent::complete); // TERMINATE_RECEIVED, TERMINATE_SENT, CONNECTION_LOST, ...
            // end::async-events[]
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            Connection server = accepted.get(10, TimeUnit.SECONDS);
            RemoteBuffer remote = RemoteBuffer.decode(connection.parameters().peerPrivateData());
            MemoryRegion local = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            MemoryRegion readOnly = pd.allocateRegion(64);

            List<VerbsException.Reason> refusals = new ArrayList<>();
            Optional<WorkCompletion> failed = Optional.empty();
            switch (scenario) {
                case READ_OUT_OF_BOUNDS -> {
                    // tag::refusals[]
                    // Refused on the caller's thread, nothing posted: the exception names the rule and the request.
                    try {
                        Sge part = local.sge(0, 8);
                        qp.postSend(Send.of(1, part, part, part, part, part)); // 5 SGEs, the queue pair allows 4
                    } catch (VerbsException e) {
                        refusals.add(e.reason()); // TOO_MANY_SGES
                    }
                    try {
                        qp.postSend(RdmaRead.of(2, readOnly.sge(), remote)); // a Read sink needs LOCAL_WRITE
                    } catch (VerbsException e) {
                        refusals.add(e.reason()); // INVALID_SGE
                    }
                    // end::refusals[]

                    // tag::remote-error[]
                    // 200 octets from offset 4000 of 4096: the server refuses and sends a Terminate.
                    RemoteBuffer outside = new RemoteBuffer(remote.stag(), remote.taggedOffset() + 4000, 200);
                    qp.postSend(RdmaRead.of(3, local.sge(0, 200), outside));
                    WorkCompletion wc = cq.take(TIMEOUT).orElseThrow();
                    if (!wc.isSuccess()) {
                        // REMOTE_ACCESS_ERROR, explained by the Terminate the server sent:
                        TerminateInfo t = wc.terminate().orElseThrow();
                        System.out.println(wc.status() + ": " + t.direction() + " " + t.codes() + " "
                                + t.description());
                    }
                    // end::remote-error[]
                    failed = Optional.of(wc);
                }
                case SEND_WITHOUT_RECEIVE -> {
                    // tag::no-receive[]
                    // iWARP has no "receiver not ready" retry: a Send that finds no receive ends the connection.
                    qp.postSend(Send.of(4, local.sge(0, 16)));
                    // The Send completes once TCP took it (RFC 5040 §5.5): SUCCESS, unless the server's Terminate came
                    // first.
                    WorkCompletion wc = cq.take(TIMEOUT).orElseThrow();
                    // end::no-receive[]
                    failed = Optional.of(wc);
                }
                case COMPLETION_QUEUE_OVERFLOW -> {
                    // tag::overflow[]
                    // Four Writes fill the 4-deep send queue, but the completion queue holds only two, and nobody
                    // polls it: the third completion finds it full. It is lost, and the queue pair fails.
                    for (int i = 0; i < 4; i++) {
                        qp.postSend(RdmaWrite.of(i, local.sge(0, 64), remote));
                    }
                    // end::overflow[]
                }
            }
            AsyncEvent clientEvent = asyncEvent.get(10, TimeUnit.SECONDS);
            CmEvent.Disconnected clientEnd = connection.closeFuture().get(10, TimeUnit.SECONDS);
            CmEvent.Disconnected serverEnd = server.closeFuture().get(10, TimeUnit.SECONDS);
            return new Observed(refusals, failed, clientEvent,
                    Optional.ofNullable(serverEvent.getNow(null)), clientEnd, serverEnd, describe(clientEnd));
        }
    }

    /**
     * What an application might log when a connection ends.
     *
     * @param end the event
     * @return the line
     */
    // tag::describe[]
    static String describe(CmEvent.Disconnected end) {
        if (end.cause().isEmpty()) {
            return "clean end: " + end.reason(); // LOCAL_DISCONNECT, LOCAL_CLOSE or PEER_DISCONNECT
        }
        Throwable cause = end.cause().get();
        if (cause instanceof TerminateException t) {
            return end.reason() + ": " + t.terminate(); // e.g. "received 0x0/0x1/0x01 RDMA Remote Protection ..."
        }
        return end.reason() + ": " + cause.getMessage(); // e.g. PEER_RESET with a ConnectionLostException
    }
    // end::describe[]
}
