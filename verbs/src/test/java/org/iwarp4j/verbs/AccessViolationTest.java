package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protection and untagged-buffer errors surface on both sides: the operation's completion status, the
 * Terminate (layer / error type / code, sent or received) in completions and async events.
 */
class AccessViolationTest {

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    private static final Set<SendFlag> SIGNALED = Set.of(SendFlag.SIGNALED);

    /** Both sides' first async events. */
    private static final class Watch {
        final CompletableFuture<AsyncEvent> server = new CompletableFuture<>();
        final CompletableFuture<AsyncEvent> client = new CompletableFuture<>();

        Watch(Peers p) {
            p.server.qp.onAsyncEvent(server::complete);
            p.client.qp.onAsyncEvent(client::complete);
        }
    }

    private static void assertTerminate(TerminateInfo t, TerminateInfo.Direction direction, int layer, int etype,
                                        int code) {
        assertThat(t).as("terminate").isNotNull();
        assertThat(t.direction()).isEqualTo(direction);
        assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).as(t.toString())
                .containsExactly(layer, etype, code);
    }

    private static AsyncEvent await(CompletableFuture<AsyncEvent> f) throws Exception {
        return f.get(20, TimeUnit.SECONDS);
    }

    /** A Read the responder refuses: the Read fails remotely, the responder's receive is flushed by its Terminate. */
    private static void readViolation(Transport t, int remoteOffset, int length, boolean badStag, Access[] rights,
                                      int code) throws Exception {
        try (Peers p = new Peers(t)) {
            Watch w = new Watch(p);
            Mem remote = p.server.region(4096, rights);
            Mem idle = p.server.region(16, Access.LOCAL_WRITE);
            p.server.receive(99, idle.sge(0, 16));
            Mem sink = p.client.region(8192, Access.LOCAL_WRITE);
            Stag stag = badStag ? new Stag(remote.stag().value() ^ 0x01) : remote.stag();
            p.client.post(new SendWorkRequest.RdmaRead(1, List.of(sink.sge(0, length)), stag,
                    remote.address() + remoteOffset, SIGNALED));
            WorkCompletion read = Completions.one(p.client.sendCq);
            assertThat(read.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(read.opcode()).isEqualTo(CompletionOpcode.RDMA_READ);
            // RFC 5040 §7.2: RDMAP Remote Protection Error, with the Read Request header copied (R)
            assertTerminate(read.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 0, 1, code);
            assertThat(read.terminate().orElseThrow().r()).isTrue();
            WorkCompletion flushed = Completions.one(p.server.recvCq);
            assertThat(flushed.wrId()).isEqualTo(99);
            assertThat(flushed.status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
            assertTerminate(flushed.terminate().orElseThrow(), TerminateInfo.Direction.SENT, 0, 1, code);
            AsyncEvent se = await(w.server);
            assertThat(se.type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
            assertTerminate(se.terminate().orElseThrow(), TerminateInfo.Direction.SENT, 0, 1, code);
            AsyncEvent ce = await(w.client);
            assertThat(ce.type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
            assertTerminate(ce.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 0, 1, code);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void readWithABadStag(Transport t) throws Exception {
        readViolation(t, 0, 64, true, new Access[] {Access.REMOTE_READ}, 0x00);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void readOutOfBounds(Transport t) throws Exception {
        readViolation(t, 4000, 200, false, new Access[] {Access.REMOTE_READ}, 0x01);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void readWithoutTheRemoteReadRight(Transport t) throws Exception {
        readViolation(t, 0, 64, false, new Access[] {Access.LOCAL_WRITE, Access.REMOTE_WRITE}, 0x02);
    }

    /**
     * A Write the sink refuses (DDP tagged buffer error, RFC 5041 §7.2): the Write completes locally
     * (TCP took it) or fails remotely; a Read posted behind it is flushed by the received Terminate.
     */
    private static void writeViolation(Peers p, Stag stag, long address, int length, int code) throws Exception {
        Watch w = new Watch(p);
        Mem idle = p.server.region(16, Access.LOCAL_WRITE);
        p.server.receive(99, idle.sge(0, 16));
        Mem src = p.client.region(8192);
        Mem sink = p.client.region(16, Access.LOCAL_WRITE);
        Mem readable = p.server.region(16, Access.REMOTE_READ);
        p.client.post(new SendWorkRequest.RdmaWrite(1, List.of(src.sge(0, length)), stag, address, SIGNALED));
        p.client.post(new SendWorkRequest.RdmaRead(2, List.of(sink.sge(0, 16)), readable.stag(), readable.address(),
                SIGNALED));
        List<WorkCompletion> wcs = Completions.await(p.client.sendCq, 2);
        assertThat(wcs.get(0).wrId()).isEqualTo(1);
        assertThat(wcs.get(0).status()).isIn(CompletionStatus.SUCCESS, CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(wcs.get(1).wrId()).isEqualTo(2);
        assertThat(wcs.get(1).status()).isEqualTo(CompletionStatus.TERMINATE_RECEIVED);
        assertTerminate(wcs.get(1).terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 1, code);
        // RFC 5040 Fig 10: a DDP error copies the DDP header (M, D), and here it is tagged (the Write's)
        assertThat(wcs.get(1).terminate().orElseThrow().d()).isTrue();
        assertThat(wcs.get(1).terminate().orElseThrow().ddpHeader()[0] & 0x80).isEqualTo(0x80);
        WorkCompletion flushed = Completions.one(p.server.recvCq);
        assertThat(flushed.status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
        assertTerminate(flushed.terminate().orElseThrow(), TerminateInfo.Direction.SENT, 1, 1, code);
        assertThat(await(w.server).type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
        AsyncEvent ce = await(w.client);
        assertThat(ce.type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
        assertTerminate(ce.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 1, code);
        // a request posted after the Terminate arrived is accepted and flushed with it as the cause
        assertThat(p.client.qp.state()).isIn(QueuePairState.TERMINATE, QueuePairState.CLOSING, QueuePairState.ERROR);
        p.client.post(new SendWorkRequest.RdmaRead(3, List.of(sink.sge(0, 16)), readable.stag(), readable.address(),
                SIGNALED));
        WorkCompletion late = Completions.one(p.client.sendCq);
        assertThat(late.wrId()).isEqualTo(3);
        assertThat(late.status()).isEqualTo(CompletionStatus.TERMINATE_RECEIVED);
        assertTerminate(late.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 1, code);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void writeWithABadStag(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem target = p.server.region(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            writeViolation(p, new Stag(target.stag().value() + 0x100), target.address(), 64, 0x00);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void writeOutOfBounds(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem target = p.server.region(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            writeViolation(p, target.stag(), target.address() + 4090, 64, 0x01);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void writeWithoutTheRemoteWriteRight(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Mem target = p.server.region(4096, Access.LOCAL_WRITE, Access.REMOTE_READ);
            // RFC 5041 has no code for a missing right: Invalid STag, like siw (docs/protocol/errors.md §5)
            writeViolation(p, target.stag(), target.address(), 64, 0x00);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void writeToAnInvalidatedStag(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            MemoryRegion fr = p.server.pd.allocateFastRegistration(4096);
            Stag stag = fr.stag().withNextKey();
            p.server.post(new SendWorkRequest.FastRegister(1, fr, ByteBuffer.allocateDirect(4096), stag,
                    Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE), SIGNALED));
            assertThat(Completions.one(p.server.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            Mem recv = p.server.region(16, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 16));
            Mem src = p.client.region(4096);
            // the client may write, then invalidates the region with a Send with Invalidate ...
            p.client.post(new SendWorkRequest.RdmaWrite(1, List.of(src.sge(0, 64)), stag, fr.address(), Set.of()));
            p.client.post(new SendWorkRequest.SendWithInvalidate(2, List.of(), stag, Set.of()));
            WorkCompletion inv = Completions.one(p.server.recvCq);
            assertThat(inv.invalidatedStag()).contains(stag);
            assertThat(fr.isValid()).isFalse();
            // ... after which the STag is dead.
            writeViolation(p, stag, fr.address(), 64, 0x00);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sendWithInvalidateOfARegularRegionIsRefused(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Watch w = new Watch(p);
            Mem regular = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Mem recv = p.server.region(16, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 16));
            p.client.post(new SendWorkRequest.SendWithInvalidate(1, List.of(), regular.stag(), Set.of()));
            WorkCompletion rc = Completions.one(p.server.recvCq);
            // RFC 5040 §5.3 / §8.1.1: the receive is consumed; 0x0/0x1/0x09 STag cannot be Invalidated
            assertThat(rc.status()).isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
            assertTerminate(rc.terminate().orElseThrow(), TerminateInfo.Direction.SENT, 0, 1, 0x09);
            assertThat(regular.region().isValid()).isTrue();
            AsyncEvent ce = await(w.client);
            assertTerminate(ce.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 0, 1, 0x09);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sendWithNoReceivePosted(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Watch w = new Watch(p);
            Mem src = p.client.region(64);
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 10)), SIGNALED));
            WorkCompletion sent = Completions.one(p.client.sendCq);
            assertThat(sent.status()).isIn(CompletionStatus.SUCCESS, CompletionStatus.REMOTE_INVALID_REQUEST);
            // RFC 5041 §7.2: 0x1/0x2/0x02 Invalid MSN - no buffer available (iWARP has no RNR)
            AsyncEvent se = await(w.server);
            assertThat(se.type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
            assertTerminate(se.terminate().orElseThrow(), TerminateInfo.Direction.SENT, 1, 2, 0x02);
            AsyncEvent ce = await(w.client);
            assertThat(ce.type()).isEqualTo(AsyncEvent.Type.TERMINATE_RECEIVED);
            assertTerminate(ce.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 2, 0x02);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void sendLongerThanTheReceive(Transport t) throws Exception {
        try (Peers p = new Peers(t)) {
            Watch w = new Watch(p);
            Mem recv = p.server.region(64, Access.LOCAL_WRITE);
            p.server.receive(1, recv.sge(0, 16));
            p.server.receive(2, recv.sge(16, 16));
            Mem src = p.client.region(64);
            p.client.post(new SendWorkRequest.Send(1, List.of(src.sge(0, 40)), Set.of()));
            List<WorkCompletion> rcs = Completions.await(p.server.recvCq, 2);
            assertThat(rcs.get(0).wrId()).isEqualTo(1);
            assertThat(rcs.get(0).status()).isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
            // RFC 5041 §7.2: 0x1/0x2/0x05 DDP Message too long for available buffer
            assertTerminate(rcs.get(0).terminate().orElseThrow(), TerminateInfo.Direction.SENT, 1, 2, 0x05);
            assertThat(rcs.get(1).status()).isEqualTo(CompletionStatus.TERMINATE_SENT);
            AsyncEvent ce = await(w.client);
            assertTerminate(ce.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 1, 2, 0x05);
            assertThat(await(w.server).type()).isEqualTo(AsyncEvent.Type.TERMINATE_SENT);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void atomicToAPeerWithoutRfc7306(Transport t) throws Exception {
        try (Peers p = new Peers(t, s -> s.rfc7306(false), c -> { }, ConnectOptions.defaults(),
                AcceptOptions.defaults(), x -> { })) {
            Mem target = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            p.client.post(new SendWorkRequest.AtomicFetchAdd(1, Optional.empty(), target.stag(), target.address(), 1, 0,
                    SIGNALED));
            WorkCompletion wc = Completions.one(p.client.sendCq);
            // like Linux siw (siw-interop §D): 0x0/0x2/0x06 Unexpected OpCode
            assertThat(wc.status()).isEqualTo(CompletionStatus.REMOTE_INVALID_REQUEST);
            assertTerminate(wc.terminate().orElseThrow(), TerminateInfo.Direction.RECEIVED, 0, 2, 0x06);
        }
    }
}
