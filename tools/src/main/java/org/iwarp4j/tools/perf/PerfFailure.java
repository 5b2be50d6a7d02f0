package org.iwarp4j.tools.perf;

/** A perf run failed: a completion error, a lost connection, a verification mismatch, a protocol violation. */
final class PerfFailure extends Exception {

    private static final long serialVersionUID = 1L;

    PerfFailure(String message) {
        super(message);
    }
}
