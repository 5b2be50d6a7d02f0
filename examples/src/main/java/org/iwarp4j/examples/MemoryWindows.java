package org.iwarp4j.examples;

import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.MemoryWindow;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.BindMemoryWindow;
import org.iwarp4j.verbs.SendWorkRequest.LocalInvalidate;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.SendWorkRequest.SendWithInvalidate;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.WorkCompletionException;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Memory windows, type 2 (docs/guide.md): the server opens 512 octets of a larger region to the peer of one
 * queue pair, sends the window's advert, and the client uses it, then revokes it with a Send with Invalidate;
 * a later access through the stale advert is refused by the server (a Terminate).
 */
public final class MemoryWindows {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Where the window starts in the server's region, and its length. */
    static final int WINDOW_OFFSET = 1024, WINDOW_LENGTH = 512;

    /**
     * What happened.
     *
     * @param firstStag      the window's STag after its first bind
     * @param stag           its STag after the rebind
     * @param landed         what the client's Write left in the server's region at window offset 100
     * @param readBack       what the client's Read brought back through the window
     * @param invalidated    the STag the server's receive completion says the client invalidated
     * @param boundAfter     whether the window was still bound after that
     * @param staleStatus    the status of the client's Read through the stale advert
     */
    public record Observed(Stag firstStag, Stag stag, String landed, String readBack, Optional<Stag> invalidated,
                           boolean boundAfter, CompletionStatus staleStatus) {}

    private MemoryWindows() {}

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    public static Observed run() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        byte[] text = "through the window".getBytes(StandardCharsets.US_ASCII);
        try (Rnic serverRnic = Rnic.open(); Rnic rnic = Rnic.open()) {
            ProtectionDomain serverPd = serverRnic.allocateProtectionDomain();
            CompletionQueue serverCq = serverRnic.createCompletionQueue(16);
            QueuePair serverQp = serverPd.createQueuePair(serverCq);
            MemoryRegion serverInbox = serverPd.allocateRegion(64, Access.LOCAL_WRITE);
            serverQp.postReceive(ReceiveWorkRequest.of(1, serverInbox.sge(0, 32)));
            serverQp.postReceive(ReceiveWorkRequest.of(2, serverInbox.sge(32, 32)));
            CompletableFuture<Connection> accepted = new CompletableFuture<>();
            Listener listener = serverRnic.listen(loopback, ListenOptions.defaults(),
                    request -> request.accept(serverQp).thenAccept(accepted::complete));

            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(cq);
            MemoryRegion local = pd.allocateRegion(256, Access.LOCAL_WRITE);
            qp.postReceive(ReceiveWorkRequest.of(1, local.sge(0, RemoteBuffer.ENCODED_LENGTH)));
            Connection connection = rnic.connect(listener.localAddress(), qp, ConnectOptions.defaults())
                    .get(10, TimeUnit.SECONDS);
            accepted.get(10, TimeUnit.SECONDS); // the server is in RTS too
            // The client speaks first, which releases the server's Sends (RFC 5044 §7.1.2 rule 4).
            qp.postSendAsync(Send.inline(1, StandardCharsets.US_ASCII.encode("ready"))).get(10, TimeUnit.SECONDS);

            // tag::bind[]
            // The region grants no remote right itself: only the windows bound to it do.
            MemoryRegion region = serverPd.allocateRegion(4096, Access.LOCAL_WRITE, Access.MW_BIND);
            MemoryWindow window = serverPd.allocateMemoryWindow();
            // Bound by a work request on the queue pair whose peer may use it, in send-queue order.
            serverQp.postSendAsync(BindMemoryWindow.of(1, window, region, WINDOW_OFFSET, WINDOW_LENGTH,
                    Access.REMOTE_READ, Access.REMOTE_WRITE)).get(10, TimeUnit.SECONDS);
            Stag firstStag = window.stag();
            // Invalidate and bind again: the same index with a new key; the old STag names nothing now.
            serverQp.postSendAsync(LocalInvalidate.of(2, window)).get(10, TimeUnit.SECONDS);
            serverQp.postSendAsync(BindMemoryWindow.of(3, window, region, WINDOW_OFFSET, WINDOW_LENGTH,
                    Access.REMOTE_READ, Access.REMOTE_WRITE)).get(10, TimeUnit.SECONDS);
            // Its advert goes in a Send: private data is too early, a bind needs a connected queue pair.
            MemoryRegion advert = serverPd.allocateRegion(RemoteBuffer.ENCODED_LENGTH);
            advert.buffer().put(window.remoteBuffer().encode());
            serverQp.postSendAsync(Send.of(4, advert)).get(10, TimeUnit.SECONDS);
            // end::bind[]

            // tag::use[]
            // Client: the window is addressed like a region, within its 512 octets only.
            cq.take(TIMEOUT).filter(WorkCompletion::isSuccess).orElseThrow(() -> new TimeoutException("no advert"));
            RemoteBuffer windowBuffer = RemoteBuffer.decode(local.buffer()); // the 16 octets the receive got
            local.buffer().put(64, text);
            qp.postSendAsync(RdmaWrite.of(2, local.sge(64, text.length), windowBuffer.slice(100, text.length)))
                    .get(10, TimeUnit.SECONDS);
            qp.postSendAsync(RdmaRead.of(3, local.sge(128, text.length), windowBuffer.slice(100, text.length)))
                    .get(10, TimeUnit.SECONDS);
            // Done: revoke the window from this side (RFC 5040 §5.3); its peer's next receive reports it.
            qp.postSendAsync(SendWithInvalidate.of(4, windowBuffer.stag())).get(10, TimeUnit.SECONDS);
            // end::use[]

            WorkCompletion ready = serverCq.take(TIMEOUT).orElseThrow();
            WorkCompletion revoked = serverCq.take(TIMEOUT).orElseThrow();
            if (!ready.isSuccess() || !revoked.isSuccess()) {
                throw new IllegalStateException("the server's receives failed: " + ready + ", " + revoked);
            }
            boolean boundAfter = window.isBound();
            byte[] landed = new byte[text.length];
            region.buffer().get(WINDOW_OFFSET + 100, landed);
            byte[] readBack = new byte[text.length];
            local.buffer().get(128, readBack);

            // tag::stale[]
            CompletionStatus stale;
            try {
                qp.postSendAsync(RdmaRead.of(5, local.sge(0, 8), windowBuffer.slice(0, 8))).get(10, TimeUnit.SECONDS);
                throw new IllegalStateException("a revoked window was readable");
            } catch (ExecutionException e) {
                // The server answers with a Terminate; the connection ends.
                stale = ((WorkCompletionException) e.getCause()).status(); // REMOTE_ACCESS_ERROR
            }
            // end::stale[]
            connection.closeFuture().get(10, TimeUnit.SECONDS);
            return new Observed(firstStag, window.stag(), new String(landed, StandardCharsets.US_ASCII),
                    new String(readBack, StandardCharsets.US_ASCII), revoked.invalidatedStag(), boundAfter, stale);
        }
    }
}
