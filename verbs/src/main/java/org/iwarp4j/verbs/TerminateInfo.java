package org.iwarp4j.verbs;

import org.iwarp4j.rdmap.terminate.Terminate;

import java.util.Objects;

/**
 * A Terminate message (RFC 5040 §4.8) that explains a completion or an async event, and which way it
 * went.
 *
 * @param direction whether this side sent it or received it
 * @param terminate the message: layer, error type, code, copied headers
 */
public record TerminateInfo(Direction direction, Terminate terminate) {

    /** Which side sent the Terminate. */
    public enum Direction { SENT, RECEIVED }

    public TerminateInfo {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(terminate, "terminate");
    }

    /** Layer: 0x0 RDMAP, 0x1 DDP, 0x2 LLP (MPA). */
    public int layer() {
        return terminate.layer();
    }

    /** Error type within the layer. */
    public int errorType() {
        return terminate.errorType();
    }

    /** Error code. */
    public int errorCode() {
        return terminate.errorCode();
    }

    /** E.g. {@code sent 0x1/0x2/0x05 DDP Untagged Buffer Error: DDP Message too long for available buffer}. */
    @Override
    public String toString() {
        return (direction == Direction.SENT ? "sent " : "received ") + terminate.describe();
    }
}
