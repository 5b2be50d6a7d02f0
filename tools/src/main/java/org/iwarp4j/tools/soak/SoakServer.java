package org.iwarp4j.tools.soak;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.MemoryWindow;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.SendWorkRequest.BindMemoryWindow;
import org.iwarp4j.verbs.SendWorkRequest.Send;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.cm.TcpKeepalive;

/**
 * The soak's responder, the side that is killed: every connection gets a region of its own
 * ({@link SoakLayout}), 256 receives of 16 KiB, and a memory window the client revokes with Send with
 * Invalidate, bound again and advertised in a Send after each revocation. It checks every Send's octets and
 * invalidated STag and every immediate's sequence, and prints one {@code CORRUPTION} line for each that is wrong,
 * one line per connection that ends, and a total every 10 s.
 */
final class SoakServer {

    private final PrintWriter out;
    private final Rnic rnic;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final Map<Integer, Conn> byQp = new ConcurrentHashMap<>();
    private final Queue<Conn> ended = new ConcurrentLinkedQueue<>();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong octets = new AtomicLong();
    private final AtomicLong corruptions = new AtomicLong();
    private final Map<CompletionStatus, Long> failed = new EnumMap<>(CompletionStatus.class);
    private final SplittableRandom random = new SplittableRandom();

    SoakServer(Rnic rnic, PrintWriter out) {
        this.rnic = rnic;
        this.out = out;
        this.pd = rnic.allocateProtectionDomain();
        this.cq = rnic.createCompletionQueue(1 << 16);
    }

    /** One connection's memory and checks. */
    private final class Conn {
        final QueuePair qp;
        final MemoryRegion shared;
        final MemoryRegion inbox;
        final MemoryRegion windowMemory;
        final MemoryWindow window;
        final MemoryRegion advert;
        volatile Stag advertised;
        long nextImmediate;
        long received;

        Conn(QueuePair qp) {
            this.qp = qp;
            shared = pd.allocateRegion(SoakLayout.SHARED_LENGTH, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                    Access.REMOTE_READ, Access.REMOTE_ATOMIC);
            inbox = pd.allocateRegion(SoakLayout.RECEIVES * SoakLayout.MAX_SEND, Access.LOCAL_WRITE);
            windowMemory = pd.allocateRegion(4096, Access.LOCAL_WRITE, Access.MW_BIND);
            window = pd.allocateMemoryWindow();
            advert = pd.allocateRegion(16, Access.LOCAL_WRITE);
        }

        void bindAndAdvertise() {
            try {
                bind();
            } catch (RuntimeException e) {
                // The queue pair failed meanwhile (its connection went): its end is reported once, below.
            }
        }

        private void bind() {
            qp.postSendAsync(BindMemoryWindow.of(1, window, windowMemory, 0, 4096, Access.REMOTE_READ))
                    .thenCompose(bound -> {
                        advertised = window.stag();
                        advert.buffer().put(0, window.remoteBuffer().encode());
                        return qp.postSendAsync(Send.of(2, advert));
                    }).exceptionally(e -> null); // the connection went: its end is reported once, below
        }

        void close() {
            qp.close();
            window.close();
            for (MemoryRegion r : new MemoryRegion[] {shared, inbox, windowMemory, advert}) {
                r.close();
            }
        }
    }

    int serve(InetSocketAddress address) throws InterruptedException {
        ListenOptions options = ListenOptions.builder()
                .keepalive(TcpKeepalive.of(Duration.ofSeconds(5), Duration.ofSeconds(2), 3)).build();
        try (Listener listener = rnic.listen(address, options, this::accept)) {
            out.println("soak server: listening on " + listener.localAddress());
            out.flush();
            WorkCompletion[] wcs = WorkCompletion.array(256);
            long report = System.nanoTime();
            while (true) {
                int n = cq.poll(wcs, Duration.ofMillis(200));
                for (int i = 0; i < n; i++) {
                    handle(wcs[i]);
                }
                for (Conn c; (c = ended.poll()) != null; ) {
                    byQp.remove(c.qp.number());
                    c.close();
                }
                if (System.nanoTime() - report > 10_000_000_000L) {
                    report = System.nanoTime();
                    out.println("soak server: total " + messages + " messages, " + octets + " octets verified, "
                            + corruptions + " corruptions, failed " + failed);
                    out.flush();
                }
            }
        }
    }

