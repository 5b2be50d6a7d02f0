package org.iwarp4j.tools.perf;

/** A perftest peer sent something we do not pair with, or the exchange with it broke; the message says what. */
public final class PerftestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    PerftestException(String message) {
        super(message);
    }
}
