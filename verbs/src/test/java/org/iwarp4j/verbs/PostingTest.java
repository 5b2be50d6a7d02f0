package org.iwarp4j.verbs;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ConnectionRequestHandler;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.netty.NettyVerbs;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class PostingTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    @Test
    void accessRulesOfIbvRegMr() {
        assertThatThrownBy(() -> Access.validate(Set.of(Access.REMOTE_WRITE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REMOTE_WRITE requires LOCAL_WRITE");
        assertThatThrownBy(() -> Access.validate(Set.of(Access.REMOTE_ATOMIC, Access.REMOTE_READ)))
                .hasMessageContaining("REMOTE_ATOMIC requires LOCAL_WRITE");
        assertThat(Access.validate(Set.of(Access.REMOTE_READ))).containsExactly(Access.REMOTE_READ);
    }

    @Test
    void stagLayoutAndKeyChanges() throws Exception {
        assertThat(Stag.of(0x123456, 0x78).value()).isEqualTo(0x12345678);
        assertThat(new Stag(0x12345678).toString()).isEqualTo("0x12345678");
        assertThat(new Stag(0x1a).toString()).isEqualTo("0x0000001a");
        assertThat(new Stag(-1).toString()).isEqualTo("0xffffffff");
        assertThat(new TerminateInfo(TerminateInfo.Direction.SENT, 1, 2, 5, "", false, false, false, new byte[0],
                new byte[0]).codes()).isEqualTo("0x1/0x2/0x05");
        assertThat(new TerminateInfo(TerminateInfo.Direction.SENT, 0, 0xf, 0xab, "", false, false, false,
                new byte[0], new byte[0]).codes()).isEqualTo("0x0/0xF/0xAB");
        assertThat(new Stag(0x123456FF).withNextKey()).isEqualTo(new Stag(0x12345600));
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            ByteBuffer memory = ByteBuffer.allocateDirect(64);
            MemoryRegion a = pd.register(memory, Set.of());
            Stag first = a.stag();
            assertThat(first.index()).isNotZero();
            a.close();
            assertThat(a.isValid()).isFalse();
            // the index is reused with a new key: the old STag never names the new region
            MemoryRegion b = pd.register(memory, Set.of());
            assertThat(b.stag().index()).isEqualTo(first.index());
            assertThat(b.stag()).isNotEqualTo(first);
            b.close();
        }
    }

    @Test
    void registeredPooledBufferStaysAliveUntilTheRegionCloses() throws Exception {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(256);
            MemoryRegion region = NettyVerbs.register(pd, buf, Set.of(Access.LOCAL_WRITE));
            assertThat(region.length()).isEqualTo(256);
            assertThat(region.address()).isEqualTo(buf.memoryAddress());
            buf.release();
            assertThat(buf.refCnt()).as("the region holds a reference").isPositive();
            region.close();
            assertThat(buf.refCnt()).isZero();
            ByteBuf heap = ByteBufAllocator.DEFAULT.heapBuffer(100);
            MemoryRegion h = NettyVerbs.register(pd, heap, Set.of());
            assertThat(h.address()).as("synthetic base for heap memory").isNotZero();
            h.close();
            heap.release();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void postingErrorsNameTheRequestAndTheReason(Transport t) throws Exception {
        try (Peers p = new Peers(t, s -> { }, c -> c.maxSge(2).maxSendWr(4).maxInlineData(16).rfc7306(false),
                ConnectOptions.defaults(), AcceptOptions.defaults(), x -> { })) {
            Mem m = p.client.region(64, Access.LOCAL_WRITE);
            Mem readOnly = p.client.region(64);
            Mem foreign = p.server.region(64, Access.LOCAL_WRITE);
            SendWorkRequest tooMany =
                    new SendWorkRequest.Send(1, List.of(m.sge(0, 1), m.sge(1, 1), m.sge(2, 1)), Set.of());
            VerbsException e = catchThrowableOfType(VerbsException.class, () -> p.client.post(tooMany));
            assertThat(e.reason()).isEqualTo(VerbsException.Reason.TOO_MANY_SGES);
            assertThat(e.workRequest()).containsSame(tooMany);
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.post(new SendWorkRequest.Send(2,
                    List.of(foreign.sge(0, 8)), Set.of()))).reason()).isEqualTo(VerbsException.Reason.INVALID_SGE);
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.post(new SendWorkRequest.Send(3,
                    List.of(m.sge(60, 8)), Set.of()))).reason()).isEqualTo(VerbsException.Reason.INVALID_SGE);
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.post(new SendWorkRequest.RdmaRead(4,
                    List.of(readOnly.sge(0, 8)), foreign.stag(), 0, Set.of()))).getMessage()).contains("LOCAL_WRITE");
            assertThat(catchThrowableOfType(VerbsException.class,
                    () -> p.client.post(new SendWorkRequest.ImmediateData(5, 1, Set.of()))).reason())
                    .isEqualTo(VerbsException.Reason.NEEDS_RFC7306);
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.post(new SendWorkRequest.Send(6,
                    List.of(m.sge(0, 32)), Set.of(SendFlag.INLINE)))).reason())
                    .isEqualTo(VerbsException.Reason.INVALID_REQUEST);
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.qp.postReceive(
                    ReceiveWorkRequest.of(7, readOnly.sge(0, 8)))).reason())
                    .isEqualTo(VerbsException.Reason.INVALID_SGE);
            // queue full: fill the 4-deep send queue with Reads that cannot complete before we look
            Mem remote = p.server.region(1 << 20, Access.REMOTE_READ);
            Mem sink = p.client.region(1 << 20, Access.LOCAL_WRITE);
            VerbsException full = null;
            for (int i = 0; i < 1000 && full == null; i++) {
                try {
                    p.client.post(new SendWorkRequest.RdmaRead(100 + i, List.of(sink.sge(0, 1 << 20)), remote.stag(),
                            remote.address(), Set.of()));
                } catch (VerbsException ex) {
                    full = ex;
                }
            }
            assertThat(full).isNotNull();
            assertThat(full.reason()).isEqualTo(VerbsException.Reason.QUEUE_FULL);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void inlineDataNeedsNoRegistrationAndMayBeReusedAtOnce(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem recv = p.server.region(64, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 64));
            ByteBuffer heap = ByteBuffer.wrap("copied when posted".getBytes(StandardCharsets.US_ASCII));
            p.client.post(SendWorkRequest.Send.inline(1, heap));
            Arrays.fill(heap.array(), (byte) 'x'); // the post returned: the buffer is ours again
            WorkCompletion wc = Completions.one(p.server.recvCq);
            assertThat(wc.byteLength()).isEqualTo(18);
            assertThat(new String(recv.bytes(0, 18), StandardCharsets.US_ASCII)).isEqualTo("copied when posted");
            // unregistered memory without the INLINE flag is refused, naming the rule
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.client.post(new SendWorkRequest.Send(2,
                    List.of(Sge.inline(heap)), Set.of()))).getMessage()).contains("needs SendFlag.INLINE");
            // and never as a receive
            assertThat(catchThrowableOfType(VerbsException.class, () -> p.server.qp.postReceive(
                    ReceiveWorkRequest.of(3, Sge.inline(ByteBuffer.allocate(8))))).reason())
                    .isEqualTo(VerbsException.Reason.INVALID_SGE);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sendsBeforeConnectingAreRefusedReceivesAreKept(Transport t) throws Exception {
        List<Mem> recv = new ArrayList<>();
        try (Peers p = new Peers(t, s -> { }, c -> { }, ConnectOptions.defaults(), AcceptOptions.defaults(), peers -> {
            // siw-interop §B1: receives posted before the connection exists are in place for the first Send
            Mem r = peers.server.region(64, Access.LOCAL_WRITE);
            recv.add(r);
            peers.server.receive(1, r.sge(0, 32));
            peers.server.receive(2, r.sge(32, 32));
            Mem any = peers.client.region(8);
            assertThat(catchThrowableOfType(VerbsException.class, () -> peers.client.post(new SendWorkRequest.Send(1,
                    List.of(any.sge(0, 8)), Set.of()))).reason()).isEqualTo(VerbsException.Reason.WRONG_STATE);
        })) {
            Mem src = p.client.region(64);
            src.put(0, new byte[] {1, 2, 3, 4});
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 4)), Set.of()));
            p.client.post(new SendWorkRequest.Send(2, List.of(src.sge(0, 3)), Set.of()));
            List<WorkCompletion> wcs = Completions.await(p.server.recvCq, 2);
            assertThat(wcs).extracting(WorkCompletion::wrId).containsExactly(1L, 2L);
            assertThat(wcs).extracting(WorkCompletion::byteLength).containsExactly(4L, 3L);
            assertThat(recv.get(0).bytes(32, 3)).containsExactly(1, 2, 3);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aFullReceiveQueueBeforeConnectingHoldsExactlyMaxRecvWr(Transport t) throws Exception {
        int depth = 5; // the hand-over queue rounds up to 8: the limit is the queue pair's, never the queue's
        List<Mem> recv = new ArrayList<>();
        try (Peers p = new Peers(t, s -> s.maxRecvWr(depth), c -> { }, ConnectOptions.defaults(),
                AcceptOptions.defaults(), peers -> {
            Mem r = peers.server.region(8 * depth, Access.LOCAL_WRITE);
            recv.add(r);
            for (int i = 0; i < depth; i++) {
                peers.server.receive(i, r.sge(8 * i, 8));
            }
            assertThat(catchThrowableOfType(VerbsException.class, () -> peers.server.receive(99, r.sge(0, 8)))
                    .reason()).isEqualTo(VerbsException.Reason.QUEUE_FULL);
        })) {
            Mem src = p.client.region(8);
            for (int i = 0; i < depth; i++) {
                src.buf().put(0, (byte) (i + 1));
                p.client.post(new SendWorkRequest.Send(i, List.of(src.sge(0, 1)), Set.of()));
                Completions.one(p.server.recvCq); // in order: the next Send reads the next octet value
            }
            for (int i = 0; i < depth; i++) {
                assertThat(recv.get(0).bytes(8 * i, 1)).containsExactly(i + 1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void preparedSendReexecutes(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem target = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Mem src = p.client.region(64);
            try (PreparedSend prepared = p.client.qp.prepare(new SendWorkRequest.RdmaWrite(5, List.of(src.sge(0, 8)),
                    target.stag(), target.address(), SIGNALED))) {
                for (int i = 0; i < 50; i++) {
                    src.buf().putLong(0, i);
                    prepared.execute();
                    WorkCompletion wc = Completions.one(p.client.sendCq);
                    assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
                    assertThat(wc.wrId()).isEqualTo(5);
                }
            }
            // the last Write landed (a Read behind it sees it)
            Mem sink = p.client.region(8, Access.LOCAL_WRITE);
            Mem readable = p.server.region(8, Access.REMOTE_READ);
            p.client.post(new SendWorkRequest.RdmaRead(6, List.of(sink.sge(0, 8)), readable.stag(), readable.address(),
                    SIGNALED));
            Completions.one(p.client.sendCq);
            assertThat(target.buf().getLong(0)).isEqualTo(49);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aPolledSendCompletionHasFreedItsSlotAlready(Transport t) throws Exception {
        int depth = 4;
        try (Peers p = new Peers(t, s -> { }, c -> c.maxSendWr(depth), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            Mem target = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Mem src = p.client.region(64);
            try (PreparedSend write = p.client.qp.prepare(new SendWorkRequest.RdmaWrite(9, List.of(src.sge(0, 8)),
                    target.stag(), target.address(), SIGNALED))) {
                for (int i = 0; i < depth; i++) {
                    write.execute();
                }
                WorkCompletion[] one = {new WorkCompletion()};
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                // A full send queue: every completion polled makes room for exactly one more request, at once.
                for (int done = 0; done < 3000; ) {
                    if (p.client.sendCq.poll(one) == 0) {
                        assertThat(System.nanoTime()).as("completions keep coming").isLessThan(deadline);
                        Thread.onSpinWait();
                        continue;
                    }
                    assertThat(one[0].status()).isEqualTo(CompletionStatus.SUCCESS);
                    done++;
                    write.execute(); // QUEUE_FULL here would mean the slot was freed after its completion
                }
                Completions.await(p.client.sendCq, depth);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void executingAPreparedSendAllocatesNothingOnTheCallersThread(Transport t) throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        try (Peers p = new Peers(t, s -> { }, c -> c.maxSendWr(4096), ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            Mem target = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Mem src = p.client.region(64);
            try (PreparedSend write = p.client.qp.prepare(new SendWorkRequest.RdmaWrite(1, List.of(src.sge(0, 8)),
                    target.stag(), target.address(), Set.of()));
                 PreparedSend marker = p.client.qp.prepare(new SendWorkRequest.RdmaWrite(2, List.of(src.sge(0, 8)),
                         target.stag(), target.address(), SIGNALED))) {
                long measured = 0;
                int executions = 0;
                for (int round = 0; round < 4; round++) {
                    long before = threads.getThreadAllocatedBytes(self);
                    for (int i = 0; i < 2000; i++) {
                        write.execute();
                    }
                    long after = threads.getThreadAllocatedBytes(self);
                    if (round > 0) { // round 0 warms up (JIT, queue chunks)
                        measured += after - before;
                        executions += 2000;
                    }
                    marker.execute();
                    Completions.one(p.client.sendCq);
                }
                assertThat((double) measured / executions).as("bytes allocated per execute()").isLessThan(8.0);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sharedReceiveQueueFeedsTwoQueuePairs(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            // a second server queue pair and the first, both on one shared receive queue, via a fresh listener
            SharedReceiveQueue srq = p.server.pd.createSharedReceiveQueue(16, 2);
            Mem recv = p.server.region(16 * 32, Access.LOCAL_WRITE);
            for (int i = 0; i < 16; i++) {
                srq.postReceive(ReceiveWorkRequest.of(1000 + i, recv.sge(i * 32, 32)));
            }
            assertThat(srq.available()).isEqualTo(16);
            QueuePair a = p.server.pd.createQueuePair(p.server.qpConfig().sharedReceiveQueue(srq).build());
            QueuePair b = p.server.pd.createQueuePair(p.server.qpConfig().sharedReceiveQueue(srq).build());
            assertThat(catchThrowableOfType(VerbsException.class, () -> a.postReceive(ReceiveWorkRequest.of(1,
                    recv.sge(0, 8)))).reason()).isEqualTo(VerbsException.Reason.WRONG_STATE);
            List<QueuePair> servers = List.of(a, b);
            var listener = p.serverRnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.defaults(), new ConnectionRequestHandler() {
                        int next;

                        @Override
                        public void onConnectionRequest(ConnectionRequest request) {
                            request.accept(servers.get(next++), AcceptOptions.defaults());
                        }
                    });
            List<QueuePair> clients = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                QueuePair c = p.client.pd.createQueuePair(p.client.qpConfig().build());
                p.clientRnic.connect(listener.localAddress(), c, ConnectOptions.defaults()).toCompletableFuture()
                        .get(20, TimeUnit.SECONDS);
                clients.add(c);
            }
            Mem src = p.client.region(64);
            for (int i = 0; i < 5; i++) {
                clients.get(0).postSend(new SendWorkRequest.Send(i, List.of(src.sge(0, 10)), Set.of()));
                clients.get(1).postSend(new SendWorkRequest.Send(i, List.of(src.sge(0, 20)), Set.of()));
            }
            List<WorkCompletion> wcs = Completions.await(p.server.recvCq, 10);
            assertThat(wcs).extracting(WorkCompletion::status).containsOnly(CompletionStatus.SUCCESS);
            assertThat(wcs).extracting(WorkCompletion::wrId).doesNotHaveDuplicates()
                    .allMatch(id -> id >= 1000 && id < 1016);
            assertThat(wcs.stream().filter(w -> w.queuePairNumber() == a.number())
                            .mapToLong(WorkCompletion::byteLength))
                    .containsOnly(10L).hasSize(5);
            assertThat(wcs.stream().filter(w -> w.queuePairNumber() == b.number())
                            .mapToLong(WorkCompletion::byteLength))
                    .containsOnly(20L).hasSize(5);
            assertThat(srq.available()).isEqualTo(6);
            listener.close();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void completionQueueOverflowFailsTheQueuePair(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            CompletionQueue tiny = p.client.rnic.createCompletionQueue(2);
            QueuePair qp = p.client.pd.createQueuePair(tiny);
            CompletableFuture<AsyncEvent> event = new CompletableFuture<>();
            qp.onAsyncEvent(ev -> {
                if (ev.type() == AsyncEvent.Type.COMPLETION_QUEUE_OVERFLOW) {
                    event.complete(ev);
                }
            });
            var listener = p.serverRnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ListenOptions.defaults(), r -> {
                        try {
                            r.accept(p.server.pd.createQueuePair(p.server.qpConfig().build()),
                                    AcceptOptions.defaults());
                        } catch (VerbsException e) {
                            throw new IllegalStateException(e);
                        }
                    });
            p.clientRnic.connect(listener.localAddress(), qp, ConnectOptions.defaults()).toCompletableFuture()
                    .get(20, TimeUnit.SECONDS);
            for (int i = 0; i < 3; i++) {
                qp.postSend(new SendWorkRequest.RdmaWrite(i, List.of(), new Stag(0x100), 0, SIGNALED));
            }
            assertThat(event.get(20, TimeUnit.SECONDS).queuePair()).isSameAs(qp);
            listener.close();
        }
    }
}
