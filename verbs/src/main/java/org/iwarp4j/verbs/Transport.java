package org.iwarp4j.verbs;

/** The Netty transport an {@link Rnic} runs its TCP connections on. */
public enum Transport {
    /** Linux native epoll ({@code netty-transport-native-epoll}). */
    EPOLL,
    /** Java NIO (any platform). */
    NIO
}
