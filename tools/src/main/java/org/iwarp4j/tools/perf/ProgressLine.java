package org.iwarp4j.tools.perf;

import java.io.PrintStream;

/**
 * A one-line progress display on stderr for runs longer than 2 s: rewritten in place every half second
 * ({@code \r}), cleared at the end. The measuring thread publishes its counters with {@link #update}; a
 * daemon thread prints, so the data path does no formatting.
 */
final class ProgressLine implements AutoCloseable {

    private static final long FIRST_AFTER_MILLIS = 2000;
    private static final long EVERY_MILLIS = 500;

    private final PrintStream err;
    private final String label;
    private final long start = System.nanoTime();
    private final Thread printer;
    private volatile long operations;
    private volatile long bytes;
    private volatile boolean running = true;
    private boolean printed;

    private ProgressLine(PrintStream err, String label) {
        this.err = err;
        this.label = label;
        this.printer = new Thread(this::loop, "iwarp-perf-progress");
        printer.setDaemon(true);
        printer.start();
    }

    /** A progress line if stderr is a terminal or {@code forced}, else {@code null}. */
    static ProgressLine startIf(boolean forced, String label) {
        return forced || System.console() != null ? new ProgressLine(System.err, label) : null;
    }

    void update(long operations, long bytes) {
        this.operations = operations;
        this.bytes = bytes;
    }

    private void loop() {
        try {
            Thread.sleep(FIRST_AFTER_MILLIS);
            while (running) {
                double s = (System.nanoTime() - start) / 1e9;
                String line = String.format("\r%s  %6.1f s  %10d ops  %10.2f MB/sec  %8.3f Mpps ", label, s, operations,
                        bytes / s / (1 << 20), operations / s / 1e6);
                synchronized (this) {
                    if (running) {
                        err.print(line);
                        err.flush();
                        printed = true;
                    }
                }
                Thread.sleep(EVERY_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            running = false;
            if (printed) {
                err.print("\r" + " ".repeat(100) + "\r");
                err.flush();
            }
        }
        printer.interrupt();
    }
}
