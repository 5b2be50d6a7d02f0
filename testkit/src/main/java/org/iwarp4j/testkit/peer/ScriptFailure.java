package org.iwarp4j.testkit.peer;

/**
 * A script step of a {@link ScriptedPeer} did not see what it expected (or timed out). The message says
 * which step, what was expected and what arrived.
 */
public final class ScriptFailure extends AssertionError {

    private static final long serialVersionUID = 1L;

    public ScriptFailure(String message) {
        super(message);
    }

    public ScriptFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
