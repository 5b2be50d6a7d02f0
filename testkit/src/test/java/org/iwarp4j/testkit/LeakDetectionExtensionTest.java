package org.iwarp4j.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/** Proves that the leak check really fails a test that leaks, and passes one that does not. */
class LeakDetectionExtensionTest {

    @Test
    void aDeliberateLeakFailsTheBuild() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectClass(LeakingFixture.class))
                .execute();

        // The leak is found at the latest by the forced collections after the class's last test.
        long failedTests = results.testEvents().failed().count();
        long failedClasses = results.containerEvents().failed().count();
        assertThat(failedTests + failedClasses).isEqualTo(1);
        Event failure = (failedTests == 1 ? results.testEvents() : results.containerEvents()).failed().list().get(0);
        assertThat(failure.getPayload(TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow().getMessage()).contains("ByteBuf leak").contains("LEAK:");
    }

    @Test
    void withCollectionsAfterEachTestTheLeakIsPinnedOnTheLeakingTest() {
        System.setProperty(LeakDetectionExtension.EACH_TEST_PROPERTY, "true");
        try {
            EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                    .selectors(selectClass(LeakingFixture.class))
                    .execute();
            results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(2).failed(1));
            results.testEvents().assertThatEvents().haveExactly(1,
                    Assertions.allOf(
                            test("leaksAPooledDirectBuffer"),
                            finishedWithFailure(message(m -> m.contains("ByteBuf leak") && m.contains("LEAK:")))));
            results.containerEvents().assertStatistics(stats -> stats.failed(0));
        } finally {
            System.clearProperty(LeakDetectionExtension.EACH_TEST_PROPERTY);
        }
    }

    @Test
    void afterEachReportsALeakTheCollectorAlreadyFound() throws InterruptedException {
        assertThat(LeakDetectionExtension.collectLeaks()).isEmpty();
        leakOne();
        // The collector runs by itself here (as it does between tests); reportedLeaks() never forces it.
        List<String> leaks = List.of();
        for (int i = 0; i < 200 && leaks.isEmpty(); i++) {
            System.gc();
            Thread.sleep(10);
            leaks = LeakDetectionExtension.reportedLeaks();
        }
        assertThat(leaks).hasSize(1).first().asString().contains("LEAK:");
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
