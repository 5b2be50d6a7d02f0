package org.iwarp4j.verbs.internal;

import io.netty.buffer.ByteBuf;
import org.iwarp4j.ddp.memory.ByteBufTaggedBuffer;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.PreparedSend;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest;
import org.iwarp4j.verbs.VerbsException;
import org.iwarp4j.verbs.Transport;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What an RNIC keeps of the resources an application made and closed. */
class RnicResourcesTest {

    /** One NIO event loop: what these tests hold does not depend on the transport. */
    private static Rnic nioRnic() {
        return Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build());
    }

    @Test
    void aClosedCompletionQueueOrChannelIsNotKeptUntilTheRnicCloses() {
        try (Rnic rnic = nioRnic()) {
            RnicImpl impl = (RnicImpl) rnic;
            CompletionChannel kept = rnic.createCompletionChannel();
            CompletionQueue keptCq = rnic.createCompletionQueue(4, kept);
            for (int i = 0; i < 100; i++) {
                CompletionChannel channel = rnic.createCompletionChannel();
                CompletionQueue cq = rnic.createCompletionQueue(1024, channel);
                cq.close();
                channel.close();
            }
            assertThat(impl.completionQueuesAndChannelsHeld()).as("only the open queue and channel").isEqualTo(2);
            keptCq.close();
            kept.close();
            assertThat(impl.completionQueuesAndChannelsHeld()).isZero();
        }
    }

    @Test
    void closingTheRnicDeregistersWhatIsLeftAndGivesAllocatedMemoryBack() {
        ByteBuffer mine = ByteBuffer.allocateDirect(64);
        MemoryRegion allocated;
        MemoryRegion registered;
        MemoryRegion fast;
        ByteBuf memory;
        try (Rnic rnic = nioRnic()) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            allocated = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            registered = pd.register(mine, Access.LOCAL_WRITE);
            fast = pd.allocateFastRegistration(4096);
            memory = ((ByteBufTaggedBuffer) ((RegionImpl) allocated).tagged()).memory();
            assertThat(memory.refCnt()).as("the region's reference").isEqualTo(1);
            registered.buffer().putLong(0, 0x1122334455667788L);
        }
        assertThat(allocated.isValid()).isFalse();
        assertThat(registered.isValid()).isFalse();
        assertThat(fast.isValid()).isFalse();
        assertThat(memory.refCnt()).as("allocated memory back in the pool").isZero();
        assertThat(mine.getLong(0)).as("registered memory stays the application's").isEqualTo(0x1122334455667788L);
        allocated.close(); // closing again is a no-op
        registered.close();
    }

    @Test
    void anAllocatedRegionIsZeroedWhateverItsPooledMemoryHeldBefore() {
        try (Rnic rnic = nioRnic()) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            boolean reused = false;
            long previous = 0;
            for (int round = 0; round < 8; round++) {
                MemoryRegion r = pd.allocateRegion(8192, Access.LOCAL_WRITE);
                reused |= r.address() == previous; // the memory the round before filled
                ByteBuffer b = r.buffer();
                int nonZero = -1;
                for (int i = 0; i < b.capacity() && nonZero < 0; i++) {
                    nonZero = b.get(i) == 0 ? -1 : i;
                }
                assertThat(nonZero).as("round %d: the first octet not zero", round).isEqualTo(-1);
                while (b.hasRemaining()) {
                    b.put((byte) 0xA5);
                }
                previous = r.address();
                r.close();
            }
            assertThat(reused).as("the pool handed the same memory out again (else this test shows nothing)").isTrue();
        }
    }

    @Test
    void closingAQueuePairClosesThePreparedSendsTheApplicationLeftOpen() {
        try (Rnic rnic = nioRnic()) {
            ProtectionDomain pd = rnic.allocateProtectionDomain();
            CompletionQueue cq = rnic.createCompletionQueue(8);
            MemoryRegion region = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            ByteBuf memory = ((ByteBufTaggedBuffer) ((RegionImpl) region).tagged()).memory();
            QueuePair qp = pd.createQueuePair(cq);
            PreparedSend left = qp.prepare(SendWorkRequest.Send.of(1, region.sge(0, 4096)));
            PreparedSend closed = qp.prepare(SendWorkRequest.Send.of(2, region.sge(0, 64)));
            closed.close();
            assertThat(memory.refCnt()).as("the region's reference and the open prepared send's").isEqualTo(2);
            qp.close();
            assertThat(memory.refCnt()).as("only the region's").isEqualTo(1);
            assertThatThrownBy(left::execute).isInstanceOf(VerbsException.class);
            left.close(); // closing again is a no-op
            region.close();
            assertThat(memory.refCnt()).isZero();
        }
    }
}
