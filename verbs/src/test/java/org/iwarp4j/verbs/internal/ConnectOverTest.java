package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.common.MpaOptions;
import org.iwarp4j.mpa.MpaConfig;
import org.iwarp4j.mpa.fpdu.FpduWriter;
import org.iwarp4j.mpa.frame.EnhancedConnectionData;
import org.iwarp4j.mpa.frame.MpaFrame;
import org.iwarp4j.mpa.frame.MpaFrameCodec;
import org.iwarp4j.mpa.frame.MpaFrameType;
import org.iwarp4j.mpa.startup.InitiatorStartup;
import org.iwarp4j.testkit.fuzz.LeakCheckingAllocator;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairState;
import org.iwarp4j.verbs.RemoteBuffer;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest.RdmaRead;
import org.iwarp4j.verbs.Sge;
import org.iwarp4j.verbs.Stag;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ConnectionRequest;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The test seam of the stateful fuzz target ({@link QueuePairFuzzTest}): an RNIC on an embedded channel's loop,
 * a queue pair connected over that channel with {@link RnicImpl#connectOver}, the peer played by the test.
 */
class ConnectOverTest {

    private final LeakCheckingAllocator alloc = new LeakCheckingAllocator();

    @Test
    void aQueuePairOverAnEmbeddedChannelReachesFullOperationPlacesAWriteAndFlushesOnClose() {
        TcpLikeChannel ch = new TcpLikeChannel();
        ch.config().setAllocator(alloc);
        RnicImpl rnic = new RnicImpl(RnicConfig.builder().name("seam").maxStags(8).build(), alloc, ch.eventLoop());
        ProtectionDomain pd = rnic.allocateProtectionDomain();
        CompletionQueue cq = rnic.createCompletionQueue(8);
        ByteBuf memory = alloc.heapBuffer(64, 64).writeZero(64);
        MemoryRegion region = RnicImpl.registerByteBuf(pd, memory, EnumSet.of(Access.LOCAL_WRITE,
                Access.REMOTE_WRITE));
        QueuePair qp = pd.createQueuePair(cq);
        CompletableFuture<Connection> connecting = rnic.connectOver(ch, qp, ConnectOptions.builder()
                .mpa(MpaOptions.builder().revision(2).crc(true).markers(false).build()).build());

        ByteBuf sent = ch.readOutbound();
        MpaFrame request = MpaFrameCodec.parse(sent);
        sent.release();
        assertThat(request.type()).isEqualTo(MpaFrameType.REQUEST);
        MpaFrame reply = MpaFrame.enhanced(MpaFrameType.REPLY, false, true, false,
                new EnhancedConnectionData(false, false, 4, false, false, 4), new byte[0]);
        ByteBuf out = alloc.buffer();
        MpaFrameCodec.encode(reply, out);
        ch.writeInbound(out);
        ch.runPendingTasks();
        assertThat(connecting).isCompleted();
        assertThat(connecting.join().remoteAddress()).isEqualTo(TcpLikeChannel.REMOTE);
        assertThat(qp.state()).isEqualTo(QueuePairState.RTS);

        // The peer writes "hi" at offset 8 of the region: tagged, last, RDMAP Write.
        int stag = region.stag().value();
        ByteBuf write = alloc.buffer().writeByte(0xc1).writeByte(0x40).writeInt(stag)
                .writeLong(region.address() + 8).writeBytes(new byte[] {'h', 'i'});
        ch.writeInbound(new FpduWriter(true, false, 65535, 0).encode(write, alloc));
        ch.runPendingTasks();
        assertThat(memory.getByte(8)).isEqualTo((byte) 'h');
        assertThat(memory.getByte(9)).isEqualTo((byte) 'i');

        qp.postSend(RdmaRead.of(7, new Sge(region, 0, 8), new RemoteBuffer(new Stag(0x1234), 0, 8)));
        ch.runPendingTasks();
        ByteBuf readRequest = ch.readOutbound();
        assertThat(readRequest).isNotNull();
        readRequest.release();
        qp.close();
        ch.runPendingTasks();
        List<WorkCompletion> completions = new ArrayList<>();
        cq.drain(wc -> completions.add(wc.copy()));
        assertThat(completions).singleElement().satisfies(wc -> {
            assertThat(wc.wrId()).isEqualTo(7);
            assertThat(wc.status()).isEqualTo(CompletionStatus.WORK_REQUEST_FLUSHED);
        });
        assertThat(ch.isOpen()).isFalse();

        cq.close();
        region.close();
        pd.close();
        rnic.close();
        ch.finishAndReleaseAll();
        memory.release();
        alloc.assertNoLeaks();
    }

    @Test
    void closingTheRnicClosesAConnectionWhoseRequestWaitsForTheApplication() {
        TcpLikeChannel ch = new TcpLikeChannel();
        ch.config().setAllocator(alloc);
        RnicImpl rnic = new RnicImpl(RnicConfig.builder().name("seam").maxStags(8).build(), alloc, ch.eventLoop());
        List<ConnectionRequest> held = new ArrayList<>();
        rnic.acceptOver(ch, ListenOptions.defaults(), held::add); // the application holds it, undecided
        ByteBuf request = alloc.buffer();
        MpaFrameCodec.encode(new InitiatorStartup(MpaConfig.defaults(), 1460).request(), request);
        ch.writeInbound(request);
        ch.runPendingTasks();
        assertThat(held).hasSize(1);
        assertThat(ch.isOpen()).isTrue();

        rnic.close(); // the loop is not the RNIC's: only the RNIC itself can close what it accepted
        assertThat(ch.isOpen()).as("the connection still waiting for a decision").isFalse();
        ch.finishAndReleaseAll();
        alloc.assertNoLeaks();
    }

    @Test
    void aChannelOfAnotherLoopIsRefused() {
        TcpLikeChannel ours = new TcpLikeChannel();
        TcpLikeChannel other = new TcpLikeChannel();
        RnicImpl rnic = new RnicImpl(RnicConfig.builder().name("seam").maxStags(8).build(), alloc,
                ours.eventLoop());
        CompletionQueue cq = rnic.createCompletionQueue(8);
        QueuePair qp = rnic.allocateProtectionDomain().createQueuePair(cq);
        assertThatThrownBy(() -> rnic.connectOver(other, qp, ConnectOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another loop");
        assertThat(qp.state()).isEqualTo(QueuePairState.IDLE); // untouched: it may still connect
        rnic.close();
        ours.finishAndReleaseAll();
        other.finishAndReleaseAll();
    }
}
