package org.iwarp4j.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/** Proves that the leak check really fails a test that leaks, and passes one that does not. */
class LeakDetectionExtensionTest {

    @Test
    void aDeliberateLeakFailsTheLeakingTestAndOnlyThatOne() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectClass(LeakingFixture.class))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(2).failed(1));
        results.testEvents().assertThatEvents().haveExactly(1,
                org.assertj.core.api.Assertions.allOf(
                        test("leaksAPooledDirectBuffer"),
                        finishedWithFailure(message(m -> m.contains("ByteBuf leak") && m.contains("LEAK:")))));
        Event failure = results.testEvents().failed().list().get(0);
        assertThat(failure.getTestDescriptor().getDisplayName()).startsWith("leaksAPooledDirectBuffer");
    }

    @Test
    void theBuildRunsWithTheRecordingDetectorAtParanoid() {
        LeakDetectionExtension.verifyInstalled();
    }

    @Test
    void collectLeaksFindsAnUnreleasedBufferOfTheDefaultAllocator() {
        leakOne();
        assertThat(LeakDetectionExtension.collectLeaks()).hasSize(1).first().asString().contains("LEAK:");
        assertThat(LeakDetectionExtension.collectLeaks()).isEmpty();
    }

    private static void leakOne() {
        // Netty 4.2's default allocator is the adaptive one; its buffers are tracked (Unpooled heap ones are not).
        ByteBuf leaked = ByteBufAllocator.DEFAULT.buffer(8);
        leaked.writeLong(42);
    }

    /** Run only through the engine test kit above (not a top-level test class, so surefire skips it). */
    static class LeakingFixture {
        @Test
        void releasesItsBuffer() {
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(16);
            buf.writeInt(7);
            buf.release();
        }

        @Test
        void leaksAPooledDirectBuffer() {
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(16);
            buf.writeInt(7);
        }

        @Test
        void zzzRunsAfterTheLeakAndStillPasses() {
            Unpooled.buffer(4).release();
        }
    }
}
