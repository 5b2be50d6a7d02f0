package org.iwarp4j.tools.soak;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.cm.DisconnectReason;

/** What the soak's client counted, from all its queue pairs' threads. */
final class SoakStats {

    private final PrintWriter out;
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong octets = new AtomicLong();
    private final AtomicLong corruptions = new AtomicLong();
    private final AtomicLong hangs = new AtomicLong();
    private final AtomicLong unexpected = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong connectFailures = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong flushedTotal = new AtomicLong();
    private final Map<CompletionStatus, Long> flushed = new EnumMap<>(CompletionStatus.class);
    private final Map<DisconnectReason, Long> ends = new EnumMap<>(DisconnectReason.class);

    SoakStats(PrintWriter out) {
        this.out = out;
    }

    void completed(long verified) {
        operations.incrementAndGet();
        octets.addAndGet(verified);
    }

    void flushed(CompletionStatus status) {
        flushedTotal.incrementAndGet();
        synchronized (flushed) {
            flushed.merge(status, 1L, Long::sum);
        }
    }

    long flushedTotal() {
        return flushedTotal.get();
    }

    void ended(DisconnectReason reason) {
        synchronized (ends) {
            ends.merge(reason, 1L, Long::sum);
        }
    }

    void connected() {
        connections.incrementAndGet();
    }

    void connectFailed() {
        connectFailures.incrementAndGet();
    }

    void resetByClient() {
        resets.incrementAndGet();
    }

    void corruption(String what) {
        corruptions.incrementAndGet();
        line("CORRUPTION client: " + what);
    }

    void hang(String what) {
        hangs.incrementAndGet();
        line("HANG client: " + what);
    }

    void unexpected(String what) {
        unexpected.incrementAndGet();
        line("UNEXPECTED client: " + what);
    }

    /** Whether the run must stop: something hung. */
    boolean failed() {
        return hangs.get() > 0;
    }

    long corruptions() {
        return corruptions.get();
    }

    long hangs() {
        return hangs.get();
    }

    long unexpected() {
        return unexpected.get();
    }

    long operations() {
        return operations.get();
    }

    synchronized void line(String s) {
        out.println(s);
        out.flush();
    }

    String progress() {
        return operations + " operations, " + octets + " octets verified, " + corruptions + " corruptions, "
                + connections + " connections";
    }

    /** The report's lines, {@code soak: key value}. */
    void report() {
        line("soak: operations " + operations);
        line("soak: octets_verified " + octets);
        line("soak: corruptions " + corruptions);
        line("soak: hangs " + hangs);
        line("soak: unexpected_errors " + unexpected);
        line("soak: connections " + connections + " (connect attempts refused or unreachable: " + connectFailures
                + ")");
        line("soak: resets_by_client " + resets);
        synchronized (flushed) {
            line("soak: flushed " + flushedTotal + " " + flushed);
        }
        synchronized (ends) {
            line("soak: disconnects " + ends);
        }
    }
}
