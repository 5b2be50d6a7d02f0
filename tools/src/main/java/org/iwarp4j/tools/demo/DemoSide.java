package org.iwarp4j.tools.demo;

import java.time.Duration;
import org.iwarp4j.tools.cli.Stacks;
import org.iwarp4j.verbs.CompletionOpcode;
import org.iwarp4j.verbs.CompletionQueue;
import org.iwarp4j.verbs.ProtectionDomain;
import org.iwarp4j.verbs.QueuePair;
import org.iwarp4j.verbs.QueuePairConfig;
import org.iwarp4j.verbs.Rnic;
import org.iwarp4j.verbs.WorkCompletion;
import org.iwarp4j.verbs.cm.Connection;

/** One end of the demo: its own RNIC, protection domain, completion queues and queue pair. */
final class DemoSide implements AutoCloseable {

    private static final Duration COMPLETION_TIMEOUT = Duration.ofSeconds(10);

    final String name;
    final Rnic rnic;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final QueuePair qp;
    Connection connection;

    DemoSide(String name) {
        this.name = name;
        this.rnic = Stacks.openRnic("demo-" + name);
        try {
            pd = rnic.allocateProtectionDomain();
            sendCq = rnic.createCompletionQueue(64);
            recvCq = rnic.createCompletionQueue(64);
            // RFC 7306 on: the demo shows atomics and Write with Immediate (Linux siw has neither).
            qp = pd.createQueuePair(QueuePairConfig.builder(sendCq, recvCq).maxSendWr(16).maxRecvWr(8).maxSge(2)
                    .ird(4).ord(4).rfc7306(true).build());
        } catch (RuntimeException e) {
            rnic.close();
            throw e;
        }
    }

    /** The next send completion (its own object, not a flyweight), which must be {@code opcode}. */
    WorkCompletion sendCompletion(CompletionOpcode opcode) throws DemoFailure, InterruptedException {
        return next(sendCq, "send", opcode);
    }

    /** The next receive completion (its own object), which must be {@code opcode}. */
    WorkCompletion receiveCompletion(CompletionOpcode opcode) throws DemoFailure, InterruptedException {
        return next(recvCq, "receive", opcode);
    }

    private WorkCompletion next(CompletionQueue cq, String queue, CompletionOpcode opcode)
            throws DemoFailure, InterruptedException {
        WorkCompletion wc = cq.take(COMPLETION_TIMEOUT).orElseThrow(() -> new DemoFailure(name + ": no " + opcode
                + " completion on the " + queue + " completion queue within " + COMPLETION_TIMEOUT.toSeconds() + " s"));
        if (!wc.isSuccess() || wc.opcode() != opcode) {
            throw new DemoFailure(name + ": expected a successful " + opcode + " completion, got " + wc);
        }
        return wc;
    }

    @Override
    public void close() {
        rnic.close();
    }
}
