package org.iwarp4j.tools.rping;

/** An rping run failed; the message is the line rping would print (to stderr). */
final class RpingFailure extends Exception {

    private static final long serialVersionUID = 1L;

    RpingFailure(String message) {
        super(message);
    }
}
