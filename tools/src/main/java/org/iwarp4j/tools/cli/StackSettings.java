package org.iwarp4j.tools.cli;

import io.netty.channel.Channel;
import io.netty.channel.WriteBufferWaterMark;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.internal.Transports;

/**
 * How a tool's iWARP stacks, and perf's plain TCP baseline beside them, use Netty: the transport, whether the event
 * loops busy-poll, and the outbound buffer of each connection ({@link RnicConfig#outboundBufferBytes()}; perf tcp's
 * connections get the same water marks, so that both stacks batch their writes alike).
 *
 * @param transport           the transport, or {@code null}: epoll where available, else NIO
 * @param busyPoll            event loops that never sleep ({@link RnicConfig#busyPoll()})
 * @param outboundBufferBytes the high water mark of each connection's outbound buffer; the low one is half
 * @param notSentLowat        the unsent octets each connection's socket may hold ({@link RnicConfig#tcpNotSentLowat()};
 *                            perf tcp's sockets get the same), 0 for the kernel's default
 */
public record StackSettings(Transport transport, boolean busyPoll, int outboundBufferBytes, int notSentLowat) {

    /** The defaults: epoll where available, loops that sleep, {@link RnicConfig}'s outbound buffer and unsent limit. */
    public static final StackSettings DEFAULTS = new StackSettings(null, false,
            RnicConfig.defaults().outboundBufferBytes(), RnicConfig.defaults().tcpNotSentLowat());

    /** An RNIC with these settings and one event loop, as {@link Stacks#openRnic(String)}. */
    public Rnic openRnic(String name) {
        return Rnic.open(rnicConfig(name));
    }

    private RnicConfig rnicConfig(String name) {
        return RnicConfig.builder().name(name).eventLoopThreads(1).transport(transport).busyPoll(busyPoll)
                .outboundBufferBytes(outboundBufferBytes).tcpNotSentLowat(notSentLowat).build();
    }

    /** Gives a plain TCP channel the socket settings of an RNIC's connections (before it connects or registers). */
    public void tune(Channel ch) {
        Transports.setNotSentLowat(ch, notSentLowat);
    }

    /** The water marks of a plain TCP connection with these settings: those of an RNIC's connections. */
    public WriteBufferWaterMark waterMark() {
        RnicConfig c = rnicConfig("tcp");
        return new WriteBufferWaterMark(c.outboundBufferResumeBytes(), c.outboundBufferBytes());
    }

    /** What a report says after the transport: ", busy polling" (if so) and the outbound buffer. */
    public String describeLoops() {
        return describeLoops(busyPoll, outboundBufferBytes, notSentLowat, Transports.resolve(transport));
    }

    /** The unsent limit is named where {@code transport} (resolved) sets it: epoll and io_uring, not NIO. */
    static String describeLoops(boolean busyPoll, int outboundBufferBytes, int notSentLowat, Transport transport) {
        return (busyPoll ? ", busy polling" : "") + ", outbound buffer " + octets(outboundBufferBytes)
                + (notSentLowat > 0 && transport != Transport.NIO ? ", unsent limit " + octets(notSentLowat) : "");
    }

    private static String octets(int n) {
        return n % (1 << 20) == 0 ? n / (1 << 20) + " MiB" : n % 1024 == 0 ? n / 1024 + " KiB" : n + " octets";
    }
}
