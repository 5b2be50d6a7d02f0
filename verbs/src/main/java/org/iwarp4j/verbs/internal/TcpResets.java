package org.iwarp4j.verbs.internal;

import io.netty.channel.unix.Errors;

import java.io.IOException;
import java.net.SocketException;

/**
 * Tells the peer's TCP reset (RST, errno ECONNRESET) from other transport failures by the type of the exception
 * the transport raised. A reset is a normal way for a peer to disconnect (interop/FINDINGS.md F7: siw closes with
 * RST when data is unread); any other I/O failure is a transport error.
 */
final class TcpResets {

    /** strerror(ECONNRESET) of glibc: the only mark the JDK leaves on a reset seen by a write (see below). */
    private static final String ECONNRESET_TEXT = "Connection reset by peer";

    private TcpResets() {
    }

    /** strerror(ETIMEDOUT) of glibc, and its number on Linux (the only OS of the native transports). */
    private static final String ETIMEDOUT_TEXT = "Connection timed out";
    private static final int ETIMEDOUT_NEGATIVE = -110;

    /**
     * Whether TCP gave up on the peer (errno ETIMEDOUT): keepalive probes unanswered, octets unacknowledged beyond
     * TCP_USER_TIMEOUT or the kernel's retransmission limit.
     */
    static boolean isTimeout(Throwable cause) {
        if (cause instanceof Errors.NativeIoException e) {
            return e.expectedErr() == ETIMEDOUT_NEGATIVE;
        }
        // NIO: a plain IOException with strerror's text, read or write.
        return cause.getClass() == IOException.class && ETIMEDOUT_TEXT.equals(cause.getMessage());
    }

    static boolean isPeerReset(Throwable cause) {
        if (cause instanceof Errors.NativeIoException e) {
            // epoll (reads and writes): the errno, negated. Only a native transport raises this type, so the
            // native library that Errors' constants need is loaded.
            return e.expectedErr() == Errors.ERRNO_ECONNRESET_NEGATIVE;
        }
        Class<?> type = cause.getClass();
        if (type == SocketException.class) {
            // NIO read (JDK 17 SocketChannelImpl.throwConnectionReset): ECONNRESET becomes a plain
            // SocketException("Connection reset"); every other read error is a plain IOException.
            return true;
        }
        // NIO write: the JDK gives ECONNRESET no type (a plain IOException with strerror's text, as for EPIPE),
        // so the exact type and the exact text together are all there is to go by.
        return type == IOException.class && ECONNRESET_TEXT.equals(cause.getMessage());
    }
}
