package org.iwarp4j.verbs.cm;

import java.time.Duration;
import java.util.Objects;

/**
 * TCP's own liveness checks for a connection, off unless asked for ({@link ConnectOptions.Builder#keepalive},
 * {@link ListenOptions.Builder#keepalive}): the kernel's keepalive ({@code SO_KEEPALIVE} with
 * {@code TCP_KEEPIDLE}, {@code TCP_KEEPINTVL}, {@code TCP_KEEPCNT}), which finds a peer gone on an idle connection,
 * and {@code TCP_USER_TIMEOUT}, which bounds how long octets sent may stay unacknowledged. When either expires the
 * kernel fails the socket with {@code ETIMEDOUT}, and the connection ends with
 * {@link DisconnectReason#TCP_TIMEOUT}.
 *
 * <p>With {@code Transport.EPOLL} and {@code IO_URING} all four are set; with {@code NIO} keepalive is set through
 * {@code jdk.net.ExtendedSocketOptions} (Linux, macOS), and JDK 17 has no {@code TCP_USER_TIMEOUT}: it is left
 * unset, with one {@code WARN} line. Neither notices a peer whose kernel still acknowledges while its application
 * stays silent: that is {@code QueuePairConfig.responseTimeout}'s.
 *
 * @param idle        idle time before the first probe ({@code TCP_KEEPIDLE}), whole seconds, 1 s to 32767 s
 * @param interval    time between probes ({@code TCP_KEEPINTVL}), whole seconds, 1 s to 32767 s
 * @param probes      unanswered probes after which the connection fails ({@code TCP_KEEPCNT}), 1 to 127
 * @param userTimeout longest time sent octets may stay unacknowledged ({@code TCP_USER_TIMEOUT}, milliseconds);
 *                    {@link Duration#ZERO}: the kernel's default (Linux retransmits for about 15 minutes)
 */
public record TcpKeepalive(Duration idle, Duration interval, int probes, Duration userTimeout) {

    private static final long MAX_SECONDS = 32767;

    /** Checks the components. */
    public TcpKeepalive {
        seconds("idle", idle);
        seconds("interval", interval);
        if (probes < 1 || probes > 127) {
            throw new IllegalArgumentException("probes must be 1..127: " + probes);
        }
        Objects.requireNonNull(userTimeout, "userTimeout");
        if (userTimeout.isNegative() || userTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("userTimeout must be 0 (unset) to 2^31 - 1 ms: " + userTimeout);
        }
    }

    private static void seconds(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.toNanos() % 1_000_000_000L != 0 || d.getSeconds() < 1 || d.getSeconds() > MAX_SECONDS) {
            throw new IllegalArgumentException(name + " must be whole seconds, 1 s to " + MAX_SECONDS + " s: " + d);
        }
    }

    /**
     * Keepalive alone: a peer gone on an idle connection is noticed after about {@code idle + probes × interval}.
     *
     * @param idle     idle time before the first probe
     * @param interval time between probes
     * @param probes   unanswered probes that fail the connection
     * @return the settings, {@code TCP_USER_TIMEOUT} unset
     */
    public static TcpKeepalive of(Duration idle, Duration interval, int probes) {
        return new TcpKeepalive(idle, interval, probes, Duration.ZERO);
    }

    /**
     * These settings with {@code TCP_USER_TIMEOUT} as well.
     *
     * @param timeout longest time sent octets may stay unacknowledged; {@link Duration#ZERO} unsets it
     * @return new settings
     */
    public TcpKeepalive withUserTimeout(Duration timeout) {
        return new TcpKeepalive(idle, interval, probes, timeout);
    }
}
