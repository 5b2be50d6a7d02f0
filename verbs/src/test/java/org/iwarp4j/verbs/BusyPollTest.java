package org.iwarp4j.verbs;

import org.iwarp4j.verbs.Peers.Mem;
import org.iwarp4j.verbs.cm.AcceptOptions;
import org.iwarp4j.verbs.cm.ConnectOptions;
import org.iwarp4j.verbs.cm.ListenOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link RnicConfig#busyPoll()}: event loops that never sleep. A loop that waits in the kernel for sockets only
 * would not see a post an application thread hands it: with one operation in flight at a time, nothing but the
 * post can set it going, so each of these rounds completes only if the loop runs its tasks while it polls.
 */
class BusyPollTest {

    private static final int ROUNDS = 300;

    static Stream<Transport> transports() {
        return Peers.transports();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void postsFromAnApplicationThreadReachABusyPollingLoopOneAtATime(Transport transport) throws Exception {
        RnicConfig.Builder rnics = RnicConfig.builder().transport(transport).eventLoopThreads(1).busyPoll(true);
        try (Peers p = new Peers(rnics, b -> { }, b -> { }, ListenOptions.defaults(), ConnectOptions.defaults(),
                AcceptOptions.defaults(), q -> { })) {
            assertThat(p.clientRnic.config().busyPoll()).isTrue();
            Mem remote = p.server.region(64, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            Mem local = p.client.region(64, Access.LOCAL_WRITE);
            Mem recv = p.server.region(64, Access.LOCAL_WRITE);
            Set<SendFlag> signaled = Set.of(SendFlag.SIGNALED);
            for (int i = 0; i < ROUNDS; i++) {
                // one operation in flight, so nothing but this thread's post can set the loop going
                SendWorkRequest wr = switch (i % 3) {
                    case 0 -> new SendWorkRequest.RdmaWrite(i, List.of(local.sge(0, 8)), remote.stag(),
                            remote.address(), signaled);
                    case 1 -> new SendWorkRequest.RdmaRead(i, List.of(local.sge(8, 8)), remote.stag(),
                            remote.address(), signaled);
                    default -> new SendWorkRequest.Send(i, List.of(local.sge(0, 8)), signaled);
                };
                if (i % 3 == 2) {
                    p.server.receive(i, recv.sge(0, 64));
                }
                local.buf().putLong(0, i);
                p.client.post(wr);
                WorkCompletion wc = Completions.one(p.client.sendCq);
                assertThat(wc.status()).as("round %d", i).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(wc.wrId()).isEqualTo(i);
                if (i % 3 == 2) {
                    WorkCompletion r = Completions.one(p.server.recvCq);
                    assertThat(r.wrId()).isEqualTo(i);
                    assertThat(recv.buf().getLong(0)).isEqualTo(i);
                }
            }
            assertThat(remote.buf().getLong(0)).as("the last Write's value").isEqualTo((ROUNDS - 1) / 3 * 3L);
        }
    }

    @Test
    void ioUringCannotBusyPoll() {
        assertThatThrownBy(() -> RnicConfig.builder().transport(Transport.IO_URING).busyPoll(true).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("busyPoll needs epoll or NIO");
        assertThat(RnicConfig.defaults().busyPoll()).isFalse();
    }
}
