package org.iwarp4j.verbs;

/** The Netty transport an {@link Rnic} runs its TCP connections on. */
public enum Transport {
    /** Linux native epoll ({@code netty-transport-native-epoll}). */
    EPOLL,
    /** Java NIO (any platform). */
    NIO,
    /**
     * Linux io_uring ({@code netty-transport-native-io_uring}, kernel 5.14 or later, and not disabled by
     * {@code kernel.io_uring_disabled}); never chosen by default.
     */
    IO_URING
}
