package org.iwarp4j.tools.perf.conn;

import org.iwarp4j.tools.cli.WireOptions;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.RnicConfig;
import org.iwarp4j.verbs.cm.ConnectOptions;

/**
 * How both ends of a connection test set up: event loops per RNIC, the queue pairs' depths, the MPA settings.
 *
 * @param eventLoops    event loop threads of each RNIC
 * @param sendDepth     each queue pair's send queue depth ({@code maxSendWr})
 * @param receiveDepth  each queue pair's receive queue depth ({@code maxRecvWr})
 * @param maxQueuePairs queue pairs an RNIC may hold at once
 * @param wire          MPA settings (CRC, markers); never a capture
 */
record ConnSettings(int eventLoops, int sendDepth, int receiveDepth, int maxQueuePairs, WireOptions wire) {

    /** An RNIC for this test, named {@code name} (which names its event loop threads). */
    Rnic openRnic(String name) {
        RnicConfig.Builder config = RnicConfig.builder().name(name).eventLoopThreads(eventLoops)
                .maxQueuePairs(maxQueuePairs);
        // each queue pair takes its IRD from an RNIC-wide sum, and up to the largest while it connects: enough of it
        // for every queue pair the test may hold, so that the sum never ends a test of many queue pairs first
        long reads = (long) maxQueuePairs * config.build().maxIrdOrd();
        return Rnic.open(config.maxInboundReadsAndAtomics((int) Math.min(Integer.MAX_VALUE, reads)).build());
    }

    /** A queue pair's configuration, both queues completing on {@code cq}. */
    QueuePairConfig queuePairConfig(CompletionQueue cq) {
        return QueuePairConfig.builder(cq, cq).maxSendWr(sendDepth).maxRecvWr(receiveDepth).build();
    }

    ConnectOptions connectOptions() {
        return wire.connect().build();
    }

    /** E.g. {@code send/receive depth 256/256}. */
    String describeQueuePairs() {
        return "send/receive depth " + sendDepth + "/" + receiveDepth;
    }
}
