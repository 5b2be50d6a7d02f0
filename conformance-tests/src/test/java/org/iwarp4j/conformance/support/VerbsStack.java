package org.iwarp4j.conformance.support;

import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.AsyncEvent;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.ReceiveWorkRequest;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.CmEvent;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.iwarp4j.verbs.netty.NettyVerbs;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The real stack through its public verbs API, for conformance tests: one RNIC (NIO, one event loop),
 * one protection domain, a send and a receive completion queue, one queue pair, registered regions,
 * and the CM and async events it saw. It either listens ({@link #listen}) — a scripted peer or another
 * {@code VerbsStack} connects — or connects ({@link #connect}). Every wait is bounded.
 */
public final class VerbsStack implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(10);

    /** A registered region and a view of its memory ({@link MemoryRegion#buffer()}, or the registered buffer). */
    public record Region(MemoryRegion mr, ByteBuffer buf) {
        public Sge sge(int offset, int length) {
            return new Sge(mr, offset, length);
        }

        public Stag stag() {
            return mr.stag();
        }

        public int stagValue() {
            return mr.stag().value();
        }

        /** The Tagged Offset of octet {@code offset} of the region. */
        public long to(long offset) {
            return mr.address() + offset;
        }

        public byte[] bytes(int offset, int length) {
            byte[] out = new byte[length];
            buf.get(offset, out);
            return out;
        }

        public Region put(int offset, byte[] data) {
            buf.put(offset, data);
            return this;
        }
    }

    public final Rnic rnic;
    public final ProtectionDomain pd;
    public final CompletionQueue sendCq;
    public final CompletionQueue recvCq;
    public final QueuePair qp;
    public final List<AsyncEvent> asyncEvents = new ArrayList<>();
    public final List<CmEvent> cmEvents = new ArrayList<>();
    public final CompletableFuture<Connection> connection = new CompletableFuture<>();
    private Listener listener;

    public VerbsStack(Consumer<QueuePairConfig.Builder> qpConfig) {
        this(RnicConfig.builder(), qpConfig);
    }

    public VerbsStack(RnicConfig.Builder rnicConfig, Consumer<QueuePairConfig.Builder> qpConfig) {
        this(rnicConfig, null, qpConfig);
    }

    /** An RNIC whose headers and control messages come from {@code allocator} (e.g. a {@code FailingAllocator}). */
    public VerbsStack(RnicConfig.Builder rnicConfig, ByteBufAllocator allocator,
                      Consumer<QueuePairConfig.Builder> qpConfig) {
        RnicConfig config = rnicConfig.transport(Transport.NIO).eventLoopThreads(1).build();
        rnic = allocator == null ? Rnic.open(config) : NettyVerbs.open(config, allocator);
        try {
            pd = rnic.allocateProtectionDomain();
            sendCq = rnic.createCompletionQueue(1024);
            recvCq = rnic.createCompletionQueue(1024);
            QueuePairConfig.Builder b = QueuePairConfig.builder(sendCq, recvCq);
            qpConfig.accept(b);
            qp = pd.createQueuePair(b.build());
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
        qp.onAsyncEvent(e -> {
            synchronized (asyncEvents) {
                asyncEvents.add(e);
            }
        });
    }

    public VerbsStack() {
        this(b -> { });
    }

    /** Registers {@code length} zeroed octets of direct memory with {@code access}. */
    public Region region(int length, Access... access) {
        MemoryRegion mr = pd.allocateRegion(length, access);
        return new Region(mr, mr.buffer());
    }

    public void receive(long wrId, Sge... sges) {
        qp.postReceive(ReceiveWorkRequest.of(wrId, sges));
    }

    public void post(SendWorkRequest wr) {
        qp.postSend(wr);
    }

    private void cm(CmEvent e) {
        synchronized (cmEvents) {
            cmEvents.add(e);
        }
    }

    public List<CmEvent> cmEvents() {
        synchronized (cmEvents) {
            return List.copyOf(cmEvents);
        }
    }

    /** The DISCONNECTED event of the connection, waiting for it (bounded). */
    public CmEvent.Disconnected disconnected() {
        awaitTrue(() -> cmEvents().stream().anyMatch(CmEvent.Disconnected.class::isInstance), "DISCONNECTED");
        return cmEvents().stream().filter(CmEvent.Disconnected.class::isInstance).map(CmEvent.Disconnected.class::cast)
                .findFirst().orElseThrow();
    }

    public List<AsyncEvent> asyncEvents() {
        synchronized (asyncEvents) {
            return List.copyOf(asyncEvents);
        }
    }

    /** Listens on 127.0.0.1 and accepts the first request with the queue pair. */
    public InetSocketAddress listen(ListenOptions.Builder options) {
        return listen(options, AcceptOptions.defaults());
    }

    /** As {@link #listen(ListenOptions.Builder)} accepting with {@code accept}. */
    public InetSocketAddress listen(ListenOptions.Builder options, AcceptOptions accept) {
        listener = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                options.eventListener(this::cm).build(),
                request -> request.accept(qp, accept).whenComplete((c, e) -> {
                    if (e != null) {
                        connection.completeExceptionally(e);
                    } else {
                        connection.complete(c);
                    }
                }));
        return listener.localAddress();
    }

    public InetSocketAddress listen() {
        return listen(ListenOptions.builder());
    }

    /** Connects the queue pair to {@code address}; {@link #connection} completes at ESTABLISHED. */
    public CompletableFuture<Connection> connect(InetSocketAddress address, ConnectOptions.Builder options) {
        rnic.connect(address, qp, options.eventListener(this::cm).build())
                .whenComplete((c, e) -> {
                    if (e != null) {
                        connection.completeExceptionally(e);
                    } else {
                        connection.complete(c);
                    }
                });
        return connection;
    }

    /** The connection, waiting for it (bounded). */
    public Connection connected() {
        try {
            return connection.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("not connected: " + e, e);
        }
    }

    public List<WorkCompletion> sendCompletions(int n) {
        return await(sendCq, n);
    }

    public List<WorkCompletion> recvCompletions(int n) {
        return await(recvCq, n);
    }

    public WorkCompletion sendCompletion() {
        return sendCompletions(1).get(0);
    }

    public WorkCompletion recvCompletion() {
        return recvCompletions(1).get(0);
    }

    /** Exactly {@code n} completions of {@code cq}, the way an application waits: the queue's blocking take. */
    public static List<WorkCompletion> await(CompletionQueue cq, int n) {
        List<WorkCompletion> out = new ArrayList<>(n);
        long deadline = System.nanoTime() + WAIT.toNanos();
        try {
            while (out.size() < n) {
                long left = deadline - System.nanoTime();
                Optional<WorkCompletion> wc = left > 0 ? cq.take(Duration.ofNanos(left)) : Optional.empty();
                if (wc.isEmpty()) {
                    throw new AssertionError("timed out waiting for " + n + " completions; got " + out);
                }
                out.add(wc.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return out;
    }

    /** Waits (bounded) until {@code condition} holds. */
    public static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            LockSupport.parkNanos(100_000); // poll gently: the machine is shared
        }
    }

    @Override
    public void close() {
        rnic.close();
    }
}
