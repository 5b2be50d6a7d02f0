package org.iwarp4j.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fails a test when a Netty {@link ByteBuf} became unreachable without being released.
 *
 * <p>Registered automatically for every test (JUnit auto-detection, enabled by this module's
 * {@code junit-platform.properties}). Before the first test of a class it checks that the leak
 * detector really is {@link RecordingLeakDetector} at level PARANOID, so a misconfigured build cannot
 * silently run without leak detection. After each test it forces a garbage collection, makes Netty
 * poll its reference queue, and fails with Netty's leak records if anything leaked.
 *
 * <p>Cost control: forcing garbage collections takes tens of milliseconds, too much after each of
 * thousands of (parameterized, property) test invocations. So after each test the extension only
 * makes Netty report what the collector has already found (cheap), and after the last test of a class
 * it forces collections and checks again; a leak found then fails the class. Set the system property
 * {@code iwarp.leakCheck.eachTest=true} to force collections after every test and pin a leak on the
 * exact test that caused it.
 */
public final class LeakDetectionExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private static final int GC_ROUNDS = 2;
    private static final long REFERENCE_PROCESSING_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    static final String EACH_TEST_PROPERTY = "iwarp.leakCheck.eachTest";

    @Override
    public void beforeAll(ExtensionContext context) {
        verifyInstalled();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        failOnLeaks(Boolean.getBoolean(EACH_TEST_PROPERTY) ? collectLeaks() : reportedLeaks(), context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        failOnLeaks(collectLeaks(), context);
    }

    private static void failOnLeaks(List<String> leaks, ExtensionContext context) {
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " ByteBuf leak(s) detected during "
                    + context.getDisplayName() + ":\n" + String.join("\n\n", leaks));
        }
    }

    /** Leaks the garbage collector has already found, without forcing a collection. */
    static List<String> reportedLeaks() {
        pollLeakDetector();
        return RecordingLeakDetector.drain();
    }

    /**
     * Forces the garbage collector to run, lets Netty report what it found, and returns (and forgets)
     * every leak recorded since the last call.
     */
    public static List<String> collectLeaks() {
        for (int round = 0; round < GC_ROUNDS; round++) {
            if (!collectGarbageAndAwaitReferenceProcessing()) {
                break;
            }
            pollLeakDetector();
        }
        return RecordingLeakDetector.drain();
    }

    /**
     * Forces a collection and waits until its weak references have been enqueued. Netty's leak records are
     * weak references; they are enqueued by the JVM's reference handler thread after the collection, which
     * on a loaded machine can take far longer than any fixed pause. A sentinel weak reference of our own,
     * cleared by the same collection, tells when that has happened.
     *
     * @return false if the thread was interrupted
     */
    private static boolean collectGarbageAndAwaitReferenceProcessing() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        long deadline = System.nanoTime() + REFERENCE_PROCESSING_TIMEOUT_NANOS;
        try {
            do {
                System.gc();
                if (queue.remove(20) != null) {
                    return true;
                }
            } while (System.nanoTime() < deadline);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            sentinel.clear();
        }
    }

    /** Netty reports leaks when it tracks a new buffer; allocate one of each kind to make it look. */
    private static void pollLeakDetector() {
        // One tracked allocation is enough: all ByteBufs share one detector. (Netty 4.2 does not track
        // Unpooled heap buffers, so poll through a pooled one.)
        PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
    }

    static void verifyInstalled() {
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            throw new IllegalStateException("Netty leak detection must run at PARANOID in tests, but is "
                    + ResourceLeakDetector.getLevel() + "; run the tests through Maven (see the parent POM argLine)");
        }
        Object detector = byteBufLeakDetector();
        if (!(detector instanceof RecordingLeakDetector)) {
            throw new IllegalStateException("Netty's ByteBuf leak detector is " + detector.getClass().getName()
                    + ", not " + RecordingLeakDetector.class.getName()
                    + "; set -Dio.netty.customResourceLeakDetector as the parent POM argLine does");
        }
    }

    private static Object byteBufLeakDetector() {
        try {
            Class<?> abstractByteBuf = Class.forName("io.netty.buffer.AbstractByteBuf");
            Field field = abstractByteBuf.getDeclaredField("leakDetector");
            field.setAccessible(true);
            return field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot inspect Netty's ByteBuf leak detector", e);
        }
    }
}
