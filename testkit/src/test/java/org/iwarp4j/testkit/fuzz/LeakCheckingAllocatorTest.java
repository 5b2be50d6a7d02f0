package org.iwarp4j.testkit.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

class LeakCheckingAllocatorTest {

    private final LeakCheckingAllocator allocator = new LeakCheckingAllocator();

    @Test
    void releasedBuffersPass() {
        allocator.buffer(16).writeInt(1).release();
        ByteBuf direct = allocator.directBuffer(8);
        ByteBuf slice = direct.retainedSlice(0, 4);
        direct.release();
        slice.release();
        assertThat(allocator.live()).isZero();
        allocator.assertNoLeaks();
    }

    @Test
    void anUnreleasedBufferFailsOnceAndIsReleased() {
        ByteBuf leaked = allocator.heapBuffer(0); // even an empty one
        allocator.buffer(4).release();
        assertThat(allocator.live()).isEqualTo(1);
        assertThatThrownBy(allocator::assertNoLeaks).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 ByteBuf(s) not released");
        assertThat(leaked.refCnt()).isZero();
        allocator.assertNoLeaks(); // reported once
    }

    @Test
    void aRetainWithoutReleaseIsALeak() {
        ByteBuf b = allocator.directBuffer(4).retain();
        b.release();
        assertThatThrownBy(allocator::assertNoLeaks).hasMessageContaining("refCnt 1");
    }

    @Test
    void forgottenBuffersAreNotChecked() {
        ByteBuf kept = allocator.buffer(4);
        allocator.forget();
        allocator.assertNoLeaks();
        kept.release();
    }

    @Test
    void anUnreleasedCompositeFailsAndIsNotLeftToNettysDetector() {
        CompositeByteBuf composite = allocator.compositeBuffer();
        ByteBuf component = allocator.directBuffer(4).writeInt(7);
        composite.addComponent(true, component);
        // Netty's detector would wrap it (and record a stack trace on every access at PARANOID)
        assertThat(composite.getClass()).isEqualTo(CompositeByteBuf.class);
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
        // the composite and what it holds are reported, and released
        assertThatThrownBy(allocator::assertNoLeaks).hasMessageContaining("2 ByteBuf(s) not released")
                .hasMessageContaining("CompositeByteBuf");
        assertThat(component.refCnt()).isZero();
    }

    @Test
    void aLeakedCompositeAndTheBuffersItHoldsAreReportedAndReleasedOnce() {
        ByteBuf first = allocator.directBuffer(4).writeInt(1); // issued before the composite that holds it
        ByteBuf second = allocator.heapBuffer(4).writeInt(2).retain(); // and one reference of its own
        CompositeByteBuf composite = allocator.compositeBuffer();
        composite.addComponents(true, first, second);
        assertThatThrownBy(allocator::assertNoLeaks).isInstanceOf(AssertionError.class)
                .hasMessageContaining("3 ByteBuf(s) not released");
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(composite.refCnt()).isZero();
        allocator.assertNoLeaks();
    }

    @Test
    void aReleasedCompositeReleasesItsComponents() {
        CompositeByteBuf composite = allocator.compositeDirectBuffer(4);
        composite.addComponent(true, allocator.heapBuffer(4).writeInt(7));
        composite.addComponent(true, allocator.directBuffer(4).writeInt(8));
        assertThat(composite.readLong()).isEqualTo(0x0000000700000008L);
        composite.release();
        allocator.assertNoLeaks();
    }

    @Test
    void aReleasedDirectBuffersMemoryServesTheNextZeroedAndTheOldOneStaysDead() {
        ByteBuf first = allocator.directBuffer(100).writeLong(-1).writeLong(-1);
        long address = first.memoryAddress();
        first.release();
        ByteBuf second = allocator.directBuffer(90);
        assertThat(second.memoryAddress()).isEqualTo(address); // the same block of 128 octets
        assertThat(second.capacity()).isEqualTo(90);
        assertThat(second.writerIndex()).isZero();
        assertThat(second.getLong(0)).isZero();
        assertThat(second.getLong(8)).isZero();
        assertThatThrownBy(() -> first.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(first::release).isInstanceOf(IllegalReferenceCountException.class);
        second.release();
        allocator.assertNoLeaks();
    }

    @Test
    void aDirectBufferGrowsPastItsBlockAndIsStillChecked() {
        ByteBuf grown = allocator.directBuffer(8);
        for (int i = 0; i < 100; i++) {
            grown.writeLong(i);
        }
        assertThat(grown.capacity()).isGreaterThanOrEqualTo(800);
        assertThat(grown.getLong(99 * 8)).isEqualTo(99);
        assertThatThrownBy(allocator::assertNoLeaks).hasMessageContaining("1 ByteBuf(s) not released");
        ByteBuf next = allocator.directBuffer(8); // its block went back with the release above
        assertThat(next.getLong(0)).isZero();
        next.release();
        ByteBuf large = allocator.directBuffer(1 << 20); // above the blocks: memory of its own
        large.release();
        allocator.assertNoLeaks();
    }
}