    private void accept(ConnectionRequest request) {
        try {
            admit(request);
        } catch (RuntimeException e) {
            // A limit of the RNIC, or the request gone: refuse it, say why.
            out.println("soak server: refused a connection: " + e.getMessage());
            request.reject(new byte[0]).exceptionally(x -> null);
        }
    }

    private void admit(ConnectionRequest request) {
        QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxRecvWr(SoakLayout.RECEIVES)
                .maxSendWr(16).ird(16).ord(4).build());
        Conn c = new Conn(qp);
        long laneSeed = random.nextLong();
        c.shared.buffer().put(0, SoakLayout.octets(laneSeed, SoakLayout.READ_LANE));
        for (int i = 0; i < SoakLayout.RECEIVES; i++) {
            qp.postReceive(ReceiveWorkRequest.of(i, c.inbox.sge((long) i * SoakLayout.MAX_SEND,
                    SoakLayout.MAX_SEND)));
        }
        byQp.put(qp.number(), c);
        ByteBuffer pd = ByteBuffer.allocate(SoakLayout.ADVERT_LENGTH).order(SoakLayout.ORDER);
        c.shared.remoteBuffer().encode(pd);
        pd.putLong(laneSeed);
        request.accept(qp, AcceptOptions.withPrivateData(pd.array())).whenComplete((connection, e) -> {
            if (e != null) {
                out.println("soak server: accept failed: " + e.getMessage());
                ended.add(c);
                return;
            }
            c.bindAndAdvertise();
            connection.closeFuture().thenAccept(d -> {
                synchronized (this) {
                    out.println("soak server: connection ended " + d.reason() + " after " + c.received
                            + " messages");
                    out.flush();
                }
                ended.add(c); // the CQ thread may still hold completions of this queue pair: closed there

            });
        });
    }

    private void handle(WorkCompletion wc) {
        Conn c = byQp.get(wc.queuePairNumber());
        if (!wc.isSuccess()) {
            synchronized (this) {
                failed.merge(wc.status(), 1L, Long::sum);
            }
            return;
        }
        if (c == null) {
            return;
        }
        int slot = (int) wc.wrId();
        int offset = slot * SoakLayout.MAX_SEND;
        if (wc.opcode() == CompletionOpcode.RECV_WITH_IMMEDIATE) {
            long imm = wc.immediateData().orElse(-1);
            if (imm != c.nextImmediate) {
                corruption("immediate " + imm + " where " + c.nextImmediate + " was next");
            }
            c.nextImmediate = imm + 1;
            octets.addAndGet(8);
        } else {
            int length = (int) wc.byteLength();
            int bad = SoakLayout.checkSendPayload(c.inbox.buffer(), offset, length);
            if (bad >= 0) {
                corruption("Send of " + length + " octets differs at octet " + (bad + 8));
            } else {
                octets.addAndGet(length);
            }
            if (wc.invalidatedStag().isPresent()) {
                Stag stag = wc.invalidatedStag().get();
                if (!stag.equals(c.advertised)) {
                    corruption("invalidated " + stag + " where " + c.advertised + " was advertised");
                }
                c.bindAndAdvertise();
            }
        }
        messages.incrementAndGet();
        c.received++;
        try {
            c.qp.postReceive(ReceiveWorkRequest.of(slot, c.inbox.sge(offset, SoakLayout.MAX_SEND)));
            c.shared.buffer().duplicate().order(SoakLayout.ORDER).putLong(SoakLayout.RECEIVED, c.received);
        } catch (RuntimeException e) {
            // The queue pair failed meanwhile; its end is reported once, by the connection.
        }
    }

    private synchronized void corruption(String what) {
        corruptions.incrementAndGet();
        out.println("CORRUPTION server: " + what);
        out.flush();
    }
}
