package org.iwarp4j.tools.perf.conn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process limits many connections run into, read from {@code /proc}, and the advice that goes with them:
 * each TCP connection is a file descriptor (two when both ends are in one JVM), and each connect takes an
 * ephemeral port of {@code net.ipv4.ip_local_port_range} towards its destination address.
 */
final class Limits {

    private Limits() {}

    /** The soft limit on open files ({@code ulimit -n}), or -1 where {@code /proc/self/limits} is not there. */
    static long openFilesSoft() {
        return openFiles(0);
    }

    /** The hard limit on open files ({@code ulimit -Hn}), or -1. */
    static long openFilesHard() {
        return openFiles(1);
    }

    private static long openFiles(int which) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f[which].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(f[which]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Checks that {@code needed} more descriptors fit under the soft limit; the message says how to raise it.
     *
     * @param what what needs them, e.g. "10000 connections with both ends in this JVM"
     */
    static void checkOpenFiles(long needed, String what) throws TooFewFiles {
        long soft = openFilesSoft();
        long open = MemorySnapshot.openFds();
        if (soft < 0 || open < 0) {
            return;
        }
        // a margin for the JVM's own descriptors that come later (jars, epoll, pipes)
        long margin = 64;
        if (open + needed + margin > soft) {
            throw new TooFewFiles(what + " need about " + (open + needed + margin) + " file descriptors and the limit"
                    + " is " + soft + " (" + open + " open now): " + raiseAdvice(open + needed + margin));
        }
    }

    /** How to raise the limit to at least {@code needed}. */
    static String raiseAdvice(long needed) {
        long hard = openFilesHard();
        long target = Math.max(needed, 1024);
        String s = "raise it with 'ulimit -n " + target + "' before starting";
        if (hard >= 0 && hard < target) {
            s += " (the hard limit is " + hard + "; raising it takes CAP_SYS_RESOURCE, which root has outside a"
                    + " container: 'prlimit --nofile=" + target + ":" + target
                    + " --pid $$' raises both for the shell)";
        }
        return s + ", or run the accepting side in another process (iwarp perf idle --loopback does by default)";
    }

    /** Whether {@code t} or a cause is the kernel's "too many open files" (EMFILE, ENFILE). */
    static boolean outOfFiles(Throwable t) {
        return causeSays(t, "Too many open files");
    }

    /** Whether {@code t} or a cause is EADDRNOTAVAIL on connect: no free ephemeral port to that address. */
    static boolean outOfPorts(Throwable t) {
        return causeSays(t, "Cannot assign requested address");
    }

    private static boolean causeSays(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().contains(text)) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** A run would need, or ran out of, more file descriptors than the limit allows. */
    static final class TooFewFiles extends Exception {
        private static final long serialVersionUID = 1L;

        TooFewFiles(String message) {
            super(message);
        }
    }
}
