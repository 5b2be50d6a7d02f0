package org.iwarp4j.verbs;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Two RNICs on loopback with one connected queue pair each: the "server" (listener, accepts) and the
 * "client" (connects). Each side has its own send and receive completion queue.
 */
final class Peers implements AutoCloseable {

    /** NIO always; epoll when this machine has it (never reported as a skipped test). */
    static Stream<Transport> transports() {
        return Epoll.isAvailable() ? Stream.of(Transport.NIO, Transport.EPOLL) : Stream.of(Transport.NIO);
    }

    /**
     * {@link #transports()} and io_uring where the kernel offers it (the data path's broad tests run on it too);
     * where it does not, says so on stderr instead of passing quietly.
     */
    static Stream<Transport> transportsWithIoUring() {
        if (IoUring.isAvailable()) {
            return Stream.concat(transports(), Stream.of(Transport.IO_URING));
        }
        System.err.println("WARNING: io_uring is not available, its cases do not run: "
                + IoUring.unavailabilityCause());
        return transports();
    }

    final Rnic serverRnic;
    final Rnic clientRnic;
    final Side server;
    final Side client;
    final Listener listener;
    Connection serverConnection;
    Connection clientConnection;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    /** One side: PD, CQs, QP and its connection. */
    static final class Side {
        final Rnic rnic;
        final ProtectionDomain pd;
        final CompletionQueue sendCq;
        final CompletionQueue recvCq;
        QueuePair qp;

        Side(Rnic rnic, int cqDepth) throws VerbsException {
            this.rnic = rnic;
            this.pd = rnic.allocateProtectionDomain();
            this.sendCq = rnic.createCompletionQueue(cqDepth);
            this.recvCq = rnic.createCompletionQueue(cqDepth);
        }

        QueuePairConfig.Builder qpConfig() {
            return QueuePairConfig.builder(sendCq, recvCq);
        }

        Mem region(int length, Access... access) throws VerbsException {
            ByteBuffer memory = ByteBuffer.allocateDirect(length);
            return new Mem(pd.register(memory, access.length == 0 ? Set.of() : EnumSet.of(access[0], access)), memory);
        }

        void post(SendWorkRequest wr) throws VerbsException {
            qp.postSend(wr);
        }

        void receive(long wrId, Sge... sges) throws VerbsException {
            qp.postReceive(ReceiveWorkRequest.of(wrId, sges));
        }
    }

    Peers(Transport transport) throws Exception {
        this(transport, b -> { }, b -> { }, ConnectOptions.defaults(), AcceptOptions.defaults(), q -> { });
    }

    /**
     * @param serverQp   adjusts the server's queue pair config
     * @param clientQp   adjusts the client's queue pair config
     * @param beforeConnect runs with the server side before connecting (post receives there)
     */
    Peers(Transport transport, Consumer<QueuePairConfig.Builder> serverQp, Consumer<QueuePairConfig.Builder> clientQp,
          ConnectOptions connect, AcceptOptions accept, ThrowingConsumer<Peers> beforeConnect) throws Exception {
        this(transport, serverQp, clientQp, ListenOptions.defaults(), connect, accept, beforeConnect);
    }

    Peers(Transport transport, Consumer<QueuePairConfig.Builder> serverQp, Consumer<QueuePairConfig.Builder> clientQp,
          ListenOptions listen, ConnectOptions connect, AcceptOptions accept, ThrowingConsumer<Peers> beforeConnect)
            throws Exception {
        this(RnicConfig.builder().transport(transport).eventLoopThreads(2), serverQp, clientQp, listen, connect, accept,
                beforeConnect);
    }

    /** @param rnics both RNICs' configuration (each gets its name, "server" or "client") */
    Peers(RnicConfig.Builder rnics, Consumer<QueuePairConfig.Builder> serverQp,
          Consumer<QueuePairConfig.Builder> clientQp, ListenOptions listen, ConnectOptions connect,
          AcceptOptions accept, ThrowingConsumer<Peers> beforeConnect) throws Exception {
        serverRnic = Rnic.open(rnics.name("server").build());
        clientRnic = Rnic.open(rnics.name("client").build());
        server = new Side(serverRnic, 4096);
        client = new Side(clientRnic, 4096);
        QueuePairConfig.Builder sb = server.qpConfig();
        serverQp.accept(sb);
        server.qp = server.pd.createQueuePair(sb.build());
        QueuePairConfig.Builder cb = client.qpConfig();
        clientQp.accept(cb);
        client.qp = client.pd.createQueuePair(cb.build());
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        listener = serverRnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                listen, request -> request.accept(server.qp, accept).whenComplete((c, e) -> {
                    if (e != null) {
                        accepted.completeExceptionally(e);
                    } else {
                        accepted.complete(c);
                    }
                }));
        beforeConnect.accept(this);
        clientConnection = clientRnic.connect(listener.localAddress(), client.qp, connect).toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
        serverConnection = accepted.get(20, TimeUnit.SECONDS);
    }

    /** A registered direct buffer and the buffer itself. */
    record Mem(MemoryRegion region, ByteBuffer buf) {
        Sge sge(int offset, int length) {
            return new Sge(region, offset, length);
        }

        Stag stag() {
            return region.stag();
        }

        long address() {
            return region.address();
        }

        byte[] bytes(int offset, int length) {
            byte[] out = new byte[length];
            buf.get(offset, out);
            return out;
        }

        void put(int offset, byte[] data) {
            buf.put(offset, data);
        }
    }

    @FunctionalInterface
    interface ThrowingConsumer<T> {
        void accept(T t) throws Exception;
    }

    /**
     * A second connection between the same two RNICs: {@code serverQp} (of the server RNIC) accepts, through a
     * listener of its own that closes with these Peers, and {@code clientQp} (of the client RNIC) connects.
     *
     * @return the client's connection, once both sides are established
     */
    Connection connectAnother(QueuePair serverQp, QueuePair clientQp) throws Exception {
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        Listener another = closeLater(serverRnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                ListenOptions.defaults(), request -> request.accept(serverQp).whenComplete((c, e) -> {
                    if (e != null) {
                        accepted.completeExceptionally(e);
                    } else {
                        accepted.complete(c);
                    }
                })));
        Connection client = clientRnic.connect(another.localAddress(), clientQp, ConnectOptions.defaults())
                .toCompletableFuture().get(20, TimeUnit.SECONDS);
        accepted.get(20, TimeUnit.SECONDS);
        return client;
    }

    <T extends AutoCloseable> T closeLater(T resource) {
        toClose.add(resource);
        return resource;
    }

    @Override
    public void close() {
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        clientRnic.close();
        serverRnic.close();
    }
}
