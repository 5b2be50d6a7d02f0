package org.iwarp4j.tools.demo;

/** The demo could not run an operation to its end (no completion, an error completion, a lost connection). */
final class DemoFailure extends Exception {

    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
        super(message);
    }
}
