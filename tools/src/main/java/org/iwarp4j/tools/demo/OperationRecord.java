package org.iwarp4j.tools.demo;

import java.util.List;

/**
 * What the demo did for one operation and what it saw on the verbs side.
 *
 * @param title       e.g. {@code RDMA Write}
 * @param purpose     one line on what the operation does
 * @param calls       the verbs calls, as code
 * @param completions the work completions both sides polled
 * @param checks      the memory and value checks
 * @param messages    RDMAP messages the operation puts on the wire (to find them in the capture)
 */
record OperationRecord(String title, String purpose, List<String> calls, List<String> completions, List<Check> checks,
                       int messages) {

    OperationRecord {
        calls = List.copyOf(calls);
        completions = List.copyOf(completions);
        checks = List.copyOf(checks);
    }

    boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }
}
