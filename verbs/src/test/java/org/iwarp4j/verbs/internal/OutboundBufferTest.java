package org.iwarp4j.verbs.internal;

import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import org.iwarp4j.verbs.Access;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.CompletionStatus;
import org.iwarp4j.verbs.MemoryRegion;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.SendWorkRequest.RdmaWrite;
import org.iwarp4j.verbs.Transport;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.Connection;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.iwarp4j.verbs.cm.Listener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link RnicConfig#outboundBufferBytes()}: the water marks of every connection's channel, on both sides, and a
 * queue pair that pulls its send queue through a buffer far smaller than one message still moves every octet;
 * {@link RnicConfig#tcpNotSentLowat()}: every epoll connection's socket, on both sides.
 */
class OutboundBufferTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void theDefaultIs256KiBResumingAtHalf() {
        assertThat(RnicConfig.defaults().outboundBufferBytes()).isEqualTo(256 * 1024);
        assertThat(RnicConfig.defaults().outboundBufferResumeBytes()).isEqualTo(128 * 1024);
        assertThat(RnicConfig.builder().outboundBufferBytes(1).build().outboundBufferResumeBytes()).isEqualTo(1);
        assertThatThrownBy(() -> RnicConfig.builder().outboundBufferBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outboundBufferBytes");
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"NIO", "EPOLL"})
    void everyConnectionGetsItsRnicsWaterMarks(Transport transport) throws Exception {
        try (Rnic server = open(transport, "server", 96 * 1024); Rnic client = open(transport, "client", 40_000)) {
            Pair p = connect(server, client, 64);
            assertThat(marks(p.client)).isEqualTo(new int[] {20_000, 40_000});
            assertThat(marks(p.server)).isEqualTo(new int[] {48 * 1024, 96 * 1024});
        }
    }

    @Test
    void theUnsentLimitIs1MiBByDefaultAndNeverNegative() {
        assertThat(RnicConfig.defaults().tcpNotSentLowat()).isEqualTo(1 << 20);
        assertThat(RnicConfig.builder().tcpNotSentLowat(0).build().tcpNotSentLowat()).isZero();
        assertThatThrownBy(() -> RnicConfig.builder().tcpNotSentLowat(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tcpNotSentLowat");
    }

    /** The kernel reads the option back from each socket: the RNIC's value, or with 0 nothing set. */
    @Test
    void everyEpollConnectionsSocketGetsItsRnicsUnsentLimit() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll not available");
        try (Rnic server = open(Transport.EPOLL, "server", 96 * 1024, 512 * 1024);
             Rnic client = open(Transport.EPOLL, "client", 40_000, RnicConfig.defaults().tcpNotSentLowat());
             Rnic plain = open(Transport.EPOLL, "plain", 40_000, 0)) {
            Pair p = connect(server, client, 64);
            assertThat(lowat(p.client)).isEqualTo(1L << 20);
            assertThat(lowat(p.server)).isEqualTo(512L * 1024);
            Pair q = connect(server, plain, 64);
            // Linux keeps 0 for a socket the option was never set on (net.ipv4.tcp_notsent_lowat applies)
            assertThat(lowat(q.client)).as("not set").isZero();
        }
    }

    /** Ten 64 KiB Writes through a buffer of 1 octet: one FPDU at a time, every octet placed. */
    @Test
    void aBufferSmallerThanAnFpduStillMovesEverything() throws Exception {
        int size = 64 * 1024;
        int writes = 10;
        try (Rnic server = open(Transport.NIO, "server", 1); Rnic client = open(Transport.NIO, "client", 1)) {
            Pair p = connect(server, client, size * writes);
            assertThat(marks(p.client)).as("resumes below 1: when nothing waits").isEqualTo(new int[] {1, 1});
            ByteBuffer src = p.source.buffer();
            for (int i = 0; i < size; i++) {
                src.put(i, (byte) (i * 31 + 7));
            }
            for (int w = 0; w < writes; w++) {
                p.clientQp.postSend(RdmaWrite.of(w, p.source.sge(0, size),
                        p.sink.remoteBuffer().slice((long) w * size, size)));
            }
            for (int w = 0; w < writes; w++) {
                WorkCompletion wc = p.clientCq.take(WAIT).orElseThrow(() -> new AssertionError("no completion"));
                assertThat(wc.status()).isEqualTo(CompletionStatus.SUCCESS);
            }
            // the last Write completed at the socket; its octets are placed when the server has read them
            ByteBuffer dst = p.sink.buffer();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (dst.get(size * writes - 1) != src.get(size - 1) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            for (int w = 0; w < writes; w++) {
                assertThat(dst.slice(w * size, size)).as("Write %d", w).isEqualTo(src.slice(0, size));
            }
        }
    }

    /** Both ends of a connection, the client's queue pair and CQ, a source region and the server's sink. */
    record Pair(Connection client, Connection server, QueuePair clientQp, CompletionQueue clientCq,
                MemoryRegion source, MemoryRegion sink) {}

    /** A connection from {@code client} to {@code server}; the sink is {@code sinkSize} octets, remotely writable. */
    static Pair connect(Rnic server, Rnic client, int sinkSize) throws Exception {
        ProtectionDomain spd = server.allocateProtectionDomain();
        CompletionQueue scq = server.createCompletionQueue(16);
        MemoryRegion sink = spd.allocateRegion(sinkSize, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        QueuePair sqp = spd.createQueuePair(scq);
        CompletableFuture<Connection> accepted = new CompletableFuture<>();
        Listener listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                ListenOptions.defaults(), r -> r.accept(sqp).whenComplete((c, e) -> {
                    if (e != null) {
                        accepted.completeExceptionally(e);
                    } else {
                        accepted.complete(c);
                    }
                }));
        ProtectionDomain cpd = client.allocateProtectionDomain();
        CompletionQueue ccq = client.createCompletionQueue(64);
        MemoryRegion source = cpd.allocateRegion(Math.max(64, Math.min(sinkSize, 64 * 1024)));
        QueuePair cqp = cpd.createQueuePair(ccq);
        Connection c = client.connect(listener.localAddress(), cqp, ConnectOptions.defaults())
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return new Pair(c, accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS), cqp, ccq, source, sink);
    }

    private static int[] marks(Connection c) {
        WriteBufferWaterMark m = ((ConnectionImpl) c).channel().config().getWriteBufferWaterMark();
        return new int[] {m.low(), m.high()};
    }

    private static long lowat(Connection c) {
        return ((ConnectionImpl) c).channel().config().getOption(EpollChannelOption.TCP_NOTSENT_LOWAT);
    }

    private static Rnic open(Transport transport, String name, int outboundBufferBytes) {
        return open(transport, name, outboundBufferBytes, RnicConfig.defaults().tcpNotSentLowat());
    }

    private static Rnic open(Transport transport, String name, int outboundBufferBytes, int notSentLowat) {
        return Rnic.open(RnicConfig.builder().name(name).transport(transport).eventLoopThreads(1)
                .outboundBufferBytes(outboundBufferBytes).tcpNotSentLowat(notSentLowat).build());
    }
}
