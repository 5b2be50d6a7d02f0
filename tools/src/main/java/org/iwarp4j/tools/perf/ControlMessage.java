package org.iwarp4j.tools.perf;

import java.nio.ByteBuffer;

/**
 * The perf control messages, 48-octet Sends with the Solicited Event flag (RFC 5040 §5.3) so that a receive
 * completion tells them from data (the Send test's data and the server's credit updates are plain Sends).
 * Network byte order: type (4) | size (4) | iterations (8) | a (8) | b (8) | c (8) | d (8).
 *
 * <ul>
 *   <li>PHASE (client): a measurement of {@code size} starts; a = duration in ms (0: iterations), b = seed.</li>
 *   <li>READY (server): go.</li>
 *   <li>RESULT (client): the measurement ended: iterations, a = elapsed ns, b = peak bits of a double (B/s),
 *       c = bytes.</li>
 *   <li>VERIFY (client): every octet of verification round a was written; the server checks its buffer.</li>
 *   <li>START (client, bandwidth tests): the warm-up is over, the measured operations follow.</li>
 *   <li>ACK (server): a = 0 ok, else the first wrong offset + 1; answering START and RESULT, b and c are the
 *       server process's CPU time then (user+sys and user nanoseconds, -1 unknown, {@link CpuClock}), so the
 *       client reports the server's CPU per GB beside its own.</li>
 *   <li>DONE (client): no more measurements; the client disconnects.</li>
 * </ul>
 */
record ControlMessage(Type type, int size, long iterations, long a, long b, long c, long d) {

    enum Type { PHASE, READY, RESULT, VERIFY, ACK, DONE, START }

    static final int LENGTH = 48;

    static ControlMessage of(Type type) {
        return new ControlMessage(type, 0, 0, 0, 0, 0, 0);
    }

    /** An ACK carrying {@code status} (0 ok, else a wrong offset + 1) and this process's CPU time now. */
    static ControlMessage ackWithCpu(long status, CpuClock.Sample cpu) {
        return new ControlMessage(Type.ACK, 0, 0, status, cpu.cpuNanos(), cpu.userNanos(), 0);
    }

    /** The CPU reading an {@link #ackWithCpu} ACK carries. */
    CpuClock.Sample cpu() {
        return new CpuClock.Sample(b, c);
    }

    void writeTo(ByteBuffer buffer) {
        buffer.putInt(0, type.ordinal()).putInt(4, size).putLong(8, iterations).putLong(16, a).putLong(24, b)
                .putLong(32, c).putLong(40, d);
    }

    static ControlMessage readFrom(ByteBuffer buffer, int offset) {
        int t = buffer.getInt(offset);
        if (t < 0 || t >= Type.values().length) {
            throw new IllegalArgumentException("unknown perf control message " + t);
        }
        return new ControlMessage(Type.values()[t], buffer.getInt(offset + 4), buffer.getLong(offset + 8),
                buffer.getLong(offset + 16), buffer.getLong(offset + 24), buffer.getLong(offset + 32),
                buffer.getLong(offset + 40));
    }
}
