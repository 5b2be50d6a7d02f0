package org.iwarp4j.tools.perf;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A measurement turns Netty's leak detector off only when no level was given: the tests run PARANOID (the parent
 * POM sets the property) and must stay so when they run perf.
 */
class LeakDetectionTest {

    private static final String LEVEL = "io.netty.leakDetection.level";

    @Test
    void aLevelGivenOnTheCommandLineIsKept() {
        assertThat(System.getProperty(LEVEL)).as("set by the parent POM's argLine").isNotNull();
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        assertThat(LeakDetection.offUnlessConfigured()).isEqualTo(before)
                .isNotEqualTo(ResourceLeakDetector.Level.DISABLED);
    }

    @Test
    void withoutALevelTheDetectorIsOff() {
        String property = System.clearProperty(LEVEL);
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        try {
            assertThat(LeakDetection.offUnlessConfigured()).isEqualTo(ResourceLeakDetector.Level.DISABLED);
            assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.DISABLED);
        } finally {
            ResourceLeakDetector.setLevel(before);
            if (property != null) {
                System.setProperty(LEVEL, property);
            }
        }
    }
}
