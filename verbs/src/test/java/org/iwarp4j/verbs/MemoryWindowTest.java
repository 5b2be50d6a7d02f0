package org.iwarp4j.verbs;

import org.assertj.core.api.Assertions;
import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.DisconnectReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Memory windows (type 2): a window grants the peer of one queue pair remote access to part of a region; it is
 * bound by a work request and revoked by a local invalidate or the peer's Send with Invalidate (RFC 5040 §5.3,
 * §8.1.1; RFC 5041 §8.2 for the association of an STag with one stream).
 */
@Timeout(60)
class MemoryWindowTest {

    private static final Access[] RW = {Access.REMOTE_READ, Access.REMOTE_WRITE};

    /** Binds a window over {@code [offset, offset + length)} of {@code region} on the server's queue pair. */
    private static MemoryWindow bind(Peers p, MemoryRegion region, long offset, long length, Access... access) {
        MemoryWindow w = p.server.pd.allocateMemoryWindow();
        assertThat(w.isBound()).isFalse();
        p.server.post(SendWorkRequest.BindMemoryWindow.of(1, w, region, offset, length, access));
        WorkCompletion wc = Completions.one(p.server.sendCq);
        assertThat(wc.opcode()).isEqualTo(CompletionOpcode.BIND_MEMORY_WINDOW);
        assertThat(wc.status()).as(wc.toString()).isEqualTo(CompletionStatus.SUCCESS);
        return w;
    }

    private static MemoryRegion bindable(Peers p, int length) {
        return p.server.pd.allocateRegion(length, Access.LOCAL_WRITE, Access.MW_BIND);
    }

