package org.iwarp4j.tools.conformance;

import java.util.List;

/**
 * What one check concluded: its status, what the RFC expects and what the peer did (in words), the problems
 * found (each possibly a documented deviation of some stack, by tag), and the transcript of the connection.
 */
record Verdict(Status status, String expected, String actual, List<Problem> problems, List<Wire.Event> transcript,
               long millis) {

    /** A check's result. */
    enum Status {
        PASSED("pass"), FAILED("FAIL"), KNOWN("known"), SKIPPED("skip");

        private final String word;

        Status(String word) {
            this.word = word;
        }

        String word() {
            return word;
        }
    }

    /**
     * One way the peer departed from the rule. {@code deviation} names the departure when it is one a peer
     * profile can document (see {@link Profile}); null for anything else.
     */
    record Problem(String text, String deviation) {
        static Problem of(String text) {
            return new Problem(text, null);
        }
    }

    static Verdict pass(String expected, String actual) {
        return new Verdict(Status.PASSED, expected, actual, List.of(), List.of(), 0);
    }

    static Verdict fail(String expected, String actual, List<Problem> problems) {
        return new Verdict(Status.FAILED, expected, actual, List.copyOf(problems), List.of(), 0);
    }

    static Verdict fail(String expected, String actual) {
        return fail(expected, actual, List.of(Problem.of(actual)));
    }

    static Verdict fail(String expected, String actual, String deviation) {
        return fail(expected, actual, List.of(new Problem(actual, deviation)));
    }

    static Verdict skip(String reason) {
        return new Verdict(Status.SKIPPED, null, reason, List.of(), List.of(), 0);
    }

    Verdict withStatus(Status s) {
        return new Verdict(s, expected, actual, problems, transcript, millis);
    }

    Verdict with(List<Wire.Event> events, long elapsed) {
        return new Verdict(status, expected, actual, problems, List.copyOf(events), elapsed);
    }
}
