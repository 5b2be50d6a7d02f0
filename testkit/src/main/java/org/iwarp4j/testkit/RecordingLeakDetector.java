package org.iwarp4j.testkit;

import io.netty.util.ResourceLeakDetector;

import java.util.ArrayList;
import java.util.List;

/**
 * A Netty {@link ResourceLeakDetector} that, in addition to logging, records every leak it reports so
 * that {@link LeakDetectionExtension} can fail the test during which it was found.
 *
 * <p>Installed for every test JVM by the surefire {@code argLine} of the parent POM:
 * {@code -Dio.netty.customResourceLeakDetector=org.iwarp4j.testkit.RecordingLeakDetector}, together
 * with {@code -Dio.netty.leakDetection.level=PARANOID} so that every buffer is tracked.
 */
public final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {

    private static final List<String> LEAKS = new ArrayList<>();

    /** Constructor looked up reflectively by Netty's {@code ResourceLeakDetectorFactory}. */
    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    /** Obsolete constructor shape, still probed by Netty; kept so either lookup succeeds. */
    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        super(resourceType, samplingInterval);
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected."
                + records);
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected.");
        super.reportUntracedLeak(resourceType);
    }

    /** Netty reports each distinct leak trace only once per detector; we want every one recorded. */
    @Override
    protected boolean needReport() {
        return true;
    }

    private static void record(String leak) {
        synchronized (LEAKS) {
            LEAKS.add(leak);
        }
    }

    /** Returns and forgets every leak recorded so far. */
    static List<String> drain() {
        synchronized (LEAKS) {
            List<String> copy = new ArrayList<>(LEAKS);
            LEAKS.clear();
            return copy;
        }
    }
}
