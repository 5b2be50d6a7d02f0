package org.iwarp4j.tools.perf;

import io.netty.util.ResourceLeakDetector;

/**
 * A measurement runs without Netty's leak detector unless the JVM was told a level: at its default (SIMPLE) the
 * detector tracks one buffer in 128 with a recorded stack trace, an allocation and a stack walk that the figures
 * would count against iWARP and TCP alike (about 1 % of the event loops' time and most of the bytes allocated per
 * message in a 64-octet Write run). {@code -Dio.netty.leakDetection.level=...} keeps the level given, as the tests
 * do (PARANOID).
 */
final class LeakDetection {

    private static final String LEVEL = "io.netty.leakDetection.level";
    private static final String LEGACY_LEVEL = "io.netty.leakDetectionLevel";

    private LeakDetection() {
    }

    /** Turns the detector off for this run unless a level was set on the command line; returns the level now. */
    static ResourceLeakDetector.Level offUnlessConfigured() {
        if (System.getProperty(LEVEL) == null && System.getProperty(LEGACY_LEVEL) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        return ResourceLeakDetector.getLevel();
    }
}
