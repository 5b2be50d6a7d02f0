package org.iwarp4j.testkit.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
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
        // the composite is reported, and released with what it holds
        assertThatThrownBy(allocator::assertNoLeaks).hasMessageContaining("1 ByteBuf(s) not released")
                .hasMessageContaining("CompositeByteBuf");
        assertThat(component.refCnt()).isZero();
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
}
