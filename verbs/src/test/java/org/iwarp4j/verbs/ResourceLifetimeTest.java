package org.iwarp4j.verbs;

import org.assertj.core.api.Assertions;
import org.iwarp4j.verbs.Peers.Mem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** What outlives what: domains, queues, regions, completions. */
@Timeout(60)
class ResourceLifetimeTest {

    @Test
    void aProtectionDomainIsNotClosedUnderItsRegionsAndQueuePairs() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(8);
            MemoryRegion region = pd.allocateRegion(64, Access.LOCAL_WRITE);
            QueuePair qp = pd.createQueuePair(cq);
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(4, 1);
            assertThatIllegalStateException().isThrownBy(pd::close).withMessageContaining("1 memory region(s)")
                    .withMessageContaining("1 queue pair(s)").withMessageContaining("1 shared receive queue(s)");
            assertThat(region.isValid()).as("still registered").isTrue();
            assertThatIllegalStateException().isThrownBy(cq::close)
                    .withMessageContaining("queue pair(s) [" + qp.number() + "]");
            qp.close();
            cq.close();
            srq.close();
            region.close();
            pd.close();
            assertThatIllegalStateException().isThrownBy(() -> pd.allocateRegion(8)).withMessageContaining("closed");
        }
    }

    @Test
    void closingTheRnicUnbindsAWindowBeforeItDeregistersTheRegionUnderIt() throws Exception {
        MemoryRegion region;
        MemoryWindow window;
        try (Peers p = new Peers(Transport.NIO)) {
            region = p.server.pd.allocateRegion(4096, Access.LOCAL_WRITE, Access.MW_BIND);
            window = p.server.pd.allocateMemoryWindow();
            p.server.post(SendWorkRequest.BindMemoryWindow.of(1, window, region, 0, 512, Access.REMOTE_READ));
            assertThat(Completions.one(p.server.sendCq).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThatIllegalStateException().as("the application may not close it under the window")
                    .isThrownBy(region::close).withMessageContaining("memory window(s) bound");
        } // Rnic.close: the window first, then the region, no exception
        assertThat(window.isBound()).isFalse();
        assertThat(region.isValid()).isFalse();
    }

    @Test
    void aPolledCompletionDoesNotKeepItsQueuePairAlive() throws Exception {
        WorkCompletion kept;
        QueuePair qp;
        try (Peers p = new Peers(Transport.NIO)) {
            Mem src = p.client.region(8);
            p.client.post(SendWorkRequest.Send.of(1, src.sge(0, 8)));
            p.server.receive(1, p.server.region(8, Access.LOCAL_WRITE).sge(0, 8));
            kept = Completions.one(p.client.sendCq);
            qp = p.client.qp;
            assertThat(kept.queuePair()).containsSame(qp);
            assertThat(kept.queuePairNumber()).isEqualTo(qp.number());
        }
        assertThat(kept.queuePair()).as("closed with its RNIC").isEmpty();
        assertThat(kept.queuePairNumber()).isEqualTo(qp.number());
        // structurally: no field of a completion can hold a queue pair (its channel, its engine)
        for (Field f : WorkCompletion.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                assertThat(QueuePair.class.isAssignableFrom(f.getType())).as(f.getName()).isFalse();
            }
        }
    }

    @Test
    void aRegionsBufferIsItsMemoryAndTheAtomicOrderIsTheHosts() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            ByteBuffer mine = ByteBuffer.allocateDirect(32);
            MemoryRegion region = pd.register(mine, Access.LOCAL_WRITE);
            region.buffer().putLong(8, 0x0102030405060708L);
            assertThat(mine.getLong(8)).as("the same memory").isEqualTo(0x0102030405060708L);
            assertThat(region.buffer().capacity()).isEqualTo(32);
            assertThat(region.remoteBuffer()).isEqualTo(new RemoteBuffer(region.stag(), region.address(), 32));
            assertThat(region.remoteBuffer(8, 8).taggedOffset()).isEqualTo(region.address() + 8);
            assertThat(rnic.query().atomicByteOrder()).isEqualTo(ByteOrder.nativeOrder());
            region.close();
            assertThat(region.isValid()).isFalse();
        }
    }

    @Test
    void queryShowsTheLimitsAndTheConfiguredQueuePair() {
        RnicConfig config = RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).maxSge(8)
                .maxInlineData(512).maxWorkRequests(100).maxIrdOrd(32).build();
        try (Rnic rnic = Rnic.open(config)) {
            RnicAttributes a = rnic.query();
            assertThat(Arrays.asList(a.maxSge(), a.maxInlineData(), a.maxWorkRequests(), a.maxIrdOrd()))
                    .containsExactly(8, 512, 100, 32);
            assertThat(a.transport()).isEqualTo(Transport.NIO);
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(8);
            Assertions.assertThatThrownBy(() -> pd.createQueuePair(
                    QueuePairConfig.builder(cq, cq).maxSendWr(101).build()))
                    .isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.reason()).isEqualTo(VerbsException.Reason.LIMIT_EXCEEDED));
            QueuePair qp = pd.createQueuePair(QueuePairConfig.builder(cq, cq).maxSendWr(10).maxRecvWr(20).ird(3).ord(4)
                    .build());
            qp.postReceive(ReceiveWorkRequest.of(1, pd.allocateRegion(8, Access.LOCAL_WRITE)));
            QueuePairAttributes q = qp.query();
            assertThat(q.state()).isEqualTo(QueuePairState.IDLE);
            assertThat(Arrays.asList(q.maxSendWr(), q.maxRecvWr(), q.ird(), q.ord(), q.receivesPosted()))
                    .containsExactly(10, 20, 3, 4, 1);
            assertThat(q.sendsHeld()).isFalse();
        }
    }

    @Test
    void aQueuePairOnOneCompletionQueueHasTheBuildersDefaults() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(8);
            QueuePair qp = pd.createQueuePair(cq);
            QueuePairConfig expected = QueuePairConfig.builder(cq, cq).build();
            assertThat(qp.config()).isEqualTo(expected);
            assertThat(qp.config().sendCompletionQueue()).isSameAs(cq);
            assertThat(qp.config().receiveCompletionQueue()).isSameAs(cq);
            assertThat(qp.query().state()).isEqualTo(QueuePairState.IDLE);
            assertThat(qp.protectionDomain()).isSameAs(pd);
        }
    }
}