    @Test
    void aWindowOpensPartOfARegionToThePeer() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryRegion region = bindable(p, 4096);
            MemoryWindow w = bind(p, region, 1024, 512, RW);
            assertThat(w.isBound()).isTrue();
            assertThat(w.address()).isEqualTo(region.address() + 1024);
            assertThat(w.length()).isEqualTo(512);
            assertThat(w.region()).containsSame(region);
            assertThat(w.queuePair()).containsSame(p.server.qp);
            assertThat(w.stag().index()).as("its own STag").isNotEqualTo(region.stag().index());
            RemoteBuffer advert = w.remoteBuffer();
            Mem src = p.client.region(64);
            src.put(0, "through the window".getBytes(StandardCharsets.US_ASCII));
            p.client.post(SendWorkRequest.RdmaWrite.of(1, src.sge(0, 18), advert.slice(100, 18)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            Mem sink = p.client.region(64, Access.LOCAL_WRITE);
            p.client.post(SendWorkRequest.RdmaRead.of(2, sink.sge(0, 18), advert.slice(100, 18)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(new String(sink.bytes(0, 18), StandardCharsets.US_ASCII)).isEqualTo("through the window");
            byte[] landed = new byte[18];
            region.buffer().get(1024 + 100, landed);
            assertThat(new String(landed, StandardCharsets.US_ASCII)).as("in the region's memory").isEqualTo(
                    "through the window");
            assertThatIllegalStateException().isThrownBy(region::close).withMessageContaining("memory window");
            assertThatIllegalStateException().isThrownBy(() -> p.server.pd.close()).withMessageContaining("window");
        }
    }

    /** {@code beyond}: a Read beyond the window; else a Write the window grants no right for. */
    @ParameterizedTest(name = "beyond the window: {0}")
    @ValueSource(booleans = {true, false})
    void thePeerCannotReachBeyondTheWindowOrUseRightsItLacks(boolean beyond) throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryRegion region = bindable(p, 4096);
            MemoryWindow w = bind(p, region, 0, 256, Access.REMOTE_READ);
            Mem src = p.client.region(64);
            Mem sink = p.client.region(64, Access.LOCAL_WRITE);
            RemoteBuffer outside = new RemoteBuffer(w.stag(), w.address() + 250, 16); // 6 octets too far
            p.client.post(beyond ? SendWorkRequest.RdmaRead.of(1, sink.sge(0, 16), outside)
                    : SendWorkRequest.RdmaWrite.of(1, src.sge(0, 16), w.remoteBuffer())); // no REMOTE_WRITE
            WorkCompletion wc = Completions.one(p.client.sendCq);
            // a Read completes with the peer's verdict; a Write completed when TCP took it (RFC 5040 §5.5)
            assertThat(wc.status()).as(wc.toString()).isIn(CompletionStatus.REMOTE_ACCESS_ERROR,
                    beyond ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.SUCCESS);
            var end = p.clientConnection.closeFuture().get(20, TimeUnit.SECONDS);
            assertThat(end.reason()).isEqualTo(DisconnectReason.TERMINATE_RECEIVED);
            TerminateInfo t = ((TerminateException) end.cause().orElseThrow()).terminate();
            // a Read beyond: RFC 5040 §7.2 RDMAP Remote Protection, base or bounds violation (0x0/0x1/0x01); a
            // Write without the right: a DDP tagged buffer error (RFC 5041 §7.1), Invalid STag, as for a region
            assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).as(t.toString())
                    .containsExactly(beyond ? 0 : 1, 1, beyond ? 0x01 : 0x00);
        }
    }

    @Test
    void aLocalInvalidateRevokesTheWindowAndARebindMovesIt() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryRegion region = bindable(p, 4096);
            MemoryWindow w = bind(p, region, 0, 128, RW);
            Stag first = w.stag();
            p.server.post(SendWorkRequest.LocalInvalidate.of(2, w));
            assertThat(Completions.one(p.server.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(w.isBound()).isFalse();
            region.close(); // nothing bound to it any more
            MemoryRegion other = bindable(p, 4096);
            p.server.post(SendWorkRequest.BindMemoryWindow.of(3, w, other, 2048, 64, Access.REMOTE_READ));
            assertThat(Completions.one(p.server.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(w.stag()).isNotEqualTo(first).extracting(Stag::index).isEqualTo(first.index());
            // the old STag names nothing now: the peer's Read with it is a remote access error
            Mem sink = p.client.region(64, Access.LOCAL_WRITE);
            p.client.post(SendWorkRequest.RdmaRead.of(4, sink.sge(0, 8), new RemoteBuffer(first, 0, 8)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        }
    }

    /**
     * docs/guide.md, "Memory windows": binds posted in one go take their keys from the requests. A second bind built
     * on the first's {@code newStag()} moves the window even though the first has not executed when it is posted,
     * and the last bind's {@code remoteBuffer()} is the advert the peer can use.
     */
    @Test
    void aBindChainedOnTheFirstBindsNewStagMovesTheWindowAndItsAdvertWorks() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryRegion region = bindable(p, 4096);
            MemoryWindow w = p.server.pd.allocateMemoryWindow();
            Stag initial = w.stag();
            SendWorkRequest.BindMemoryWindow first = SendWorkRequest.BindMemoryWindow.of(1, w, region, 0, 128, RW);
            SendWorkRequest.BindMemoryWindow second = new SendWorkRequest.BindMemoryWindow(2, w,
                    first.newStag().withNextKey(), region, 1024, 512, Set.of(RW), SendWorkRequest.SIGNALED);
            assertThat(first.newStag()).isEqualTo(initial.withNextKey());
            p.server.post(first);
            p.server.post(second); // without waiting for the first: w.stag() may not have moved yet
            assertThat(Completions.await(p.server.sendCq, 2))
                    .extracting(WorkCompletion::wrId, WorkCompletion::opcode, WorkCompletion::status).containsExactly(
                            tuple(1L, CompletionOpcode.BIND_MEMORY_WINDOW, CompletionStatus.SUCCESS),
                            tuple(2L, CompletionOpcode.BIND_MEMORY_WINDOW, CompletionStatus.SUCCESS));
            assertThat(w.stag()).isEqualTo(second.newStag()).extracting(Stag::index).isEqualTo(initial.index());
            RemoteBuffer advert = second.remoteBuffer();
            assertThat(advert).isEqualTo(new RemoteBuffer(second.newStag(), region.address() + 1024, 512))
                    .isEqualTo(w.remoteBuffer());
            // the peer writes through the advert, and reads it back (so the Write has been placed)
            byte[] text = "chained binds".getBytes(StandardCharsets.US_ASCII);
            Mem src = p.client.region(64);
            src.put(0, text);
            p.client.post(SendWorkRequest.RdmaWrite.of(3, src.sge(0, text.length), advert.slice(100, text.length)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            Mem sink = p.client.region(64, Access.LOCAL_WRITE);
            p.client.post(SendWorkRequest.RdmaRead.of(4, sink.sge(0, text.length), advert.slice(100, text.length)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(sink.bytes(0, text.length)).isEqualTo(text);
            byte[] landed = new byte[text.length];
            region.buffer().get(1024 + 100, landed);
            assertThat(landed).as("in the region's memory, at the second binding's offset").isEqualTo(text);
            // the first binding's advert names nothing any more
            p.client.post(SendWorkRequest.RdmaRead.of(5, sink.sge(0, 8), first.remoteBuffer().slice(0, 8)));
            assertThat(Completions.one(p.client.sendCq).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        }
    }

    @Test
    void thePeersSendWithInvalidateRevokesAWindowBoundToItsConnection() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryWindow w = bind(p, bindable(p, 4096), 0, 128, RW);
            Mem recv = p.server.region(16, Access.LOCAL_WRITE);
            p.server.receive(7, recv.sge(0, 16));
            p.client.post(SendWorkRequest.SendWithInvalidate.of(1, w.stag(), p.client.region(8).sge(0, 8)));
            WorkCompletion wc = Completions.one(p.server.recvCq);
            assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(wc.invalidatedStag()).contains(w.stag());
            assertThat(w.isBound()).isFalse();
            w.close();
        }
    }

    @Test
    void aWindowBoundOnOneQueuePairIsNotUsableThroughAnother() throws Exception {
        try (Peers a = new Peers(Transport.NIO)) {
            // a second connection of the same server RNIC and protection domain
            MemoryRegion region = a.server.pd.allocateRegion(4096, Access.LOCAL_WRITE, Access.MW_BIND,
                    Access.REMOTE_READ);
            MemoryWindow w = bind(a, region, 0, 256, Access.REMOTE_READ);
            QueuePair other = a.server.pd.createQueuePair(a.server.qpConfig().build());
            QueuePair client2 = a.client.pd.createQueuePair(a.client.qpConfig().build());
            a.connectAnother(other, client2);
            Mem sink = a.client.region(64, Access.LOCAL_WRITE);
            // the region itself is readable by any connection of the domain; the window only by its own
            client2.postSend(SendWorkRequest.RdmaRead.of(1, sink.sge(0, 8), region.remoteBuffer(0, 8)));
            assertThat(Completions.one(a.client.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            client2.postSend(SendWorkRequest.RdmaRead.of(2, sink.sge(0, 8), w.remoteBuffer().slice(0, 8)));
            assertThat(Completions.one(a.client.sendCq).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            a.client.post(SendWorkRequest.RdmaRead.of(3, sink.sge(0, 8), w.remoteBuffer().slice(0, 8)));
            assertThat(Completions.one(a.client.sendCq).status()).as("its own connection still can").isEqualTo(
                    CompletionStatus.SUCCESS);
        }
    }

    @Test
    void aBindTheRegionDoesNotAllowFailsWithABindError() throws Exception {
        try (Peers p = new Peers(Transport.NIO)) {
            MemoryRegion plain = p.server.pd.allocateRegion(256, Access.LOCAL_WRITE);
            MemoryWindow w = p.server.pd.allocateMemoryWindow();
            p.server.post(SendWorkRequest.BindMemoryWindow.of(1, w, plain, 0, 64, Access.REMOTE_READ));
            assertThat(Completions.one(p.server.sendCq).status()).isEqualTo(CompletionStatus.MEMORY_WINDOW_BIND_ERROR);
            MemoryRegion readOnly = p.server.pd.allocateRegion(256, Access.MW_BIND);
            p.server.post(SendWorkRequest.BindMemoryWindow.of(2, w, readOnly, 0, 64, Access.REMOTE_WRITE));
            assertThat(Completions.one(p.server.sendCq).status()).as("remote write needs a locally writable region")
                    .isEqualTo(CompletionStatus.MEMORY_WINDOW_BIND_ERROR);
            assertThat(w.isBound()).isFalse();
            assertThat(Assertions.catchThrowableOfType(VerbsException.class, () -> p.server.post(
                    SendWorkRequest.BindMemoryWindow.of(3, w, plain, 200, 64, Access.REMOTE_READ))).reason())
                    .isEqualTo(VerbsException.Reason.INVALID_REQUEST);
            Assertions.assertThatIllegalArgumentException().isThrownBy(() ->
                    SendWorkRequest.BindMemoryWindow.of(4, w, plain, 0, 8, Access.LOCAL_WRITE));
        }
    }
}
