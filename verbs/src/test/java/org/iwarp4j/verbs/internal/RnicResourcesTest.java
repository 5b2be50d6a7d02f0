package org.iwarp4j.verbs.internal;

import org.iwarp4j.verbs.CompletionChannel;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.Transport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What an RNIC keeps of the resources an application made and closed. */
class RnicResourcesTest {

    @Test
    void aClosedCompletionQueueOrChannelIsNotKeptUntilTheRnicCloses() {
        try (Rnic rnic = Rnic.open(RnicConfig.builder().transport(Transport.NIO).eventLoopThreads(1).build())) {
            RnicImpl impl = (RnicImpl) rnic;
            CompletionChannel kept = rnic.createCompletionChannel();
            CompletionQueue keptCq = rnic.createCompletionQueue(4, kept);
            for (int i = 0; i < 100; i++) {
                CompletionChannel channel = rnic.createCompletionChannel();
                CompletionQueue cq = rnic.createCompletionQueue(1024, channel);
                cq.close();
                channel.close();
            }
            assertThat(impl.completionQueuesAndChannelsHeld()).as("only the open queue and channel").isEqualTo(2);
            keptCq.close();
            kept.close();
            assertThat(impl.completionQueuesAndChannelsHeld()).isZero();
        }
    }
}
